// The participant side: the safe view, starting, saving and submitting attempts, own results (docs/rules/quizzes.md#attempts).
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { conflict, type FieldError, invalidMany, notFound } from "../../platform/http/errors";
import { iso, isoRequired, MAX_TIMESTAMP_MS } from "../../platform/http/schemas";
import { requireWindowOpen } from "../../platform/http/time-window";
import type { Runtime } from "../../platform/runtime";
import { contentForViewer } from "../library/access";
import { requireActiveSpace } from "../spaces/archived";
import { isChoice, loadQuestionSet, loadQuizConfig, QUIZ, quizAttachments, type StoredConfig } from "./config";
import type { AnswerInput, Feedback, MyQuizAttempt, MyQuizAttempts, ParticipantView } from "./model";
import { effectiveQuizConfig, ownClosesAt } from "./overrides";
import { type AnswerValue, attemptTotals, finalScoreOf, isAnswered, passedOf, scoreAnswer, shuffled } from "./scoring";
import { quizAnswers, quizAttempts, quizConfigs, quizQuestionSets, type ResultExposeLevel, type StoredQuestion } from "./tables";

export type AttemptRow = typeof quizAttempts.$inferSelect;
export type AnswerRow = typeof quizAnswers.$inferSelect;

/** A submit is accepted this long after `expiresAt`; later the attempt is submitted with its saved answers. */
export const SUBMIT_GRACE_MS = 30_000;

// ---- shared with the manager side --------------------------------------------------------------

export function feedbackOf(a: AnswerRow): Static<typeof Feedback> | null {
  if (a.feedbackText === null || a.feedbackAuthorProfileId === null) return null;
  return {
    text: a.feedbackText,
    authorProfileId: a.feedbackAuthorProfileId,
    createdAt: isoRequired(a.feedbackCreatedAt as number),
    updatedAt: isoRequired(a.feedbackUpdatedAt as number),
  };
}

export const correctOptionIds = (q: StoredQuestion) => q.options.filter((o) => o.isCorrect).map((o) => o.id);

/** The question sets of some attempts, in one query. */
export function questionSetsOf(db: Db, ids: string[]): Map<string, StoredQuestion[]> {
  if (ids.length === 0) return new Map();
  const rows = db
    .select({ id: quizQuestionSets.id, questions: quizQuestionSets.questions })
    .from(quizQuestionSets)
    .where(inArray(quizQuestionSets.id, [...new Set(ids)]))
    .all();
  return new Map(rows.map((r) => [r.id, r.questions]));
}

/** The answer rows of some attempts, in one query, grouped by attempt. */
export function answersOf(db: Db, attemptIds: string[]): Map<string, AnswerRow[]> {
  const out = new Map<string, AnswerRow[]>(attemptIds.map((id) => [id, []]));
  if (attemptIds.length === 0) return out;
  const rows =
    attemptIds.length === 1
      ? preparedQuery(db, "quizzes.answersOfOne", (base) =>
          base
            .select()
            .from(quizAnswers)
            .where(eq(quizAnswers.attemptId, sql.placeholder("attemptId")))
            .prepare(),
        ).all({ attemptId: attemptIds[0] })
      : db.select().from(quizAnswers).where(inArray(quizAnswers.attemptId, attemptIds)).all();
  for (const a of rows) out.get(a.attemptId)?.push(a);
  return out;
}

/** Answer rows in the order of the questions of their set. */
export function inQuestionOrder(questions: StoredQuestion[], answers: AnswerRow[]): { q: StoredQuestion; a: AnswerRow }[] {
  const byQuestion = new Map(answers.map((a) => [a.questionId, a]));
  return questions.flatMap((q) => {
    const a = byQuestion.get(q.id);
    return a ? [{ q, a }] : [];
  });
}

/** Scores every answer of an attempt and closes it (submit, or the automatic submit after expiry). */
function closeAttempt(tx: Db, attempt: AttemptRow, cfg: StoredConfig, submittedAt: number) {
  const questions = loadQuestionSet(tx, attempt.questionSetId);
  const rows = answersOf(tx, [attempt.id]).get(attempt.id) ?? [];
  const scored = inQuestionOrder(questions, rows).map(({ q, a }) => ({ id: a.id, ...scoreAnswer(q, a, cfg.partialCreditMultiple) }));
  storeScores(tx, scored, submittedAt);
  const totals = attemptTotals(scored);
  return tx
    .update(quizAttempts)
    .set({ submittedAt, ...totals, scoringCompletedAt: totals.hasPendingManual ? null : submittedAt })
    .where(eq(quizAttempts.id, attempt.id))
    .returning()
    .get();
}

/**
 * The scores of an attempt's answers in one UPDATE over a JSON list (an UPDATE per answer was most
 * of a submit's statements: docs/rules/performance.md#prepared-queries).
 */
function storeScores(tx: Db, scored: ({ id: string } & ReturnType<typeof scoreAnswer>)[], submittedAt: number) {
  if (scored.length === 0) return;
  const rows = scored.map((s) => ({
    i: s.id,
    a: s.answered ? 1 : 0,
    c: s.isCorrect === null ? null : s.isCorrect ? 1 : 0,
    p: s.pointsAwarded,
  }));
  tx.run(sql`UPDATE quiz_answers SET answered = j.value ->> '$.a', is_correct = j.value ->> '$.c',
    points_awarded = j.value ->> '$.p', submitted_at = ${submittedAt}
    FROM json_each(${JSON.stringify(rows)}) AS j WHERE quiz_answers.id = j.value ->> '$.i'`);
}

/** Voided attempts stay listed but count toward nothing (docs/rules/quizzes.md#another-chance). */
export const counts = (a: { voidedAt: number | null }) => a.voidedAt === null;

const closed = (closesAt: number | null, now: number) => closesAt !== null && now >= closesAt;

/** Whether an open attempt is over: its time and grace are up, or the quiz closed (docs/rules/quizzes.md#attempts, docs/rules/quizzes.md#windows). */
const isOverdue = (a: { expiresAt: number | null }, closesAt: number | null, now: number) =>
  closed(closesAt, now) || (a.expiresAt !== null && a.expiresAt < now - SUBMIT_GRACE_MS);

/** The moment an overdue attempt is submitted at: its time limit or the quiz's closesAt, whichever came first. */
const overdueAt = (a: { expiresAt: number | null }, closesAt: number | null) => Math.min(a.expiresAt ?? Infinity, closesAt ?? Infinity);

const closesAtOf = (db: Db, contentId: string) =>
  preparedQuery(db, "quizzes.closesAt", (base) =>
    base
      .select({ closesAt: quizConfigs.closesAt })
      .from(quizConfigs)
      .where(eq(quizConfigs.contentId, sql.placeholder("contentId")))
      .prepare(),
  ).get({ contentId })?.closesAt ?? null;

/** One participant's open attempts of a quiz (checked for being overdue before every participant step). */
const ownOpenAttempts = (db: Db, contentId: string, profileId: string) =>
  preparedQuery(db, "quizzes.ownOpenAttempts", (base) =>
    base
      .select()
      .from(quizAttempts)
      .where(
        and(
          eq(quizAttempts.contentId, sql.placeholder("contentId")),
          isNull(quizAttempts.submittedAt),
          eq(quizAttempts.profileId, sql.placeholder("profileId")),
        ),
      )
      .prepare(),
  ).all({ contentId, profileId });

/**
 * Attempts of a quiz (of one profile, or all) never submitted whose time and grace are over, or whose
 * participant's window closed (their override's closesAt, else the quiz's), each with that closesAt.
 */
function overdueAttempts(db: Db, contentId: string, profileId: string | null, now: number) {
  const open =
    profileId === null
      ? db
          .select()
          .from(quizAttempts)
          .where(and(eq(quizAttempts.contentId, contentId), isNull(quizAttempts.submittedAt)))
          .all()
      : ownOpenAttempts(db, contentId, profileId);
  if (open.length === 0) return [];
  const quizClosesAt = closesAtOf(db, contentId);
  const own = ownClosesAt(db, [contentId], profileId === null ? null : [profileId]);
  return open.flatMap((a) => {
    const closesAt = own.get(`${contentId}:${a.profileId}`) ?? quizClosesAt;
    return isOverdue(a, closesAt, now) ? [{ a, closesAt }] : [];
  });
}

/** Submits, inside the caller's transaction, the overdue attempts with their saved answers (at expiresAt or closesAt). */
export function closeExpired(tx: Db, contentId: string, profileId: string | null, now: number) {
  const rows = overdueAttempts(tx, contentId, profileId, now);
  if (rows.length === 0) return;
  const cfg = loadQuizConfig(tx, contentId);
  for (const { a, closesAt } of rows) closeAttempt(tx, a, cfg, overdueAt(a, closesAt));
}

/**
 * Before a read: submits the overdue attempts of the quiz (of one profile, or all). Two indexed
 * probes; a write transaction only when there is something to close.
 */
export function settleExpired(db: Db, contentId: string, profileId: string | null, now: number) {
  if (overdueAttempts(db, contentId, profileId, now).length === 0) return;
  write(db, (tx) => closeExpired(tx, contentId, profileId, now));
}

/** settleExpired for many quizzes at once (the gradebook): two queries, a write only when something is overdue. */
export function settleExpiredQuizzes(db: Db, contentIds: string[], now: number) {
  if (contentIds.length === 0) return;
  const closesAt = new Map(
    db
      .select({ id: quizConfigs.contentId, closesAt: quizConfigs.closesAt })
      .from(quizConfigs)
      .where(inArray(quizConfigs.contentId, contentIds))
      .all()
      .map((r) => [r.id, r.closesAt]),
  );
  const open = db
    .select({ contentId: quizAttempts.contentId, profileId: quizAttempts.profileId, expiresAt: quizAttempts.expiresAt })
    .from(quizAttempts)
    .where(and(inArray(quizAttempts.contentId, contentIds), isNull(quizAttempts.submittedAt)))
    .all();
  const own = open.length ? ownClosesAt(db, contentIds, null) : new Map<string, number>();
  const closesFor = (a: (typeof open)[number]) => own.get(`${a.contentId}:${a.profileId}`) ?? closesAt.get(a.contentId) ?? null;
  const due = new Set(open.filter((a) => isOverdue(a, closesFor(a), now)).map((a) => a.contentId));
  if (due.size === 0) return;
  write(db, (tx) => {
    for (const id of due) closeExpired(tx, id, null, now);
  });
}

// ---- the participant view ----------------------------------------------------------------------

function ownAttempts(db: Db, contentId: string, profileId: string): AttemptRow[] {
  return preparedQuery(db, "quizzes.ownAttempts", (base) =>
    base
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.contentId, sql.placeholder("contentId")), eq(quizAttempts.profileId, sql.placeholder("profileId"))))
      .orderBy(desc(quizAttempts.startedAt), desc(quizAttempts.id))
      .prepare(),
  ).all({ contentId, profileId });
}

function ownAttempt(db: Db, contentId: string, profileId: string, attemptId: string): AttemptRow {
  const row = preparedQuery(db, "quizzes.ownAttempt", (base) =>
    base
      .select()
      .from(quizAttempts)
      .where(
        and(
          eq(quizAttempts.id, sql.placeholder("attemptId")),
          eq(quizAttempts.contentId, sql.placeholder("contentId")),
          eq(quizAttempts.profileId, sql.placeholder("profileId")),
        ),
      )
      .prepare(),
  ).get({ attemptId, contentId, profileId });
  if (!row) throw notFound();
  return row;
}

/** The participant view: settings and totals of the current config, and the attempt in progress. */
function participantView(
  rt: Runtime,
  actor: Actor,
  db: Db,
  contentId: string,
  cfg: StoredConfig,
  attemptsUsed: number,
  open: AttemptRow | null,
): Static<typeof ParticipantView> {
  let attempt: Static<typeof ParticipantView>["attempt"] = null;
  if (open) {
    const set = loadQuestionSet(db, open.questionSetId);
    const questions = open.shuffleQuestions ? shuffled(set, open.id) : set;
    const attachments = quizAttachments(rt, actor, db, contentId, set);
    const saved = new Map((answersOf(db, [open.id]).get(open.id) ?? []).map((a) => [a.questionId, a]));
    attempt = {
      attemptId: open.id,
      startedAt: isoRequired(open.startedAt),
      expiresAt: iso(open.expiresAt),
      questions: questions.map((q) => ({
        id: q.id,
        type: q.type,
        body: q.body,
        point: q.point,
        attachments: attachments(q.fileIds),
        options: (open.shuffleOptions ? shuffled(q.options, `${open.id}:${q.id}`) : q.options).map((o) => ({
          id: o.id,
          body: o.body,
          attachments: attachments(o.fileIds),
        })),
      })),
      answers: questions.flatMap((q) => {
        const a = saved.get(q.id);
        return a && a.savedAt !== null ? [{ questionId: q.id, selectedOptionIds: a.selectedOptionIds, textAnswer: a.textAnswer }] : [];
      }),
    };
  }
  return {
    passScore: cfg.passScore,
    maxAttempts: cfg.maxAttempts,
    timeLimitMin: cfg.timeLimitMin,
    resultExposeLevel: cfg.resultExposeLevel,
    opensAt: iso(cfg.opensAt),
    closesAt: iso(cfg.closesAt),
    questionCount: cfg.questions.length,
    totalPoints: cfg.questions.reduce((s, q) => s + q.point, 0),
    attemptsUsed,
    attempt,
  };
}

/** getQuizForParticipant: no answers, correct options or candidates; questions only inside an attempt. */
export function getQuizForParticipant(rt: Runtime, actor: Actor, contentId: string, now = Date.now()) {
  contentForViewer(actor, contentId, QUIZ);
  settleExpired(actor.db, contentId, actor.profileId, now);
  const db = actor.db;
  const cfg = effectiveQuizConfig(db, contentId, actor.profileId);
  const mine = ownAttempts(db, contentId, actor.profileId);
  return participantView(rt, actor, db, contentId, cfg, mine.filter(counts).length, mine.find((a) => a.submittedAt === null) ?? null);
}

/**
 * startQuizAttempt: a new attempt on the current questions (one empty answer row per question), or
 * the one in progress (created=false). 409 ATTEMPT_LIMIT at maxAttempts (voided attempts do not
 * count), INVALID_STATE without questions, outside the quiz's window or in an archived space.
 */
export function startQuizAttempt(rt: Runtime, actor: Actor, contentId: string, now = Date.now()) {
  return write(actor.db, (tx) => {
    const content = contentForViewer(actor, contentId, QUIZ, tx);
    requireActiveSpace(tx, content.spaceId);
    closeExpired(tx, contentId, actor.profileId, now);
    const cfg = effectiveQuizConfig(tx, contentId, actor.profileId);
    const mine = ownAttempts(tx, contentId, actor.profileId);
    const used = mine.filter(counts).length;
    const open = mine.find((a) => a.submittedAt === null);
    if (open) return { created: false, view: participantView(rt, actor, tx, contentId, cfg, used, open) };
    if (cfg.questionSetId === null || cfg.questions.length === 0) throw conflict("INVALID_STATE", "This quiz has no questions yet.");
    requireWindowOpen({ start: cfg.opensAt, end: cfg.closesAt }, now, "quiz");
    if (cfg.maxAttempts !== null && used >= cfg.maxAttempts) {
      throw conflict("ATTEMPT_LIMIT", "You have used every attempt of this quiz.");
    }
    const attempt = tx
      .insert(quizAttempts)
      .values({
        id: Bun.randomUUIDv7(),
        contentId,
        questionSetId: cfg.questionSetId,
        profileId: actor.profileId,
        shuffleQuestions: cfg.shuffleQuestions,
        shuffleOptions: cfg.shuffleOptions,
        startedAt: now,
        expiresAt: cfg.timeLimitMin === null ? null : Math.min(now + cfg.timeLimitMin * 60_000, MAX_TIMESTAMP_MS),
      })
      .returning()
      .get();
    tx.insert(quizAnswers)
      .values(
        cfg.questions.map((q) => ({ id: Bun.randomUUIDv7(), attemptId: attempt.id, contentId, questionId: q.id, selectedOptionIds: [] })),
      )
      .run();
    return { created: true, view: participantView(rt, actor, tx, contentId, cfg, used + 1, attempt) };
  });
}

/**
 * Checks answers against the attempt's questions (docs/rules/quizzes.md#question-types): the question must be
 * of the attempt, once; options must be the question's, distinct, at most one for SINGLE; the answer
 * field of the other kind must be absent, null or empty. 400 naming every bad field.
 */
function checkAnswers(questions: StoredQuestion[], input: AnswerInput[]): Map<string, AnswerValue> {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ in: "body", field, message });
  const byId = new Map(questions.map((q) => [q.id, q]));
  const out = new Map<string, AnswerValue>();
  for (const [i, a] of input.entries()) {
    const at = `answers[${i}]`;
    const q = byId.get(a.questionId);
    if (!q || out.has(q.id)) {
      err(`${at}.questionId`, q ? "repeats an earlier answer" : "must be a question of this attempt");
      continue;
    }
    const notHere = `must be absent, null or empty for a ${q.type} question`;
    const selected = a.selectedOptionIds ?? [];
    const text = a.textAnswer ?? null;
    if (isChoice(q.type)) {
      if (text !== null && text !== "") err(`${at}.textAnswer`, notHere);
      const options = new Set(q.options.map((o) => o.id));
      const seen = new Set<string>();
      selected.forEach((id, j) => {
        if (!options.has(id)) err(`${at}.selectedOptionIds[${j}]`, "must be an option of this question");
        else if (seen.has(id)) err(`${at}.selectedOptionIds[${j}]`, "repeats an earlier option");
        seen.add(id);
      });
      if (q.type === "SINGLE" && selected.length > 1) err(`${at}.selectedOptionIds`, "may select at most one option for SINGLE");
      out.set(q.id, { selectedOptionIds: selected, textAnswer: null });
    } else {
      if (selected.length > 0) err(`${at}.selectedOptionIds`, notHere);
      out.set(q.id, { selectedOptionIds: [], textAnswer: text });
    }
  }
  if (errors.length) throw invalidMany(errors);
  return out;
}

/**
 * Writes checked answers into the attempt's rows (they exist from the start) in one UPDATE over a
 * JSON list: an UPDATE per question cost 14 % of the server's CPU in an exam-start storm (bench/exam.ts).
 */
function storeAnswers(tx: Db, attemptId: string, values: Map<string, AnswerValue>, now: number) {
  if (values.size === 0) return;
  const rows = [...values].map(([q, v]) => ({ q, s: JSON.stringify(v.selectedOptionIds), t: v.textAnswer, a: isAnswered(v) ? 1 : 0 }));
  tx.run(sql`UPDATE quiz_answers SET selected_option_ids = j.value ->> '$.s', text_answer = j.value ->> '$.t',
    answered = j.value ->> '$.a', saved_at = ${now}
    FROM json_each(${JSON.stringify(rows)}) AS j
    WHERE quiz_answers.attempt_id = ${attemptId} AND quiz_answers.question_id = j.value ->> '$.q'`);
}

/**
 * The caller's attempt with the answers checked against its question set (404 if not theirs, 400 for
 * a bad answer — docs/rules/errors.md#check-order puts validation before business rules), then still open: 409 once
 * submitted, past its time (+ grace), outside the quiz's window or in an archived space.
 */
function openAttempt(tx: Db, actor: Actor, contentId: string, attemptId: string, input: AnswerInput[], now: number, graceMs: number) {
  const content = contentForViewer(actor, contentId, QUIZ, tx);
  const attempt = ownAttempt(tx, contentId, actor.profileId, attemptId);
  const questions = loadQuestionSet(tx, attempt.questionSetId);
  const checked = checkAnswers(questions, input);
  requireActiveSpace(tx, content.spaceId);
  if (attempt.submittedAt !== null) throw conflict("INVALID_STATE", "This attempt is already submitted.");
  const cfg = effectiveQuizConfig(tx, contentId, actor.profileId);
  requireWindowOpen({ start: cfg.opensAt, end: cfg.closesAt }, now, "quiz");
  if (attempt.expiresAt !== null && now > attempt.expiresAt + graceMs) {
    throw conflict("INVALID_STATE", "The time limit of this attempt is over.");
  }
  return { attempt, questions, checked, cfg };
}

/** saveQuizAnswers: upsert per question while the attempt is open and within its time. */
export function saveQuizAnswers(actor: Actor, contentId: string, attemptId: string, input: AnswerInput[], now = Date.now()) {
  return write(actor.db, (tx) => {
    const { attempt, checked } = openAttempt(tx, actor, contentId, attemptId, input, now, 0);
    storeAnswers(tx, attempt.id, checked, now);
    return { attemptId: attempt.id, savedAt: isoRequired(now), expiresAt: iso(attempt.expiresAt) };
  });
}

/** submitQuizAttempt: optional final answers (as save), then every answer is scored; up to 30 s after expiresAt. */
export function submitQuizAttempt(actor: Actor, contentId: string, attemptId: string, input: AnswerInput[], now = Date.now()) {
  return write(actor.db, (tx) => {
    const { attempt, questions, checked, cfg } = openAttempt(tx, actor, contentId, attemptId, input, now, SUBMIT_GRACE_MS);
    storeAnswers(tx, attempt.id, checked, now);
    const closed = closeAttempt(tx, attempt, cfg, now);
    const answers = answersOf(tx, [closed.id]).get(closed.id) ?? [];
    return toMyAttempt(closed, cfg.resultExposeLevel, cfg.passScore, { questions, answers });
  });
}

/** MyQuizAttempt as resultExposeLevel allows: STATUS_ONLY hides scores, only ALL shows answers (of a submitted attempt). */
function toMyAttempt(
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
  contentForViewer(actor, contentId, QUIZ);
  settleExpired(actor.db, contentId, actor.profileId, now);
  const db = actor.db;
  const cfg = effectiveQuizConfig(db, contentId, actor.profileId);
  const mine = ownAttempts(db, contentId, actor.profileId);
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
