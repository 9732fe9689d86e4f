import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { iso, isoRequired } from "../../platform/http/schemas";
import {
  type AnswerRow,
  type AttemptRow,
  answersOf,
  correctOptionIds,
  counts,
  feedbackOf,
  inQuestionOrder,
  questionSetsOf,
} from "./attempt-rows";
import type { MyQuizAttempt, MyQuizAttempts } from "./model";
import { myQuizState } from "./participant-view";
import { finalScoreOf, passedOf } from "./scoring";
import type { ResultExposeLevel, StoredQuestion } from "./tables";

/** MyQuizAttempt as resultExposeLevel allows: STATUS_ONLY hides scores, only ALL shows answers (of a submitted attempt). */
export function toMyAttempt(
  a: AttemptRow,
  level: ResultExposeLevel,
  passScore: number | null,
  detail: { questions: StoredQuestion[]; answers: AnswerRow[] } | null,
): Static<typeof MyQuizAttempt> {
  const showScore = level !== "STATUS_ONLY";
  const showAnswers = level === "ALL" && a.submittedAt !== null && detail !== null;
  return {
    attemptId: a.id,
    startedAt: isoRequired(a.startedAt),
    expiresAt: iso(a.expiresAt),
    submittedAt: iso(a.submittedAt),
    score: showScore ? a.score : null,
    passed: showScore ? passedOf(a.score, a.scoringCompletedAt !== null, passScore) : null,
    hasPendingManual: a.hasPendingManual,
    scoringCompletedAt: iso(a.scoringCompletedAt),
    voidedAt: iso(a.voidedAt),
    answers: showAnswers
      ? inQuestionOrder(detail.questions, detail.answers).map(({ q, a: x }) => ({
          questionId: q.id,
          selectedOptionIds: x.selectedOptionIds,
          textAnswer: x.textAnswer,
          isCorrect: x.isCorrect,
          pointsAwarded: x.pointsAwarded,
          correctOptionIds: correctOptionIds(q),
          explanation: q.explanation,
          feedback: feedbackOf(x),
        }))
      : null,
  };
}

/** listMyQuizAttempts: newest first; finalScore per scoreAggregation over fully scored attempts. */
export function listMyQuizAttempts(actor: Actor, contentId: string, now = Date.now()): Static<typeof MyQuizAttempts> {
  const { db, cfg, mine } = myQuizState(actor, contentId, now);
  const level = cfg.resultExposeLevel;
  const submitted = mine.filter((a) => a.submittedAt !== null);
  const sets =
    level === "ALL"
      ? questionSetsOf(
          db,
          submitted.map((a) => a.questionSetId),
        )
      : new Map();
  const answers =
    level === "ALL"
      ? answersOf(
          db,
          submitted.map((a) => a.id),
        )
      : new Map();
  const scored = mine.flatMap((a) =>
    counts(a) && a.scoringCompletedAt !== null && a.score !== null && a.submittedAt !== null
      ? [{ id: a.id, score: a.score, submittedAt: a.submittedAt }]
      : [],
  );
  const finalScore = level === "STATUS_ONLY" ? null : finalScoreOf(scored, cfg.scoreAggregation);
  return {
    resultExposeLevel: level,
    finalScore,
    passed: finalScore === null ? null : passedOf(finalScore, true, cfg.passScore),
    attempts: mine.map((a) =>
      toMyAttempt(a, level, cfg.passScore, { questions: sets.get(a.questionSetId) ?? [], answers: answers.get(a.id) ?? [] }),
    ),
  };
}
