// What quizzes tell the notifications module: who has not submitted before closesAt
// (docs/rules/notifications.md#due-soon), a per-student override's closesAt included.
import { and, eq, isNotNull } from "drizzle-orm";
import { contentForReminders } from "../library/notify";
import type { DueSource } from "../notifications/due";
import { ownClosesAt } from "./overrides";
import { quizAttempts, quizConfigs } from "./tables";

export const quizDueSource: DueSource = (db, contentId) => {
  const c = contentForReminders(db, contentId);
  if (!c) return null;
  const closesAt = db.select({ at: quizConfigs.closesAt }).from(quizConfigs).where(eq(quizConfigs.contentId, contentId)).get()?.at ?? null;
  const submitted = new Set(
    db
      .selectDistinct({ profileId: quizAttempts.profileId })
      .from(quizAttempts)
      .where(and(eq(quizAttempts.contentId, contentId), isNotNull(quizAttempts.submittedAt)))
      .all()
      .map((r) => r.profileId),
  );
  // A per-student override's closesAt moves that student's moment.
  const own = ownClosesAt(db, [contentId], null);
  const pending = c.participants.flatMap((p) => {
    const dueAt = own.get(`${contentId}:${p.profileId}`) ?? closesAt;
    return submitted.has(p.profileId) || dueAt === null ? [] : [{ memberId: p.memberId, dueAt }];
  });
  return { spaceId: c.spaceId, title: c.title, pending };
};
