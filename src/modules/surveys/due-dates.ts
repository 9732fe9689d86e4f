// When each survey closes and whether one student answered it (a guardian's overview, docs/rules/members.md#overview).
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { surveyConfigs, surveyResponses } from "./tables";

/** Each survey's closesAt (the moment it is due; surveys have no per-student dates) and whether the student submitted a response: one query. */
export function surveyCloseDates(db: Db, contentIds: string[], profileId: string): Map<string, { at: number | null; submitted: boolean }> {
  if (contentIds.length === 0) return new Map();
  const rows = db
    .select({ id: surveyConfigs.contentId, closesAt: surveyConfigs.closesAt, status: surveyResponses.status })
    .from(surveyConfigs)
    .leftJoin(surveyResponses, and(eq(surveyResponses.contentId, surveyConfigs.contentId), eq(surveyResponses.profileId, profileId)))
    .where(inArray(surveyConfigs.contentId, contentIds))
    .all();
  return new Map(rows.map((r) => [r.id, { at: r.closesAt, submitted: r.status === "SUBMITTED" }]));
}
