// The manager's view of the attempts: statistics, the attempt list and detail, hand scoring, e-mail count.
import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members, profiles } from "../../schema/members";
import { contentForManager, contentPopulation } from "../library/access";
import { gradeReturned } from "../library/notify";
import { profilesWithEmail } from "../members/directory";
import { percent, selectedCounts } from "../question-sets/statistics";
import { closeExpired, settleExpired } from "./attempt-closing";
import { type AnswerRow, type AttemptRow, answersOf, correctOptionIds, feedbackOf, inQuestionOrder } from "./attempt-rows";
import { isChoice, loadQuestionSet, loadQuizConfig, QUIZ } from "./config";
import type { AttemptDetail, QuizStatistics, ScoreAnswerBody } from "./model";
import { attemptTotals, finalScoreOf, passedOf } from "./scoring";
import { quizAnswers, quizAttempts } from "./tables";

const ATTEMPTS_OP = "listQuizAttempts";

/**
 * getQuizStatistics. Counts are per submitter (profile) except pendingManualCount (attempts
 * waiting for hand scoring). A submitter is graded once one attempt is fully scored; their final
 * score follows scoreAggregation. Per-question figures come from the answers of submitted attempts
 * (to the current questions, by id). Voided attempts count toward nothing. Four queries over the quiz.
 */
export function getQuizStatistics(actor: Actor, contentId: string, now = Date.now()): Static<typeof QuizStatistics> {
  const content = contentForManager(actor, contentId, QUIZ);
  const db = actor.db;
  settleExpired(db, contentId, null, now);
  const cfg = loadQuizConfig(db, contentId);
  const at = quizAttempts;
  const attempts = db
    .select({
      id: at.id,
      profileId: at.profileId,
      score: at.score,
      submittedAt: at.submittedAt,
      scoringCompletedAt: at.scoringCompletedAt,
      hasPendingManual: at.hasPendingManual,
    })
    .from(at)
    .where(and(eq(at.contentId, contentId), isNotNull(at.submittedAt), isNull(at.voidedAt)))
    .all();
  const bySubmitter = new Map<string, { id: string; score: number; submittedAt: number }[]>();
  for (const a of attempts) {
    const list = bySubmitter.get(a.profileId) ?? [];
    if (a.scoringCompletedAt !== null) list.push({ id: a.id, score: a.score ?? 0, submittedAt: a.submittedAt as number });
    bySubmitter.set(a.profileId, list);
  }
  const finals = [...bySubmitter.values()].flatMap((list) => {
    const f = finalScoreOf(list, cfg.scoreAggregation);
    return f === null ? [] : [f];
  });
  const passedCount = cfg.passScore === null ? 0 : finals.filter((f) => f >= (cfg.passScore as number)).length;
  const population = contentPopulation(db, content);

  const an = quizAnswers;
  const submittedAnswers = and(
    eq(an.contentId, contentId),
    isNotNull(an.submittedAt),
    eq(an.answered, true),
    sql`NOT EXISTS (SELECT 1 FROM quiz_attempts v WHERE v.id = ${an.attemptId} AND v.voided_at IS NOT NULL)`,
  );
  const perQuestion = new Map(
    db
      .select({ questionId: an.questionId, n: count(), correct: sql<number>`sum(${an.isCorrect} = 1)`.mapWith(Number) })
      .from(an)
      .where(submittedAnswers)
      .groupBy(an.questionId)
      .all()
      .map((x) => [x.questionId, x]),
  );
  const selected = selectedCounts(db, an, an.selectedOptionIds, submittedAnswers);

  return {
    submittedCount: bySubmitter.size,
    gradedCount: finals.length,
    pendingManualCount: attempts.filter((a) => a.hasPendingManual).length,
    averageScore: finals.length === 0 ? null : finals.reduce((s, f) => s + f, 0) / finals.length,
    passRate: cfg.passScore === null ? null : percent(passedCount, finals.length),
    notSubmittedCount: population.filter((p) => !bySubmitter.has(p.profileId)).length,
    questions: cfg.questions.map((q) => {
      const stats = perQuestion.get(q.id);
      const answeredCount = stats?.n ?? 0;
      return {
        questionId: q.id,
        body: q.body,
        type: q.type,
        answeredCount,
        correctRate: percent(stats?.correct ?? 0, answeredCount),
        options: isChoice(q.type) ? q.options.map((o) => ({ optionId: o.id, body: o.body, selectedCount: selected.get(o.id) ?? 0 })) : [],
      };
    }),
  };
}

const isKeyset = (v: unknown): v is [number, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === "number" && typeof v[1] === "string";

const attemptColumns = { attempt: quizAttempts, displayName: members.displayName };

/** Attempts with their submitter's name (left joins: the member may be gone). */
function selectAttempts(db: Db) {
  return db
    .select(attemptColumns)
    .from(quizAttempts)
    .leftJoin(profiles, eq(profiles.id, quizAttempts.profileId))
    .leftJoin(members, eq(members.id, profiles.memberId));
}

function attemptFields(a: AttemptRow, displayName: string | null, passScore: number | null) {
  return {
    attemptId: a.id,
    profileId: a.profileId,
    displayName,
    score: a.score,
    passed: passedOf(a.score, a.scoringCompletedAt !== null, passScore),
    submittedAt: iso(a.submittedAt),
    scoringCompletedAt: iso(a.scoringCompletedAt),
    hasPendingManual: a.hasPendingManual,
    voidedAt: iso(a.voidedAt),
  };
}

/** listQuizAttempts: submitted attempts, newest submission first, keyset on (submitted_at, id). */
export function listQuizAttempts(rt: Runtime, actor: Actor, contentId: string, q: { cursor?: string; limit?: number }, now = Date.now()) {
  const after = rt.cursors.decode<unknown>(ATTEMPTS_OP, { contentId }, q.cursor);
  if (after !== null && !isKeyset(after)) throw invalid("cursor", "is not a valid cursor for this list", "query");
  contentForManager(actor, contentId, QUIZ);
  settleExpired(actor.db, contentId, null, now);
  const { passScore } = loadQuizConfig(actor.db, contentId);
  const at = quizAttempts;
  const limit = q.limit ?? 30;
  const rows = selectAttempts(actor.db)
    .where(
      and(
        eq(at.contentId, contentId),
        isNotNull(at.submittedAt),
        after ? sql`(${at.submittedAt}, ${at.id}) < (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(desc(at.submittedAt), desc(at.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1)?.attempt;
  return {
    attempts: page.map((r) => attemptFields(r.attempt, r.displayName, passScore)),
    nextCursor: rows.length > limit && last ? rt.cursors.encode(ATTEMPTS_OP, { contentId }, [last.submittedAt, last.id]) : null,
  };
}

function findAttempt(db: Db, contentId: string, attemptId: string) {
  const row = selectAttempts(db)
    .where(and(eq(quizAttempts.id, attemptId), eq(quizAttempts.contentId, contentId)))
    .get();
  if (!row) throw notFound();
  return row;
}

/** The attempt detail: every question of the attempt's set with its answer, answers and feedback included. */
function attemptDetail(db: Db, contentId: string, attemptId: string, passScore: number | null): Static<typeof AttemptDetail> {
  const { attempt, displayName } = findAttempt(db, contentId, attemptId);
  const questions = loadQuestionSet(db, attempt.questionSetId);
  const answers: AnswerRow[] = answersOf(db, [attempt.id]).get(attempt.id) ?? [];
  return {
    ...attemptFields(attempt, displayName, passScore),
    startedAt: isoRequired(attempt.startedAt),
    expiresAt: iso(attempt.expiresAt),
    answers: inQuestionOrder(questions, answers).map(({ q, a }) => ({
      answerId: a.id,
      questionId: q.id,
      type: q.type,
      questionBody: q.body,
      point: q.point,
      selectedOptionIds: a.selectedOptionIds,
      textAnswer: a.textAnswer,
      isCorrect: a.isCorrect,
      pointsAwarded: a.pointsAwarded,
      isManualScoring: q.type === "ESSAY",
      correctOptionIds: correctOptionIds(q),
      answerCandidates: q.answerCandidates,
      feedback: feedbackOf(a),
    })),
  };
}

export function getQuizAttempt(actor: Actor, contentId: string, attemptId: string, now = Date.now()) {
  contentForManager(actor, contentId, QUIZ);
  settleExpired(actor.db, contentId, null, now);
  return attemptDetail(actor.db, contentId, attemptId, loadQuizConfig(actor.db, contentId).passScore);
}

/**
 * scoreQuizAnswer: hand scoring of an answered ESSAY answer of a submitted attempt (others: 409
 * INVALID_STATE). PUT: a later call replaces points and feedback (absent or empty feedback removes
 * it). The attempt's score and pending state follow; scoringCompletedAt is set when the last
 * pending answer is scored.
 */
export function scoreQuizAnswer(
  actor: Actor,
  contentId: string,
  attemptId: string,
  answerId: string,
  body: Static<typeof ScoreAnswerBody>,
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, QUIZ, tx);
    const { attempt } = findAttempt(tx, contentId, attemptId);
    const answer = tx
      .select()
      .from(quizAnswers)
      .where(and(eq(quizAnswers.id, answerId), eq(quizAnswers.attemptId, attempt.id)))
      .get();
    if (!answer) throw notFound();
    const question = loadQuestionSet(tx, attempt.questionSetId).find((q) => q.id === answer.questionId);
    if (attempt.submittedAt === null) throw conflict("INVALID_STATE", "This attempt is not submitted yet.");
    if (question?.type !== "ESSAY" || !answer.answered) {
      throw conflict("INVALID_STATE", "Only an answered ESSAY question is scored by hand.");
    }
    if (body.pointsAwarded > question.point) throw invalid("pointsAwarded", `must be at most the question's point (${question.point})`);
    const text = body.feedback ?? null;
    const feedback =
      text === null || text === ""
        ? { feedbackText: null, feedbackAuthorProfileId: null, feedbackCreatedAt: null, feedbackUpdatedAt: null }
        : {
            feedbackText: text,
            feedbackAuthorProfileId: actor.profileId,
            feedbackCreatedAt: answer.feedbackCreatedAt ?? now,
            feedbackUpdatedAt: now,
          };
    tx.update(quizAnswers)
      .set({ pointsAwarded: body.pointsAwarded, isCorrect: body.pointsAwarded === question.point, ...feedback })
      .where(eq(quizAnswers.id, answer.id))
      .run();
    const totals = attemptTotals(tx.select().from(quizAnswers).where(eq(quizAnswers.attemptId, attempt.id)).all());
    tx.update(quizAttempts)
      .set({
        ...totals,
        scoringCompletedAt: totals.hasPendingManual ? null : (attempt.scoringCompletedAt ?? now),
      })
      .where(eq(quizAttempts.id, attempt.id))
      .run();
    const config = loadQuizConfig(tx, contentId);
    // The last hand-scored answer releases the result of a quiz that shows results: the taker is told.
    if (
      !totals.hasPendingManual &&
      attempt.scoringCompletedAt === null &&
      attempt.voidedAt === null &&
      config.resultExposeLevel !== "STATUS_ONLY"
    ) {
      gradeReturned(tx, actor, contentId, [attempt.profileId], now);
    }
    return attemptDetail(tx, contentId, attempt.id, config.passScore);
  });
}

/**
 * voidQuizAttempt (docs/rules/quizzes.md#another-chance): a submitted attempt stays listed with voidedAt but
 * no longer counts toward maxAttempts, finalScore or statistics. An attempt in progress: 409
 * INVALID_STATE; voiding again keeps the first voidedAt.
 */
export function voidQuizAttempt(actor: Actor, contentId: string, attemptId: string, now = Date.now()) {
  write(actor.db, (tx) => {
    contentForManager(actor, contentId, QUIZ, tx);
    closeExpired(tx, contentId, null, now);
    const { attempt } = findAttempt(tx, contentId, attemptId);
    if (attempt.submittedAt === null) throw conflict("INVALID_STATE", "Only a submitted attempt can be voided.");
    if (attempt.voidedAt !== null) return;
    tx.update(quizAttempts).set({ voidedAt: now }).where(eq(quizAttempts.id, attempt.id)).run();
  });
}

/** checkQuizEmailCount (docs/rules/spaces.md#e-mail-counts): submitted attempts of members with this e-mail. */
export function checkQuizEmailCount(actor: Actor, contentId: string, email: string, now = Date.now()) {
  contentForManager(actor, contentId, QUIZ);
  settleExpired(actor.db, contentId, null, now);
  const ofEmail = profilesWithEmail(actor.db, email);
  const n =
    actor.db
      .select({ n: count() })
      .from(quizAttempts)
      .where(and(eq(quizAttempts.contentId, contentId), inArray(quizAttempts.profileId, ofEmail), isNotNull(quizAttempts.submittedAt)))
      .get()?.n ?? 0;
  return { email, count: n };
}
