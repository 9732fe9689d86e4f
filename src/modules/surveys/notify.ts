// What surveys tell the notifications module: who has not responded before closesAt
// (docs/rules/notifications.md#due-soon).
import { and, eq } from "drizzle-orm";
import { contentForReminders } from "../library/notify";
import type { DueSource } from "../notifications/due";
import { surveyConfigs, surveyResponses } from "./tables";

export const surveyDueSource: DueSource = (db, contentId) => {
  const c = contentForReminders(db, contentId);
  if (!c) return null;
  const closesAt =
    db.select({ at: surveyConfigs.closesAt }).from(surveyConfigs).where(eq(surveyConfigs.contentId, contentId)).get()?.at ?? null;
  if (closesAt === null) return { spaceId: c.spaceId, title: c.title, pending: [] };
  const submitted = new Set(
    db
      .select({ profileId: surveyResponses.profileId })
      .from(surveyResponses)
      .where(and(eq(surveyResponses.contentId, contentId), eq(surveyResponses.status, "SUBMITTED")))
      .all()
      .map((r) => r.profileId),
  );
  const pending = c.participants.filter((p) => !submitted.has(p.profileId)).map((p) => ({ memberId: p.memberId, dueAt: closesAt }));
  return { spaceId: c.spaceId, title: c.title, pending };
};
