// What assignments tell the notifications module: each participant's due moment (extensions included)
// (docs/rules/notifications.md#due-soon).
import { eq } from "drizzle-orm";
import { contentForReminders } from "../library/notify";
import type { DueSource } from "../notifications/due";
import { extensionsByOwner } from "../submissions/extensions";
import { loadAssignmentConfig } from "./config";
import { ASSIGNMENT_EXTENSIONS } from "./deadlines";
import { assignmentSubmissions } from "./tables";

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
  const extended = extensionsByOwner(db, ASSIGNMENT_EXTENSIONS, contentId);
  const pending = c.participants.flatMap((p) => {
    const due = extended.get(p.profileId) ?? dueAt;
    return submitted.has(p.profileId) || due === null ? [] : [{ memberId: p.memberId, dueAt: due }];
  });
  return { spaceId: c.spaceId, title: c.title, pending };
};
