// What group assignments tell the notifications module: the members of groups that have not
// submitted, with the group's due moment (docs/rules/notifications.md#due-soon).
import { eq } from "drizzle-orm";
import { contentForReminders } from "../library/notify";
import type { DueSource } from "../notifications/due";
import { extensionsByOwner } from "../submissions/extensions";
import { loadGroupAssignmentConfig } from "./config";
import { GROUP_EXTENSIONS } from "./extensions";
import { groupPeople, linkStatus } from "./link";
import { groupSubmissions } from "./tables";

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
  const extended = extensionsByOwner(db, GROUP_EXTENSIONS, contentId);
  const pending = groupPeople(db, { setId: cfg.spaceGroupSetId }).flatMap((p) => {
    const dueAt = extended.get(p.groupId) ?? cfg.dueAt;
    return submitted.has(p.groupId) || !participants.has(p.memberId) || dueAt === null ? [] : [{ memberId: p.memberId, dueAt }];
  });
  return { spaceId: c.spaceId, title: c.title, pending };
};
