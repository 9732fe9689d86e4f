// What group assignments tell the notifications module: the members of groups that have not
// submitted, with the group's due moment (docs/rules/notifications.md#due-soon).
import { eq } from "drizzle-orm";
import { contentForReminders } from "../library/notify";
import type { DueSource } from "../notifications/due";
import { loadGroupAssignmentConfig } from "./config";
import { groupPeople, linkStatus } from "./link";
import { groupAssignmentExtensions, groupSubmissions } from "./tables";

export const groupAssignmentDueSource: DueSource = (db, contentId) => {
  const c = contentForReminders(db, contentId);
  if (!c) return null;
  const cfg = loadGroupAssignmentConfig(db, contentId);
  if (cfg.dueAt === null || cfg.spaceGroupSetId === null || !linkStatus(db, cfg).isLinkValid)
    return { spaceId: c.spaceId, title: c.title, pending: [] };
  const submitted = new Set(
    db
      .selectDistinct({ groupId: groupSubmissions.groupId })
      .from(groupSubmissions)
      .where(eq(groupSubmissions.contentId, contentId))
      .all()
      .map((r) => r.groupId),
  );
  const participants = new Set(c.participants.map((p) => p.memberId));
  // A group's extension moves its members' moment (one query for every group).
  const extended = new Map(
    db
      .select({ groupId: groupAssignmentExtensions.groupId, dueAt: groupAssignmentExtensions.dueAt })
      .from(groupAssignmentExtensions)
      .where(eq(groupAssignmentExtensions.contentId, contentId))
      .all()
      .map((r) => [r.groupId, r.dueAt]),
  );
  const pending = groupPeople(db, { setId: cfg.spaceGroupSetId }).flatMap((p) => {
    const dueAt = extended.get(p.groupId) ?? cfg.dueAt;
    return submitted.has(p.groupId) || !participants.has(p.memberId) || dueAt === null ? [] : [{ memberId: p.memberId, dueAt }];
  });
  return { spaceId: c.spaceId, title: c.title, pending };
};
