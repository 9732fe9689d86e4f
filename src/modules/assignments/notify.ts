// What assignments tell the notifications module: each participant's due moment (extensions included)
// (docs/rules/notifications.md#due-soon).
import { eq } from "drizzle-orm";
import { contentForReminders } from "../library/notify";
import type { DueSource } from "../notifications/due";
import { loadAssignmentConfig } from "./config";
import { assignmentExtensions, assignmentSubmissions } from "./tables";

/** Each active participant who has not submitted, with their own deadline (extension, else dueAt). */
export const assignmentDueSource: DueSource = (db, contentId) => {
  const c = contentForReminders(db, contentId);
  if (!c) return null;
  const dueAt = loadAssignmentConfig(db, contentId).dueAt;
  const submitted = new Set(
    db
      .selectDistinct({ profileId: assignmentSubmissions.profileId })
      .from(assignmentSubmissions)
      .where(eq(assignmentSubmissions.contentId, contentId))
      .all()
      .map((r) => r.profileId),
  );
  const extended = new Map(
    db
      .select({ profileId: assignmentExtensions.profileId, dueAt: assignmentExtensions.dueAt })
      .from(assignmentExtensions)
      .where(eq(assignmentExtensions.contentId, contentId))
      .all()
      .map((r) => [r.profileId, r.dueAt]),
  );
  const pending = c.participants.flatMap((p) => {
    const due = extended.get(p.profileId) ?? dueAt;
    return submitted.has(p.profileId) || due === null ? [] : [{ memberId: p.memberId, dueAt: due }];
  });
  return { spaceId: c.spaceId, title: c.title, pending };
};
