// What quizzes tell the notifications module: who has not submitted before closesAt
// (docs/rules/notifications.md#due-soon). A per-student override's closesAt belongs here too.
import { and, eq, isNotNull } from "drizzle-orm";
import { contentForReminders } from "../library/notify";
import type { DueSource } from "../notifications/due";
import { quizAttempts, quizConfigs } from "./tables";

export const quizDueSource: DueSource = (db, contentId) => {
  const c = contentForReminders(db, contentId);
  if (!c) return null;
  const closesAt = db.select({ at: quizConfigs.closesAt }).from(quizConfigs).where(eq(quizConfigs.contentId, contentId)).get()?.at ?? null;
  if (closesAt === null) return { spaceId: c.spaceId, title: c.title, pending: [] };
  const submitted = new Set(
    db
      .selectDistinct({ profileId: quizAttempts.profileId })
      .from(quizAttempts)
      .where(and(eq(quizAttempts.contentId, contentId), isNotNull(quizAttempts.submittedAt)))
      .all()
      .map((r) => r.profileId),
  );
  const pending = c.participants.filter((p) => !submitted.has(p.profileId)).map((p) => ({ memberId: p.memberId, dueAt: closesAt }));
  return { spaceId: c.spaceId, title: c.title, pending };
};
