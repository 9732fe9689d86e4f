import { sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { conflict } from "../../platform/http/errors";
import { iso, isoRequired, MAX_TIMESTAMP_MS } from "../../platform/http/schemas";
import { requireWindowOpen } from "../../platform/http/time-window";
import type { Runtime } from "../../platform/runtime";
import { contentForViewer } from "../library/access";
import { requireActiveSpace } from "../spaces/archived";
import { anyOverdue, closeExpired } from "./attempt-closing";
import { type AnswerRow, type AttemptRow, answersOf, counts, ownAttempts } from "./attempt-rows";
import { loadQuestionSet, QUIZ, quizAttachments, type StoredConfig } from "./config";
import type { ParticipantView } from "./model";
import { effectiveQuizConfig } from "./overrides";
import { shuffled } from "./scoring";
import { quizAnswers, quizAttempts, type StoredQuestion } from "./tables";

/** The participant view: settings and totals of the current config, and the attempt in progress. */
function participantView(
  rt: Runtime,
  actor: Actor,
  db: Db,
  contentId: string,
  cfg: StoredConfig,
  attemptsUsed: number,
  open: AttemptRow | null,
  /** The open attempt's answer rows when the caller has them (a new attempt: none saved); else read. */
  rows?: AnswerRow[],
): Static<typeof ParticipantView> {
  let attempt: Static<typeof ParticipantView>["attempt"] = null;
  if (open) {
    const set = loadQuestionSet(db, open.questionSetId);
    const questions = open.shuffleQuestions ? shuffled(set, open.id) : set;
    const attachments = quizAttachments(rt, actor, db, contentId, set);
    const saved = new Map((rows ?? answersOf(db, [open.id]).get(open.id) ?? []).map((a) => [a.questionId, a]));
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

/**
 * What a participant's reads start from: viewer access, their effective config and own attempts, the
 * overdue ones among them submitted first (a write only then).
 */
export function myQuizState(actor: Actor, contentId: string, now: number) {
  contentForViewer(actor, contentId, QUIZ);
  const db = actor.db;
  const cfg = effectiveQuizConfig(db, contentId, actor.profileId);
  let mine = ownAttempts(db, contentId, actor.profileId);
  if (anyOverdue(mine, cfg.closesAt, now)) {
    write(db, (tx) => closeExpired(tx, contentId, actor.profileId, now));
    mine = ownAttempts(db, contentId, actor.profileId);
  }
  return { db, cfg, mine };
}

/** getQuizForParticipant: no answers, correct options or candidates; questions only inside an attempt. */
export function getQuizForParticipant(rt: Runtime, actor: Actor, contentId: string, now = Date.now()) {
  const { db, cfg, mine } = myQuizState(actor, contentId, now);
  return participantView(rt, actor, db, contentId, cfg, mine.filter(counts).length, mine.find((a) => a.submittedAt === null) ?? null);
}

const param = sql.placeholder;

/** A new attempt's row: one prepared INSERT per connection. */
function insertAttempt(tx: Db, row: typeof quizAttempts.$inferInsert): AttemptRow {
  return preparedQuery(tx, "quizzes.insertAttempt", (base) =>
    base
      .insert(quizAttempts)
      .values({
        id: param("id"),
        contentId: param("contentId"),
        questionSetId: param("questionSetId"),
        profileId: param("profileId"),
        shuffleQuestions: param("shuffleQuestions"),
        shuffleOptions: param("shuffleOptions"),
        startedAt: param("startedAt"),
        expiresAt: param("expiresAt"),
      })
      .returning()
      .prepare(),
  ).get(row) as AttemptRow;
}

/** A new attempt's empty answer rows, one per question: one prepared INSERT per connection and question count. */
function insertAnswerRows(tx: Db, attemptId: string, contentId: string, questions: readonly StoredQuestion[]) {
  const values: Record<string, string> = { attemptId, contentId };
  questions.forEach((q, i) => {
    values[`id${i}`] = Bun.randomUUIDv7();
    values[`q${i}`] = q.id;
  });
  preparedQuery(tx, `quizzes.insertAnswers.${questions.length}`, (base) =>
    base
      .insert(quizAnswers)
      .values(
        questions.map((_, i) => ({
          id: param(`id${i}`),
          attemptId: param("attemptId"),
          contentId: param("contentId"),
          questionId: param(`q${i}`),
          selectedOptionIds: [],
        })),
      )
      .prepare(),
  ).run(values);
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
    const cfg = effectiveQuizConfig(tx, contentId, actor.profileId);
    let mine = ownAttempts(tx, contentId, actor.profileId);
    if (anyOverdue(mine, cfg.closesAt, now)) {
      closeExpired(tx, contentId, actor.profileId, now);
      mine = ownAttempts(tx, contentId, actor.profileId);
    }
    const used = mine.filter(counts).length;
    const open = mine.find((a) => a.submittedAt === null);
    if (open) return { created: false, view: participantView(rt, actor, tx, contentId, cfg, used, open) };
    if (cfg.questionSetId === null || cfg.questions.length === 0) throw conflict("INVALID_STATE", "This quiz has no questions yet.");
    requireWindowOpen({ start: cfg.opensAt, end: cfg.closesAt }, now, "quiz");
    if (cfg.maxAttempts !== null && used >= cfg.maxAttempts) {
      throw conflict("ATTEMPT_LIMIT", "You have used every attempt of this quiz.");
    }
    const attempt = insertAttempt(tx, {
      id: Bun.randomUUIDv7(),
      contentId,
      questionSetId: cfg.questionSetId,
      profileId: actor.profileId,
      shuffleQuestions: cfg.shuffleQuestions,
      shuffleOptions: cfg.shuffleOptions,
      startedAt: now,
      expiresAt: cfg.timeLimitMin === null ? null : Math.min(now + cfg.timeLimitMin * 60_000, MAX_TIMESTAMP_MS),
    });
    insertAnswerRows(tx, attempt.id, contentId, cfg.questions);
    // Nothing is saved in a new attempt yet: its view needs no read of the rows just written.
    return { created: true, view: participantView(rt, actor, tx, contentId, cfg, used + 1, attempt, []) };
  });
}
