import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";

export const QUIZ_QUESTION_TYPES = ["SINGLE", "MULTIPLE", "SHORT_ANSWER", "ESSAY"] as const;
export type QuizQuestionType = (typeof QUIZ_QUESTION_TYPES)[number];
export const RESULT_EXPOSE_LEVELS = ["ALL", "SCORE_ONLY", "STATUS_ONLY"] as const;
export type ResultExposeLevel = (typeof RESULT_EXPOSE_LEVELS)[number];
export const SCORE_AGGREGATIONS = ["HIGHEST", "LAST", "AVERAGE"] as const;
export type ScoreAggregation = (typeof SCORE_AGGREGATIONS)[number];

export type StoredOption = { id: string; body: string; isCorrect: boolean; fileIds: string[] };
export type StoredCandidate = { text: string; ignoreWildcard: boolean };
/** One question as stored; lists of another type are [] (docs/rules/quizzes.md#question-types). */
export type StoredQuestion = {
  id: string;
  type: QuizQuestionType;
  body: string;
  point: number;
  explanation: string | null;
  fileIds: string[];
  options: StoredOption[];
  answerCandidates: StoredCandidate[];
};

/**
 * Immutable question sets: setQuizConfig adds a row only when the questions change. An attempt
 * names the set it was started on, so it is answered, scored and shown against the questions it
 * was given, whatever the config becomes later.
 */
export const quizQuestionSets = sqliteTable(
  "quiz_question_sets",
  {
    id: text("id").primaryKey(),
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    questions: text("questions", { mode: "json" }).$type<StoredQuestion[]>().notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("quiz_question_sets_content_idx").on(t.contentId)],
);

/**
 * The files a question set attaches (to its questions and options, one row each): getFile finds the
 * sets attaching a file through the file index.
 */
export const quizQuestionSetFiles = sqliteTable(
  "quiz_question_set_files",
  {
    questionSetId: text("question_set_id")
      .notNull()
      .references(() => quizQuestionSets.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.questionSetId, t.fileId] }), index("quiz_question_set_files_file_idx").on(t.fileId)],
);

/** A quiz's settings, one row per QUIZ content (absent = the defaults, no questions). */
export const quizConfigs = sqliteTable("quiz_configs", {
  contentId: text("content_id")
    .primaryKey()
    .references(() => libraryContents.id, { onDelete: "cascade" }),
  passScore: integer("pass_score"),
  maxAttempts: integer("max_attempts"),
  timeLimitMin: integer("time_limit_min"),
  shuffleQuestions: integer("shuffle_questions", { mode: "boolean" }).notNull().default(false),
  shuffleOptions: integer("shuffle_options", { mode: "boolean" }).notNull().default(false),
  resultExposeLevel: text("result_expose_level", { enum: RESULT_EXPOSE_LEVELS }).notNull().default("ALL"),
  scoreAggregation: text("score_aggregation", { enum: SCORE_AGGREGATIONS }).notNull().default("HIGHEST"),
  partialCreditMultiple: integer("partial_credit_multiple", { mode: "boolean" }).notNull().default(false),
  /** The window in which attempts are started, saved and submitted (null = open on that side). */
  opensAt: integer("opens_at"),
  closesAt: integer("closes_at"),
  /** The current question set. */
  questionSetId: text("question_set_id")
    .notNull()
    .references(() => quizQuestionSets.id, { onDelete: "cascade" }),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Attempts: in progress while `submitted_at` is null. `score` is the sum of the points awarded so
 * far (null before submission); `passed` is derived on read from the current passScore.
 * `profile_id` has no foreign key: results keep a submitter whose member is gone.
 */
export const quizAttempts = sqliteTable(
  "quiz_attempts",
  {
    id: text("id").primaryKey(),
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    questionSetId: text("question_set_id")
      .notNull()
      .references(() => quizQuestionSets.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    /** The config's shuffle flags when the attempt started: its order stays stable whatever the config becomes. */
    shuffleQuestions: integer("shuffle_questions", { mode: "boolean" }).notNull().default(false),
    shuffleOptions: integer("shuffle_options", { mode: "boolean" }).notNull().default(false),
    startedAt: integer("started_at").notNull(),
    expiresAt: integer("expires_at"),
    submittedAt: integer("submitted_at"),
    score: integer("score"),
    hasPendingManual: integer("has_pending_manual", { mode: "boolean" }).notNull().default(false),
    scoringCompletedAt: integer("scoring_completed_at"),
    /** Set by voidQuizAttempt: still listed, but no longer counted toward maxAttempts, finalScore or statistics. */
    voidedAt: integer("voided_at"),
  },
  (t) => [
    // the caller's attempts (newest first), the one in progress, attemptsUsed, the e-mail count
    index("quiz_attempts_profile_idx").on(t.contentId, t.profileId, t.startedAt),
    // listQuizAttempts (newest submission first), expired attempts (submitted_at IS NULL), statistics
    index("quiz_attempts_submitted_idx").on(t.contentId, t.submittedAt, t.id),
  ],
);

/**
 * One row per (attempt, question of its set), created when the attempt starts: saving fills it,
 * submitting scores it. `submitted_at` copies the attempt's, so the statistics filter on this table.
 */
export const quizAnswers = sqliteTable(
  "quiz_answers",
  {
    id: text("id").primaryKey(),
    attemptId: text("attempt_id")
      .notNull()
      .references(() => quizAttempts.id, { onDelete: "cascade" }),
    contentId: text("content_id").notNull(),
    questionId: text("question_id").notNull(),
    selectedOptionIds: text("selected_option_ids", { mode: "json" }).$type<string[]>().notNull(),
    textAnswer: text("text_answer"),
    answered: integer("answered", { mode: "boolean" }).notNull().default(false),
    isCorrect: integer("is_correct", { mode: "boolean" }),
    pointsAwarded: integer("points_awarded"),
    feedbackText: text("feedback_text"),
    feedbackAuthorProfileId: text("feedback_author_profile_id"),
    feedbackCreatedAt: integer("feedback_created_at"),
    feedbackUpdatedAt: integer("feedback_updated_at"),
    savedAt: integer("saved_at"),
    submittedAt: integer("submitted_at"),
  },
  (t) => [
    uniqueIndex("quiz_answers_attempt_idx").on(t.attemptId, t.questionId),
    index("quiz_answers_content_idx").on(t.contentId, t.submittedAt, t.questionId),
  ],
);

/**
 * setQuizOverride: one participant's own window, time limit and attempt count; a null column keeps
 * the quiz's own value (docs/rules/next-year.md#quiz-overrides).
 */
export const quizOverrides = sqliteTable(
  "quiz_overrides",
  {
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    opensAt: integer("opens_at"),
    closesAt: integer("closes_at"),
    timeLimitMin: integer("time_limit_min"),
    maxAttempts: integer("max_attempts"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.profileId] })],
);
