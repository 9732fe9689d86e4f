// copyContent and copySpace (docs/rules/next-year.md#copies): the library copies rows and folders,
// each content type copies its own config through its copier, learner data is never copied.
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { forbidden } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import type { ContentType } from "../../schema/library";
import { copyAssignmentConfig } from "../assignments/copy";
import { copyGroupAssignmentConfig } from "../group-assignments/copy";
import { contentForManager } from "../library/access";
import { type ConfigCopier, copyContentRows, copySpaceNodes, spaceContents } from "../library/copy";
import { nodeForContent } from "../library/nodes";
import { getContent } from "../library/service";
import { copyPeerAssessmentConfig } from "../peer-assessments/copy";
import { copySpacePosts } from "../posts/copy";
import { copyQuizConfig } from "../quizzes/copy";
import { requireSpaceAdmin } from "../spaces/access";
import { copySpaceShell } from "../spaces/copy";
import { getSpace } from "../spaces/service";
import { copySurveyConfig } from "../surveys/copy";
import type { CopyContentBody, CopySpaceBody } from "./model";

/** Each type's own config rows (media types keep everything in the content row's info). */
const COPIERS: Partial<Record<ContentType, ConfigCopier>> = {
  QUIZ: copyQuizConfig,
  SURVEY: copySurveyConfig,
  ASSIGNMENT: copyAssignmentConfig,
  GROUP_ASSIGNMENT: copyGroupAssignmentConfig,
  GROUP_PEER_ASSESSMENT: copyPeerAssessmentConfig,
};

/**
 * copyContent: the caller manages the source (404/403) and may create a content in the target
 * folder (as createContent: library:upload, a folder they see (400), ADMIN of its space (403)).
 * A group-set link is kept when the copy stays in the source's space.
 */
export function copyContent(rt: Runtime, actor: Actor, contentId: string, body: Static<typeof CopyContentBody>, now = Date.now()) {
  const id = write(actor.db, (tx) => {
    const src = contentForManager(actor, contentId, undefined, tx);
    if (!actor.permissionSet.has("library:upload")) throw forbidden();
    const node = nodeForContent(tx, actor, body.nodeId);
    const to = copyContentRows(
      tx,
      actor,
      [src],
      () => node,
      () => body.title ?? src.title,
      now,
    ).get(src.id) as string;
    const sameSpace = node.spaceId !== null && node.spaceId === src.spaceId;
    COPIERS[src.type]?.(tx, src.id, to, { now, groupSet: (setId) => (sameSpace ? setId : null) });
    return to;
  });
  return getContent(rt, actor, id);
}

/**
 * copySpace: ADMIN of the source (404/403) holding space:create (403). The caller owns the copy;
 * contents (PRIVATE drafts) keep their folders, group-set links follow the copied sets.
 */
export function copySpace(rt: Runtime, actor: Actor, spaceId: string, body: Static<typeof CopySpaceBody>, now = Date.now()) {
  const id = write(actor.db, (tx) => {
    const { callerRole: _, ...src } = requireSpaceAdmin(actor, spaceId, tx);
    if (!actor.permissionSet.has("space:create")) throw forbidden();
    const copy = copySpaceShell(tx, actor, src, body, now);
    if (body.includeContents ?? true) {
      const nodes = copySpaceNodes(tx, src.id, copy.row.id, now);
      const contents = spaceContents(tx, src.id);
      const ids = copyContentRows(
        tx,
        actor,
        contents,
        (c) => nodes.get(c.nodeId as string) as { id: string; spaceId: string },
        (c) => c.title,
        now,
      );
      const ctx = { now, groupSet: (setId: string) => copy.groupSets.get(setId) ?? null };
      for (const c of contents) COPIERS[c.type]?.(tx, c.id, ids.get(c.id) as string, ctx);
    }
    if (body.includePosts) copySpacePosts(tx, src.id, copy.row.id, now);
    return copy.row.id;
  });
  return getSpace(rt, actor, id);
}
