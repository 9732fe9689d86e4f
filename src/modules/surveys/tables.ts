import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";

export const SURVEY_QUESTION_TYPES = ["SHORT_TEXT", "LONG_TEXT", "SINGLE_CHOICE", "MULTIPLE_CHOICE", "SCALE"] as const;
export type SurveyQuestionType = (typeof SURVEY_QUESTION_TYPES)[number];
export const RESPONSE_STATUSES = ["DRAFT", "SUBMITTED"] as const;

export type StoredOption = { id: string; label: string; isEtc: boolean; fileIds: string[] };
/** One question as stored; fields of another type are null / [] (docs/rules/surveys.md#question-types). */
export type StoredQuestion = {
  id: string;
  type: SurveyQuestionType;
  title: string;
  description: string | null;
  isRequired: boolean;
  fileIds: string[];
  options: StoredOption[];
  scaleMin: number | null;
  scaleMax: number | null;
  scaleMinLabel: string | null;
  scaleMaxLabel: string | null;
};

/**
 * A survey's config, one row per SURVEY content (absent = the defaults, version 0). The questions
 * are one JSON document: always read and replaced whole, never filtered on; answers name their ids.
 */
export const surveyConfigs = sqliteTable("survey_configs", {
  contentId: text("content_id")
    .primaryKey()
    .references(() => libraryContents.id, { onDelete: "cascade" }),
  description: text("description"),
  isAnonymous: integer("is_anonymous", { mode: "boolean" }).notNull().default(false),
  allowResubmit: integer("allow_resubmit", { mode: "boolean" }).notNull().default(false),
  version: integer("version").notNull().default(0),
  /** The window in which responses are drafted and submitted (null = open on that side). */
  opensAt: integer("opens_at"),
  closesAt: integer("closes_at"),
  questions: text("questions", { mode: "json" }).$type<StoredQuestion[]>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * The files the current questions of a survey attach (to questions and options, one row each),
 * replaced with the config: getFile finds the surveys attaching a file through the file index.
 */
export const surveyConfigFiles = sqliteTable(
  "survey_config_files",
  {
    contentId: text("content_id")
      .notNull()
      .references(() => surveyConfigs.contentId, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.fileId] }), index("survey_config_files_file_idx").on(t.fileId)],
);

/**
 * One response per (survey, respondent profile): a DRAFT until submitted, then SUBMITTED (a resubmit
 * replaces it). `profile_id` has no foreign key: counts keep a submitter whose member is gone.
 */
export const surveyResponses = sqliteTable(
  "survey_responses",
  {
    id: text("id").primaryKey(),
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    status: text("status", { enum: RESPONSE_STATUSES }).notNull(),
    version: integer("version").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    submittedAt: integer("submitted_at"),
  },
  (t) => [
    uniqueIndex("survey_responses_respondent_idx").on(t.contentId, t.profileId),
    // submittedCount / draftCount, the submitters of the population, and the e-mail count
    index("survey_responses_status_idx").on(t.contentId, t.status, t.profileId),
  ],
);

/**
 * The answered questions of a response. `submitted_at` copies the response's (null in a draft), so
 * the statistics filter on one table and the text-answer list walks (question, submitted_at, response).
 */
export const surveyAnswers = sqliteTable(
  "survey_answers",
  {
    responseId: text("response_id")
      .notNull()
      .references(() => surveyResponses.id, { onDelete: "cascade" }),
    contentId: text("content_id").notNull(),
    questionId: text("question_id").notNull(),
    optionIds: text("option_ids", { mode: "json" }).$type<string[]>().notNull(),
    etcText: text("etc_text"),
    text: text("text"),
    scaleValue: integer("scale_value"),
    submittedAt: integer("submitted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.responseId, t.questionId] }),
    index("survey_answers_content_idx").on(t.contentId, t.submittedAt, t.questionId),
    index("survey_answers_question_idx").on(t.questionId, t.submittedAt, t.responseId),
  ],
);
