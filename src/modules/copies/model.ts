import { t } from "elysia";
import { Id, Nullable } from "../../platform/http/schemas";

export const CopyContentParams = t.Object({ contentId: Id });
export const CopyContentBody = t.Object({
  nodeId: Id,
  title: t.Optional(
    t.String({ minLength: 1, maxLength: 300, error: "must be 1..300 characters", description: "Default: the source's title" }),
  ),
});

export const CopySpaceParams = t.Object({ spaceId: Id });
export const CopySpaceBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" }),
  semester: t.Optional(
    Nullable(t.String({ maxLength: 255, error: "must be at most 255 characters", description: "Default: the source's" })),
  ),
  includeAdmins: t.Optional(t.Boolean()),
  includeContents: t.Optional(t.Boolean()),
  includePosts: t.Optional(t.Boolean()),
});
