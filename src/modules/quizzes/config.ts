// Quiz config: read and replace (docs/rules/quizzes.md#question-types).

import { and, eq, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { cachedByTables, frozen, preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { timeWindow } from "../../platform/http/time-window";
import type { Runtime } from "../../platform/runtime";
import { libraryContents } from "../../schema/library";
import { canManageSql, contentForManager, visibleContentSql } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { questionAttachments, questionFileDownload } from "../question-sets/attachments";
import { questionEditor, questionKinds, sameQuestions, setFileIds, UNSAVED, windowOf } from "../question-sets/edit";
import type { QuizConfig, QuizConfigBody, QuizQuestion } from "./model";
import { quizResultsReleased } from "./release";
import {
  type QuizQuestionType,
  quizConfigs,
  quizQuestionSetFiles,
  quizQuestionSets,
  type ResultExposeLevel,
  type ScoreAggregation,
  type StoredOption,
  type StoredQuestion,
} from "./tables";

export const QUIZ = "QUIZ" as const;

export type StoredConfig = {
  /** null before the first save. */
  questionSetId: string | null;
  passScore: number | null;
  maxAttempts: number | null;
  timeLimitMin: number | null;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  resultExposeLevel: ResultExposeLevel;
  scoreAggregation: ScoreAggregation;
  partialCreditMultiple: boolean;
  opensAt: number | null;
  closesAt: number | null;
  questions: StoredQuestion[];
};

const DEFAULT_CONFIG: StoredConfig = {
  questionSetId: null,
  passScore: null,
  maxAttempts: null,
  timeLimitMin: null,
  shuffleQuestions: false,
  shuffleOptions: false,
  resultExposeLevel: "ALL",
  scoreAggregation: "HIGHEST",
  partialCreditMultiple: false,
  ...UNSAVED,
};

export const { isChoice, isText } = questionKinds<QuizQuestionType>(["SINGLE", "MULTIPLE"], ["SHORT_ANSWER", "ESSAY"]);

/**
 * What a quiz's participant steps read on every request and a manager changes rarely: its config with
 * the current questions, and the question sets (never changed once written: a changed config makes a
 * new set). Cached per connection until a write to these tables (docs/rules/performance.md#caches);
 * the cached values are frozen, as every later request shares them.
 */
const QUIZ_CONTENT = { name: "quiz_content", tables: ["quiz_configs", "quiz_question_sets"] } as const;

/** The stored config of a quiz with its current questions, or the defaults (no questions) before the first save. */
export function loadQuizConfig(db: Db, contentId: string): StoredConfig {
  return cachedByTables(db, QUIZ_CONTENT, `config:${contentId}`, () => {
    const row = preparedQuery(db, "quizzes.config", (base) =>
      base
        .select({ config: quizConfigs, questions: quizQuestionSets.questions })
        .from(quizConfigs)
        .innerJoin(quizQuestionSets, eq(quizQuestionSets.id, quizConfigs.questionSetId))
        .where(eq(quizConfigs.contentId, sql.placeholder("contentId")))
        .prepare(),
    ).get({ contentId });
    if (!row) return frozen({ ...DEFAULT_CONFIG });
    const { contentId: _, updatedAt: __, ...cfg } = row.config;
    return frozen({ ...cfg, questions: row.questions });
  });
}

/** The questions of one set (an attempt's). */
export function loadQuestionSet(db: Db, questionSetId: string): StoredQuestion[] {
  return cachedByTables(db, QUIZ_CONTENT, `set:${questionSetId}`, () =>
    frozen(
      preparedQuery(db, "quizzes.questionSet", (base) =>
        base
          .select({ q: quizQuestionSets.questions })
          .from(quizQuestionSets)
          .where(eq(quizQuestionSets.id, sql.placeholder("id")))
          .prepare(),
      ).get({ id: questionSetId })?.q ?? [],
    ),
  );
}

/** Renders `[{fileId, url}]` for one reader: ready files only, URLs signed for "quiz:<contentId>". */
export const quizAttachments = (rt: Runtime, actor: Actor, db: Db, contentId: string, questions: StoredQuestion[]) =>
  questionAttachments(rt, actor, db, `quiz:${contentId}`, questions);

/** The quiz config record (answers included: managers only). */
function toQuizConfig(rt: Runtime, actor: Actor, contentId: string, cfg: StoredConfig, db: Db): Static<typeof QuizConfig> {
  const attachments = quizAttachments(rt, actor, db, contentId, cfg.questions);
  return {
    passScore: cfg.passScore,
    maxAttempts: cfg.maxAttempts,
    timeLimitMin: cfg.timeLimitMin,
    shuffleQuestions: cfg.shuffleQuestions,
    shuffleOptions: cfg.shuffleOptions,
    resultExposeLevel: cfg.resultExposeLevel,
    scoreAggregation: cfg.scoreAggregation,
    partialCreditMultiple: cfg.partialCreditMultiple,
    ...windowOf(cfg),
    questions: cfg.questions.map(
      (q): Static<typeof QuizQuestion> => ({
        id: q.id,
        type: q.type,
        body: q.body,
        point: q.point,
        explanation: q.explanation,
        attachments: attachments(q.fileIds),
        options: q.options.map((o) => ({ id: o.id, body: o.body, isCorrect: o.isCorrect, attachments: attachments(o.fileIds) })),
        answerCandidates: q.answerCandidates.map((c) => ({ text: c.text, ignoreWildcard: c.ignoreWildcard })),
      }),
    ),
  };
}

export function getQuizConfig(rt: Runtime, actor: Actor, contentId: string) {
  contentForManager(actor, contentId, QUIZ);
  return toQuizConfig(rt, actor, contentId, loadQuizConfig(actor.db, contentId), actor.db);
}

type Body = Static<typeof QuizConfigBody>;

/**
 * Validates a config body against the stored config and returns the config it would store (new
 * questions and options get fresh ids). 400 naming every bad field: ids of another quiz or question,
 * option and candidate counts, correct-option counts, fields of another type, files that are not the
 * caller's ready uploads (files the quiz already attaches are kept without that check).
 */
function normalizeConfig(db: Db, actor: Actor, current: StoredConfig, body: Body): Omit<StoredConfig, "questionSetId"> {
  const edit = questionEditor(current.questions, "quiz");
  const { err, files } = edit;
  const questions = body.questions.map((sent, i): StoredQuestion => {
    const q = { ...sent, type: sent.type ?? "ESSAY" };
    const at = `questions[${i}]`;
    const old = edit.question(q.id, at);
    const choice = isChoice(q.type);
    const notHere = `must be absent, null or empty for a ${q.type} question`;
    const inputOptions = q.options ?? [];
    const inputCandidates = q.answerCandidates ?? [];
    if (!choice && inputOptions.length > 0) err(`${at}.options`, notHere);
    if (q.type !== "SHORT_ANSWER" && inputCandidates.length > 0) err(`${at}.answerCandidates`, notHere);
    if (choice && inputOptions.length < 2) err(`${at}.options`, `must have 2..20 options for a ${q.type} question`);
    const correct = inputOptions.filter((o) => o.isCorrect === true).length;
    if (q.type === "SINGLE" && inputOptions.length >= 2 && correct !== 1) err(`${at}.options`, "must have exactly one isCorrect option");
    if (q.type === "MULTIPLE" && inputOptions.length >= 2 && correct < 1) err(`${at}.options`, "must have at least one isCorrect option");
    if (q.type === "SHORT_ANSWER" && inputCandidates.length < 1) err(`${at}.answerCandidates`, "must have 1..20 candidates");
    inputCandidates.forEach((c, j) => {
      if (c.text.trim() === "") err(`${at}.answerCandidates[${j}].text`, "must not be blank");
    });
    const optionId = edit.options(old, at);
    const options = choice
      ? inputOptions.map(
          (o, j): StoredOption => ({
            id: optionId(o.id, j),
            body: o.body,
            isCorrect: o.isCorrect ?? false,
            fileIds: files(o.attachmentFileIds, `${at}.options[${j}].attachmentFileIds`),
          }),
        )
      : [];
    return {
      id: q.id ?? Bun.randomUUIDv7(),
      type: q.type,
      body: q.body ?? "",
      point: q.point ?? 1,
      explanation: q.explanation ?? null,
      fileIds: files(q.attachmentFileIds, `${at}.attachmentFileIds`),
      options,
      answerCandidates:
        q.type === "SHORT_ANSWER" ? inputCandidates.map((c) => ({ text: c.text, ignoreWildcard: c.ignoreWildcard ?? false })) : [],
    };
  });
  edit.finish(db, actor);
  const window = timeWindow(body.opensAt, body.closesAt, "closesAt", "opensAt");
  return {
    opensAt: window.start,
    closesAt: window.end,
    passScore: body.passScore ?? null,
    maxAttempts: body.maxAttempts ?? null,
    timeLimitMin: body.timeLimitMin ?? null,
    shuffleQuestions: body.shuffleQuestions ?? false,
    shuffleOptions: body.shuffleOptions ?? false,
    resultExposeLevel: body.resultExposeLevel ?? "ALL",
    scoreAggregation: body.scoreAggregation ?? "HIGHEST",
    partialCreditMultiple: body.partialCreditMultiple ?? false,
    questions,
  };
}

/**
 * setQuizConfig: full replace. A question or option sent with its id is kept; one without is new;
 * one left out is removed. Changed questions become a new question set; attempts keep the set they
 * were started on (an attempt in progress is finished on its own questions). Statistics follow the
 * current questions by id.
 */
export function setQuizConfig(rt: Runtime, actor: Actor, contentId: string, body: Body, now = Date.now()) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, QUIZ, tx);
    const current = loadQuizConfig(tx, contentId);
    const { questions, ...settings } = normalizeConfig(tx, actor, current, body);
    let questionSetId = current.questionSetId;
    if (questionSetId === null || !sameQuestions(questions, current.questions)) {
      const setId = Bun.randomUUIDv7();
      tx.insert(quizQuestionSets).values({ id: setId, contentId, questions, createdAt: now }).run();
      const fileIds = setFileIds(questions);
      if (fileIds.length > 0)
        tx.insert(quizQuestionSetFiles)
          .values(fileIds.map((fileId) => ({ questionSetId: setId, fileId })))
          .run();
      questionSetId = setId;
    }
    const row = { ...settings, questionSetId, updatedAt: now };
    tx.insert(quizConfigs)
      .values({ contentId, ...row })
      .onConflictDoUpdate({ target: quizConfigs.contentId, set: row })
      .run();
    dueMomentsChanged(tx, actor, contentId, QUIZ);
    if (current.resultExposeLevel === "STATUS_ONLY" && settings.resultExposeLevel !== "STATUS_ONLY") {
      quizResultsReleased(tx, actor, contentId, now);
    }
    return toQuizConfig(rt, actor, contentId, { ...settings, questionSetId, questions }, tx);
  });
}

/**
 * For getFile (docs/rules/files.md#getfile): whether the caller can see a quiz whose questions attach the file:
 * a manager any question set of it, a viewer the current set and the sets of their own attempts.
 * One indexed probe.
 */
export function canSeeQuizFile(db: Db, actor: Pick<Actor, "memberId" | "profileId">, fileId: string): boolean {
  const shown = sql`(EXISTS (SELECT 1 FROM quiz_configs qc WHERE qc.content_id = ${quizQuestionSets.contentId} AND qc.question_set_id = ${quizQuestionSets.id}) OR EXISTS (SELECT 1 FROM quiz_attempts qa WHERE qa.content_id = ${quizQuestionSets.contentId} AND qa.profile_id = ${actor.profileId} AND qa.question_set_id = ${quizQuestionSets.id}))`;
  const hit = db
    .select({ one: sql`1` })
    .from(quizQuestionSetFiles)
    .innerJoin(quizQuestionSets, eq(quizQuestionSets.id, quizQuestionSetFiles.questionSetId))
    .innerJoin(libraryContents, eq(libraryContents.id, quizQuestionSets.contentId))
    .where(and(eq(quizQuestionSetFiles.fileId, fileId), sql`(${canManageSql(actor)} OR (${visibleContentSql(actor)} AND ${shown}))`))
    .limit(1)
    .get();
  return hit !== undefined;
}

/**
 * downloadFileContent of a URL emitted for `quiz:<contentId>` (docs/rules/files.md#download-rules): the reader can still
 * see the quiz and one of its question sets (the current one or an attempt's) still attaches the file.
 */
export function quizFileDownload(db: Db, contentId: string, fileId: string, reader: Pick<Actor, "memberId" | "profileId">): DownloadRule {
  const sets = () =>
    db.select({ q: quizQuestionSets.questions }).from(quizQuestionSets).where(eq(quizQuestionSets.contentId, contentId)).all();
  return questionFileDownload(db, { id: contentId, type: QUIZ }, fileId, reader, () => sets().map((set) => set.q));
}
