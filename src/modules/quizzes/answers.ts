// Saving and submitting a participant's answers (docs/rules/quizzes.md#attempts).
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import { isFrozenThrough, preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { conflict, type FieldError, invalidMany } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import { requireWindowOpen } from "../../platform/http/time-window";
import { contentForViewer } from "../library/access";
import { requireActiveSpace } from "../spaces/archived";
import { closeAttempt } from "./attempt-closing";
import { ownAttempt, SUBMIT_GRACE_MS } from "./attempt-rows";
import { isChoice, loadQuestionSet, QUIZ } from "./config";
import type { AnswerInput } from "./model";
import { toMyAttempt } from "./my-attempts";
import { effectiveQuizConfig } from "./overrides";
import { type AnswerValue, isAnswered } from "./scoring";
import { quizAnswers, type StoredQuestion } from "./tables";

type QuestionIndex = Map<string, { q: StoredQuestion; options: Set<string> }>;
const questionIndexes = new WeakMap<readonly StoredQuestion[], QuestionIndex>();

/**
 * A question set's questions and option ids by question id: built once per cached (frozen) set, so a
 * save does not rebuild them (docs/rules/performance.md#caches); a set not frozen gets its own.
 */
function questionIndex(questions: readonly StoredQuestion[]): QuestionIndex {
  const known = questionIndexes.get(questions);
  if (known) return known;
  const index: QuestionIndex = new Map(questions.map((q) => [q.id, { q, options: new Set(q.options.map((o) => o.id)) }]));
  if (isFrozenThrough(questions)) questionIndexes.set(questions, index);
  return index;
}

/**
 * Checks answers against the attempt's questions (docs/rules/quizzes.md#question-types): the question must be
 * of the attempt, once; options must be the question's, distinct, at most one for SINGLE; the answer
 * field of the other kind must be absent, null or empty. 400 naming every bad field.
 */
function checkAnswers(questions: StoredQuestion[], input: AnswerInput[]): Map<string, AnswerValue> {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ in: "body", field, message });
  const byId = questionIndex(questions);
  const out = new Map<string, AnswerValue>();
  for (const [i, a] of input.entries()) {
    const at = `answers[${i}]`;
    const { q, options } = byId.get(a.questionId) ?? {};
    if (!q || out.has(q.id)) {
      err(`${at}.questionId`, q ? "repeats an earlier answer" : "must be a question of this attempt");
      continue;
    }
    const notHere = `must be absent, null or empty for a ${q.type} question`;
    const selected = a.selectedOptionIds ?? [];
    const text = a.textAnswer ?? null;
    if (isChoice(q.type)) {
      if (text !== null && text !== "") err(`${at}.textAnswer`, notHere);
      const seen = new Set<string>();
      selected.forEach((id, j) => {
        if (!options?.has(id)) err(`${at}.selectedOptionIds[${j}]`, "must be an option of this question");
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
 * Writes checked answers into the attempt's rows (they exist from the start): one prepared UPDATE per
 * answer, found by the (attempt, question) index (docs/rules/performance.md#prepared-queries).
 */
function storeAnswers(tx: Db, attemptId: string, values: Map<string, AnswerValue>, now: number) {
  const update = preparedQuery(tx, "quizzes.storeAnswer", (base) =>
    base
      .update(quizAnswers)
      // update().set() takes no bare placeholders: each is wrapped in sql (values reach SQLite as given).
      .set({
        selectedOptionIds: sql`${sql.placeholder("s")}`,
        textAnswer: sql`${sql.placeholder("t")}`,
        answered: sql`${sql.placeholder("a")}`,
        savedAt: sql`${sql.placeholder("now")}`,
      })
      .where(and(eq(quizAnswers.attemptId, sql.placeholder("attemptId")), eq(quizAnswers.questionId, sql.placeholder("q"))))
      .prepare(),
  );
  for (const [q, v] of values) {
    update.run({ s: JSON.stringify(v.selectedOptionIds), t: v.textAnswer, a: isAnswered(v) ? 1 : 0, now, attemptId, q });
  }
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
    return toMyAttempt(closed.attempt, cfg.resultExposeLevel, cfg.passScore, { questions, answers: closed.answers });
  });
}
