import { t } from "elysia";
import { type NullableLists, nullsToAbsent } from "../../platform/http/body";
import { CursorQuery, DateTimeInput, Email, Enum, Id, Int, NextCursor, Nullable, Timestamp } from "../../platform/http/schemas";
import { RESPONSE_STATUSES, SURVEY_QUESTION_TYPES } from "./tables";

const RefId = t.String({ minLength: 1, maxLength: 100, error: "must be an id" });
const FileIds = t.Array(RefId, { maxItems: 20, error: "must be at most 20 file ids" });

export const SurveyParams = t.Object({ contentId: Id });
export const SurveyQuestionParams = t.Object({ contentId: Id, questionId: Id });

export const QuestionTypeSchema = Enum(SURVEY_QUESTION_TYPES);

/**
 * What makes existing answers invalid (checkSurveyConfigChange, setSurveyConfig resets the
 * responses when any is present). Listed in this order, each at most once.
 */
export const CHANGE_REASONS = [
  "QUESTION_REMOVED",
  "QUESTION_TYPE_CHANGED",
  "OPTION_REMOVED",
  "ETC_OPTION_REMOVED",
  "SCALE_CHANGED",
] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

// ---- config request -------------------------------------------------------------------------

const OptionInput = t.Object({
  id: t.Optional(RefId),
  // docs/rules/surveys.md#question-types: options are {label 1..255, isEtc}.
  label: t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" }),
  isEtc: t.Optional(t.Boolean()),
  attachmentFileIds: t.Optional(FileIds),
});

const QuestionInput = t.Object({
  id: t.Optional(RefId),
  type: t.Optional(Enum(SURVEY_QUESTION_TYPES, { description: "Default SHORT_TEXT" })),
  title: t.Optional(t.String({ minLength: 1, maxLength: 300, error: "must be 1..300 characters", description: "Default empty" })),
  description: t.Optional(Nullable(t.String({ maxLength: 15000, error: "must be at most 15000 characters" }))),
  isRequired: t.Optional(t.Boolean()),
  attachmentFileIds: t.Optional(FileIds),
  options: t.Optional(
    t.Array(OptionInput, { maxItems: 50, error: "must be at most 50 options", description: "null is accepted and means []" }),
  ),
  scaleMin: t.Optional(Nullable(Int({ minimum: 0, maximum: 1, error: "must be 0 or 1" }))),
  scaleMax: t.Optional(Nullable(Int({ minimum: 2, maximum: 10, error: "must be an integer 2..10" }))),
  scaleMinLabel: t.Optional(Nullable(t.String({ maxLength: 100, error: "must be at most 100 characters" }))),
  scaleMaxLabel: t.Optional(Nullable(t.String({ maxLength: 100, error: "must be at most 100 characters" }))),
});

/** setSurveyConfig and checkSurveyConfigChange (PUT: full replace; absent fields take their defaults). */
export const SurveyConfigBody = t.Object({
  description: t.Optional(Nullable(t.String({ maxLength: 15000, error: "must be at most 15000 characters" }))),
  isAnonymous: t.Optional(t.Boolean()),
  allowResubmit: t.Optional(t.Boolean()),
  opensAt: t.Optional(Nullable(DateTimeInput)),
  closesAt: t.Optional(Nullable(DateTimeInput)),
  resetResponses: t.Optional(
    t.Boolean({
      description:
        "Needed (true) when responses exist and a question is removed or changes type; every response, drafts included, is then deleted (else 409 IN_USE)",
    }),
  ),
  questions: t.Array(QuestionInput, { maxItems: 50, error: "must be at most 50 questions" }),
});

/** List fields that may be null ("absent, null or empty") become absent before validation. */
const NULLABLE_LISTS: NullableLists = {
  items: {
    questions: { drop: ["options", "attachmentFileIds"], items: { options: { drop: ["attachmentFileIds"] } } },
    answers: { drop: ["optionIds"] },
  },
};
export const dropNullLists = (body: unknown) => nullsToAbsent(body, NULLABLE_LISTS);

// ---- config response ------------------------------------------------------------------------

export const SurveyAttachment = t.Object({ fileId: t.String(), url: t.String() });

export const SurveyOption = t.Object({
  id: t.String(),
  label: t.String(),
  isEtc: t.Boolean(),
  attachments: t.Array(SurveyAttachment),
});

/** A survey question as the manager reads it (docs/rules/surveys.md#question-types). */
export const SurveyQuestion = t.Object({
  id: t.String(),
  type: QuestionTypeSchema,
  title: t.String(),
  description: Nullable(t.String()),
  isRequired: t.Boolean(),
  attachments: t.Array(SurveyAttachment),
  options: t.Array(SurveyOption, { description: "[] unless SINGLE_CHOICE or MULTIPLE_CHOICE" }),
  scaleMin: Nullable(Int({ description: "null unless SCALE" })),
  scaleMax: Nullable(Int()),
  scaleMinLabel: Nullable(t.String()),
  scaleMaxLabel: Nullable(t.String()),
});

export const SurveyConfig = t.Object({
  description: Nullable(t.String()),
  isAnonymous: t.Boolean(),
  allowResubmit: t.Boolean(),
  version: Int({ description: "0 until questions are first saved; +1 on every change to the questions" }),
  opensAt: Nullable(Timestamp),
  closesAt: Nullable(Timestamp),
  questions: t.Array(SurveyQuestion),
});

export const SurveyChangeCheck = t.Object({
  submitCount: Int({ description: "SUBMITTED responses" }),
  isModified: t.Boolean({ description: "The body differs from the stored config" }),
  needReset: t.Boolean({ description: "submitCount > 0 and reasons is not empty: saving discards the responses" }),
  reasons: t.Array(Enum(CHANGE_REASONS), {
    description:
      "Changes that invalidate existing answers: QUESTION_REMOVED (a stored question is left out), QUESTION_TYPE_CHANGED (a kept question changes type, other than between SHORT_TEXT and LONG_TEXT), OPTION_REMOVED (a kept choice question leaves out a stored option), ETC_OPTION_REMOVED (a kept option is no longer isEtc), SCALE_CHANGED (a kept SCALE question changes scaleMin or scaleMax)",
  }),
});

// ---- statistics, text answers, respondents ---------------------------------------------------

export const SurveyStatistics = t.Object({
  isAnonymous: t.Boolean(),
  submittedCount: Int(),
  draftCount: Int(),
  notSubmittedCount: Int(),
  submitRate: t.Number({ description: "Percentage 0..100 of the population with a submitted response" }),
  questionCount: Int(),
  questions: t.Array(
    t.Object({
      questionId: t.String(),
      title: t.String(),
      type: QuestionTypeSchema,
      isRequired: t.Boolean(),
      answeredCount: Int(),
      options: t.Array(
        t.Object({
          optionId: t.String(),
          label: t.String(),
          isEtc: t.Boolean(),
          selectedCount: Int(),
          ratio: t.Number({ description: "selectedCount ÷ answeredCount × 100" }),
        }),
      ),
      scale: Nullable(
        t.Object({
          distribution: t.Array(t.Object({ value: Int(), count: Int() })),
          average: Nullable(t.Number()),
          median: Nullable(t.Number()),
        }),
      ),
    }),
  ),
});

export const TextAnswersQuery = t.Object({ ...CursorQuery });
export const TextAnswerPage = t.Object({
  answers: t.Array(
    t.Object({
      text: t.String({ description: "The text answer, or for a choice question the etcText" }),
      respondentName: Nullable(t.String({ description: "null in an anonymous survey" })),
      submittedAt: Timestamp,
    }),
  ),
  nextCursor: NextCursor,
});

export const RespondentStatus = Enum(["ALL", "SUBMITTED", "NOT_SUBMITTED"] as const);
export const RespondentsQuery = t.Object({
  // Required (docs/rules/surveys.md#responses); checked by the service so that a missing one is named.
  spaceId: t.Optional(t.String({ minLength: 1, maxLength: 100, description: "Required: the space whose PARTICIPANTs are listed" })),
  status: t.Optional(RespondentStatus),
  ...CursorQuery,
});
export const RespondentPage = t.Object({
  respondents: t.Array(
    t.Object({
      profileId: t.String(),
      displayName: t.String(),
      submitted: t.Boolean(),
      submittedAt: Nullable(Timestamp),
    }),
  ),
  nextCursor: NextCursor,
});

export const EmailCountBody = t.Object({ email: Email });
export const EmailCountResult = t.Object({ email: t.String(), count: Int() });

// ---- participant side -----------------------------------------------------------------------

const AnswerInput = t.Object({
  questionId: RefId,
  optionIds: t.Optional(
    t.Array(RefId, { maxItems: 50, error: "must be at most 50 option ids", description: "null is accepted and means []" }),
  ),
  etcText: t.Optional(Nullable(t.String({ maxLength: 1000, error: "must be at most 1000 characters" }))),
  text: t.Optional(Nullable(t.String({ maxLength: 10000, error: "must be at most 10000 characters" }))),
  scaleValue: t.Optional(Nullable(Int({ error: "must be an integer" }))),
});
export const SurveyAnswersBody = t.Object({
  answers: t.Array(AnswerInput, { maxItems: 50, error: "must be at most 50 answers" }),
});

export const SurveyResponse = t.Object({
  status: Enum(RESPONSE_STATUSES),
  version: Int({ description: "The survey version the response was last saved or submitted against" }),
  answers: t.Array(
    t.Object({
      questionId: t.String(),
      optionIds: t.Array(t.String()),
      etcText: Nullable(t.String()),
      text: Nullable(t.String()),
      scaleValue: Nullable(Int()),
    }),
  ),
  updatedAt: Timestamp,
  submittedAt: Nullable(Timestamp),
});
export const SurveyResponseResult = t.Object({ response: SurveyResponse });
export const MySurveyResponse = t.Object({ response: Nullable(SurveyResponse) });
