// The gradebook's view of group assignments: each member's score from their group's latest revision
// (a per-member override first), docs/rules/next-year.md#gradebook.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { columnsFor, type GradeColumn } from "../gradebook/cells";
import { groupPeople } from "./link";
import { groupAssignmentConfigs, groupMemberScores, groupSubmissions } from "./tables";

/** Four queries for any number of group assignments; a score is released once the grade is RETURNED. */
export function groupAssignmentGrades(db: Db, contentIds: string[], profileId: string | null): Map<string, GradeColumn> {
  if (contentIds.length === 0) return new Map();
  const configs = db
    .select({
      id: groupAssignmentConfigs.contentId,
      setId: groupAssignmentConfigs.spaceGroupSetId,
      maxScore: groupAssignmentConfigs.maxScore,
    })
    .from(groupAssignmentConfigs)
    .where(inArray(groupAssignmentConfigs.contentId, contentIds))
    .all();
  const out = columnsFor(contentIds, new Map(configs.map((c) => [c.id, c.maxScore])));
  const setIds = [...new Set(configs.flatMap((c) => (c.setId ? [c.setId] : [])))];
  const people = groupPeople(db, { setIds }).filter((p) => profileId === null || p.profileId === profileId);
  const g = groupSubmissions;
  const latest = db
    .select({ id: g.id, contentId: g.contentId, groupId: g.groupId, status: g.status, score: g.score })
    .from(g)
    .where(and(inArray(g.contentId, contentIds), eq(g.isLatest, true)))
    .all();
  const graded = latest.filter((r) => r.status !== "SUBMITTED").map((r) => r.id);
  const overrides = new Map(
    (graded.length ? db.select().from(groupMemberScores).where(inArray(groupMemberScores.submissionId, graded)).all() : []).map((o) => [
      `${o.submissionId}:${o.profileId}`,
      o.score,
    ]),
  );
  const byGroup = new Map(latest.map((r) => [`${r.contentId}:${r.groupId}`, r]));
  for (const c of configs) {
    const cells = out.get(c.id)?.cells;
    if (!cells || c.setId === null) continue;
    for (const p of people) {
      if (p.setId !== c.setId) continue;
      const sub = byGroup.get(`${c.id}:${p.groupId}`);
      if (!sub) continue;
      const score = overrides.get(`${sub.id}:${p.profileId}`) ?? sub.score;
      cells.set(p.profileId, { score, status: sub.status, released: sub.status === "RETURNED" });
    }
  }
  return out;
}
