// Per-group deadlines (setGroupSubmissionExtension, docs/rules/next-year.md#extensions).
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { iso } from "../../platform/http/schemas";
import { deadlineFor, type ExtensionStore, setExtension } from "../submissions/extensions";
import { GROUP_ASSIGNMENT, loadGroupAssignmentConfig } from "./config";
import { linkStatus, setGroups } from "./link";
import type { ExtensionBody, GroupExtension } from "./model";
import { groupAssignmentExtensions as x } from "./tables";

export const GROUP_EXTENSIONS: ExtensionStore = {
  type: GROUP_ASSIGNMENT,
  table: x,
  contentId: x.contentId,
  owner: x.groupId,
  ownerKey: "groupId",
  dueAt: x.dueAt,
};

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
  const member = {
    field: "groupId",
    message: "must be a group of this assignment's group set",
    check: (tx: Db) => {
      const cfg = loadGroupAssignmentConfig(tx, contentId);
      const linked = linkStatus(tx, cfg).isLinkValid && cfg.spaceGroupSetId !== null;
      return linked && setGroups(tx, cfg.spaceGroupSetId as string).some((g) => g.id === groupId);
    },
  };
  const dueAt = setExtension(actor, GROUP_EXTENSIONS, member, { contentId, ownerId: groupId }, body.dueAt, now);
  return { groupId, dueAt: iso(dueAt) };
}
