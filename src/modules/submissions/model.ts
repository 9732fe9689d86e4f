import { t } from "elysia";
import { DateTimeInput, Nullable } from "../../platform/http/schemas";

/** setSubmissionExtension, setGroupSubmissionExtension: the owner's own deadline; null (or absent) removes it. */
export const ExtensionBody = t.Object({ dueAt: t.Optional(Nullable(DateTimeInput)) });
