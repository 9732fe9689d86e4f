// Per-participant deadlines (setSubmissionExtension, docs/rules/next-year.md#extensions).
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { iso } from "../../platform/http/schemas";
import { type ContentAccess, contentPopulation } from "../library/access";
import { setExtension } from "../submissions/extensions";
import { ASSIGNMENT_EXTENSIONS } from "./deadlines";
import type { Extension, ExtensionBody } from "./model";

/**
 * setSubmissionExtension: sets (or with null removes) one participant's deadline for the submits to
 * come. The profile must be a participant of the content's space (else 400 naming profileId).
 */
export function setSubmissionExtension(
  actor: Actor,
  contentId: string,
  profileId: string,
  body: Static<typeof ExtensionBody>,
  now = Date.now(),
): Static<typeof Extension> {
  const participant = {
    field: "profileId",
    message: "must be a participant of this content's space",
    check: (tx: Db, content: ContentAccess) => contentPopulation(tx, content).some((p) => p.profileId === profileId),
  };
  const dueAt = setExtension(actor, ASSIGNMENT_EXTENSIONS, participant, { contentId, ownerId: profileId }, body.dueAt, now);
  return { profileId, dueAt: iso(dueAt) };
}
