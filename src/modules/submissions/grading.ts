// Scoring a revision: rubric items against the rubric, the score they give, and the maxScore bound.
import type { FieldError } from "../../platform/http/errors";

export type RubricItem = { criterionId: string; levelId: string | null; points: number };
export type Rubric = {
  useLevel: boolean;
  criteria: { id: string; maxPoints: number; levels: { id: string; points: number }[] }[];
};
type SentItem = { criterionId: string; levelId?: string | null; points?: number };

export const rubricTotal = (items: RubricItem[]) => items.reduce((sum, i) => sum + i.points, 0);

/**
 * Checks rubric items against a rubric: each criterion once; with useLevel a level of that
 * criterion is required and its points are the default; without, levelId must be absent and points
 * are required; points never above the criterion's maxPoints.
 */
export function checkRubricItems(rubric: Rubric, items: SentItem[], errors: FieldError[]): RubricItem[] {
  const err = (field: string, message: string) => errors.push({ in: "body", field, message });
  const criteria = new Map(rubric.criteria.map((c) => [c.id, c]));
  const seen = new Set<string>();
  const out: RubricItem[] = [];
  for (const [i, item] of items.entries()) {
    const at = `rubric[${i}]`;
    const c = criteria.get(item.criterionId);
    if (!c || seen.has(item.criterionId)) {
      err(`${at}.criterionId`, c ? "repeats an earlier criterion" : "must be a criterion of this assignment's rubric");
      continue;
    }
    seen.add(c.id);
    let points = item.points;
    let levelId: string | null = null;
    if (rubric.useLevel) {
      const level = item.levelId == null ? undefined : c.levels.find((l) => l.id === item.levelId);
      if (!level) {
        err(`${at}.levelId`, "must be a level of this criterion");
        continue;
      }
      levelId = level.id;
      points ??= level.points;
    } else if (item.levelId != null) {
      err(`${at}.levelId`, "must be absent or null while the rubric does not use levels");
      continue;
    }
    if (points === undefined) {
      err(`${at}.points`, "is required while the rubric does not use levels");
      continue;
    }
    if (points > c.maxPoints) {
      err(`${at}.points`, `must be at most the criterion's maxPoints (${c.maxPoints})`);
      continue;
    }
    out.push({ criterionId: c.id, levelId, points });
  }
  return out;
}

/** Notes a score above the assignment's maxScore on `field` (a null score or maxScore is no bound). */
export function checkMaxScore(score: number | null, maxScore: number | null, field: string, errors: FieldError[]) {
  if (maxScore !== null && score !== null && score > maxScore) {
    errors.push({ in: "body", field, message: `must be at most the assignment's maxScore (${maxScore})` });
  }
}
