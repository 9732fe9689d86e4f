// Per-group deadlines (setGroupSubmissionExtension, docs/rules/next-year.md#extensions).
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { iso } from "../../platform/http/schemas";
import { contentForManager } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { deadlineFor, type ExtensionStore, putExtension } from "../submissions/extensions";
import { GROUP_ASSIGNMENT, loadGroupAssignmentConfig } from "./config";
import { linkStatus, setGroups } from "./link";
import type { ExtensionBody, GroupExtension } from "./model";
import { groupAssignmentExtensions as x } from "./tables";

const GROUP_EXTENSIONS: ExtensionStore = { table: x, contentId: x.contentId, owner: x.groupId, ownerKey: "groupId", dueAt: x.dueAt };

/** The deadline of one group: its extension, else the config's dueAt. */
export const groupDueAt = (db: Db, contentId: string, groupId: string, configDueAt: number | null) =>
  deadlineFor(db, GROUP_EXTENSIONS, contentId, groupId, configDueAt);

/**
 * setGroupSubmissionExtension: sets (or with null removes) one group's deadline for the submits to
 * come. The group must be one of the linked set's (else 400 naming groupId).
 */
export function setGroupSubmissionExtension(
  actor: Actor,
  contentId: string,
  groupId: string,
  body: Static<typeof ExtensionBody>,
  now = Date.now(),
): Static<typeof GroupExtension> {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, GROUP_ASSIGNMENT, tx);
    const cfg = loadGroupAssignmentConfig(tx, contentId);
    const linked = linkStatus(tx, cfg).isLinkValid && cfg.spaceGroupSetId !== null;
    if (!linked || !setGroups(tx, cfg.spaceGroupSetId as string).some((g) => g.id === groupId)) {
      throw invalid("groupId", "must be a group of this assignment's group set", "path");
    }
    const dueAt = putExtension(tx, GROUP_EXTENSIONS, contentId, groupId, body.dueAt, now);
    dueMomentsChanged(tx, actor, contentId, GROUP_ASSIGNMENT); // docs/rules/notifications.md#due-soon
    return { groupId, dueAt: iso(dueAt) };
  });
}
