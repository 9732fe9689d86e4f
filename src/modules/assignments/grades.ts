// The gradebook's view of assignments: the latest revision of each submitter (docs/rules/next-year.md#gradebook).
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { columnsFor, type GradeColumn } from "../gradebook/cells";
import { assignmentConfigs, assignmentSubmissions } from "./tables";

/** Two queries for any number of assignments; a score is released once the grade is RETURNED. */
export function assignmentGrades(db: Db, contentIds: string[], profileId: string | null): Map<string, GradeColumn> {
  if (contentIds.length === 0) return new Map();
  const maxScores = new Map(
    db
      .select({ id: assignmentConfigs.contentId, maxScore: assignmentConfigs.maxScore })
      .from(assignmentConfigs)
      .where(inArray(assignmentConfigs.contentId, contentIds))
      .all()
      .map((r) => [r.id, r.maxScore]),
  );
  const out = columnsFor(contentIds, maxScores);
  const s = assignmentSubmissions;
  const rows = db
    .select({ contentId: s.contentId, profileId: s.profileId, status: s.status, score: s.score })
    .from(s)
    .where(and(inArray(s.contentId, contentIds), eq(s.isLatest, true), profileId === null ? undefined : eq(s.profileId, profileId)))
    .all();
  for (const r of rows) {
    out.get(r.contentId)?.cells.set(r.profileId, { score: r.score, status: r.status, released: r.status === "RETURNED" });
  }
  return out;
}
