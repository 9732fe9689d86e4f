// The gradebook's view of quizzes: each participant's final score per scoreAggregation over their
// counted (not voided), fully scored attempts (docs/rules/next-year.md#gradebook).
import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { columnsFor, type GradeColumn } from "../gradebook/cells";
import { settleExpiredQuizzes } from "./attempt-closing";
import { finalScoreOf } from "./scoring";
import { quizAttempts, quizConfigs, quizQuestionSets, type ScoreAggregation } from "./tables";

/**
 * Three queries (four when overdue attempts must first be submitted) for any number of quizzes.
 * maxScore is the sum of the current questions' points; a result is released unless STATUS_ONLY.
 */
export function quizGrades(db: Db, contentIds: string[], profileId: string | null, now = Date.now()): Map<string, GradeColumn> {
  if (contentIds.length === 0) return new Map();
  const configs = db
    .select({
      id: quizConfigs.contentId,
      aggregation: quizConfigs.scoreAggregation,
      level: quizConfigs.resultExposeLevel,
      questions: quizQuestionSets.questions,
    })
    .from(quizConfigs)
    .innerJoin(quizQuestionSets, eq(quizQuestionSets.id, quizConfigs.questionSetId))
    .where(inArray(quizConfigs.contentId, contentIds))
    .all();
  const out = columnsFor(contentIds, new Map(configs.map((c) => [c.id, c.questions.reduce((sum, q) => sum + q.point, 0)])));
  settleExpiredQuizzes(db, contentIds, now);
  const a = quizAttempts;
  const attempts = db
    .select({
      id: a.id,
      contentId: a.contentId,
      profileId: a.profileId,
      score: a.score,
      submittedAt: a.submittedAt,
      done: a.scoringCompletedAt,
    })
    .from(a)
    .where(
      and(
        inArray(a.contentId, contentIds),
        isNotNull(a.submittedAt),
        isNull(a.voidedAt),
        profileId === null ? undefined : eq(a.profileId, profileId),
      ),
    )
    .all();
  const grouped = new Map<string, typeof attempts>();
  for (const x of attempts) {
    const key = `${x.contentId}:${x.profileId}`;
    const list = grouped.get(key);
    if (list) list.push(x);
    else grouped.set(key, [x]);
  }
  const settings = new Map(
    configs.map((c) => [c.id, { aggregation: c.aggregation as ScoreAggregation, released: c.level !== "STATUS_ONLY" }]),
  );
  for (const list of grouped.values()) {
    const first = list[0];
    const s = first && settings.get(first.contentId);
    if (!first || !s) continue;
    const scored = list.flatMap((x) => (x.done !== null ? [{ id: x.id, score: x.score ?? 0, submittedAt: x.submittedAt as number }] : []));
    const score = finalScoreOf(scored, s.aggregation);
    out.get(first.contentId)?.cells.set(first.profileId, { score, status: score === null ? "SUBMITTED" : "GRADED", released: s.released });
  }
  return out;
}
