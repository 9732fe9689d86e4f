import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { ContentDetail } from "../library/model";
import { Space } from "../spaces/model";
import { CopyContentBody, CopyContentParams, CopySpaceBody, CopySpaceParams } from "./model";
import { copyContent, copySpace } from "./service";

/** Copies of a content and of a whole space for next year (docs/rules/next-year.md#copies). */
export function copiesModule(rt: Runtime) {
  return apiModule("module.copies")
    .use(authPlugin(rt))
    .post(
      "/library/contents/:contentId/copy",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return copyContent(rt, actor, params.contentId, body);
      },
      {
        ...route("copyContent", "library", "contentManager", {
          summary: "Copy a content",
          description:
            "Makes a PRIVATE draft of the same type in the folder `nodeId`, authored by the caller: its info, config, questions, options, rubric and attachments (the same stored files, referenced again; questions and options get new ids). No submissions, attempts, responses, shares, extensions or overrides are copied; `dueAt`, `opensAt`, `closesAt` and live times are cleared. A group-set link is kept only when the copy stays in the same space. The target folder needs what createContent needs there.",
          errors: [
            "400 `VALIDATION_FAILED` when `nodeId` is not a folder you can see",
            "403 `FORBIDDEN` without `library:upload`, or when the folder is in a space you are not ADMIN of",
          ],
        }),
        params: CopyContentParams,
        body: CopyContentBody,
        response: { 201: ContentDetail },
      },
    )
    .post(
      "/spaces/:spaceId/copy",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return copySpace(rt, actor, params.spaceId, body);
      },
      {
        ...route("copySpace", "spaces", "spaceAdmin", {
          summary: "Copy a space for next year",
          description:
            "A new active space owned by the caller with the source's settings, field values and group sets (without members); with `includeAdmins` (default true) its other ADMINs; with `includeContents` (default true) its folder tree and contents, copied as copyContent does (PRIVATE drafts); with `includePosts` (default false) its posts, ARCHIVED (republish with updatePost). No participants, challenges, join codes, blocks or history.",
          errors: ["403 `FORBIDDEN` without `space:create`"],
        }),
        params: CopySpaceParams,
        body: CopySpaceBody,
        response: { 201: Space },
      },
    );
}
