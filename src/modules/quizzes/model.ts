import { t } from "elysia";
import { type NullableLists, nullsToAbsent } from "../../platform/http/body";
import { CursorQuery, DateTimeInput, Email, Enum, Id, Int, NextCursor, Nullable, Timestamp } from "../../platform/http/schemas";
import { QUIZ_QUESTION_TYPES, RESULT_EXPOSE_LEVELS, SCORE_AGGREGATIONS } from "./tables";

const RefId = t.String({ minLength: 1, maxLength: 100, error: "must be an id" });
const FileIds = t.Array(RefId, { maxItems: 20, error: "must be at most 20 file ids", description: "null is accepted and means []" });

export const QuizParams = t.Object({ contentId: Id });
export const AttemptParams = t.Object({ contentId: Id, attemptId: Id });
export const AnswerParams = t.Object({ contentId: Id, attemptId: Id, answerId: Id });

export const QuestionTypeSchema = Enum(QUIZ_QUESTION_TYPES);
export const ExposeLevelSchema = Enum(RESULT_EXPOSE_LEVELS);
export const AggregationSchema = Enum(SCORE_AGGREGATIONS);

// ---- config request -------------------------------------------------------------------------

const OptionInput = t.Object({
  id: t.Optional(RefId),
  body: t.String({ minLength: 1, maxLength: 2000, error: "must be 1..2000 characters" }),
  isCorrect: t.Optional(t.Boolean()),
  attachmentFileIds: t.Optional(FileIds),
});

const CandidateInput = t.Object({
  text: t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" }),
  ignoreWildcard: t.Optional(t.Boolean()),
});

const QuestionInput = t.Object({
  id: t.Optional(RefId),
  type: t.Optional(Enum(QUIZ_QUESTION_TYPES, { description: "Default ESSAY" })),
  body: t.Optional(t.String({ minLength: 1, maxLength: 15000, error: "must be 1..15000 characters", description: "Default empty" })),
  point: t.Optional(Int({ minimum: 0, maximum: 10000, error: "must be an integer 0..10000", description: "Default 1" })),
  explanation: t.Optional(Nullable(t.String({ maxLength: 15000, error: "must be at most 15000 characters" }))),
  attachmentFileIds: t.Optional(FileIds),
  options: t.Optional(
    t.Array(OptionInput, { maxItems: 20, error: "must be at most 20 options", description: "SINGLE and MULTIPLE: 2..20; null means []" }),
  ),
  answerCandidates: t.Optional(
    t.Array(CandidateInput, { maxItems: 20, error: "must be at most 20 candidates", description: "SHORT_ANSWER: 1..20; null means []" }),
  ),
});

/** setQuizConfig (PUT: full replace; absent fields take their defaults). */
export const QuizConfigBody = t.Object({
  passScore: t.Optional(Nullable(Int({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, error: "must be an integer >= 0 or null" }))),
  maxAttempts: t.Optional(Nullable(Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: "must be an integer >= 1 or null" }))),
  timeLimitMin: t.Optional(Nullable(Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: "must be an integer >= 1 or null" }))),
  shuffleQuestions: t.Optional(t.Boolean()),
  shuffleOptions: t.Optional(t.Boolean()),
  resultExposeLevel: t.Optional(ExposeLevelSchema),
  scoreAggregation: t.Optional(AggregationSchema),
  partialCreditMultiple: t.Optional(t.Boolean()),
  opensAt: t.Optional(Nullable(DateTimeInput)),
  closesAt: t.Optional(Nullable(DateTimeInput)),
  questions: t.Array(QuestionInput, { maxItems: 60, error: "must be at most 60 questions" }),
});

/** List fields that may be null ("absent, null or empty") become absent before validation. */
const NULLABLE_LISTS: NullableLists = {
  items: {
    questions: { drop: ["options", "answerCandidates", "attachmentFileIds"], items: { options: { drop: ["attachmentFileIds"] } } },
    answers: { drop: ["selectedOptionIds"] },
  },
};
export const dropNullLists = (body: unknown) => nullsToAbsent(body, NULLABLE_LISTS);

// ---- config response ------------------------------------------------------------------------

export const QuizAttachment = t.Object({ fileId: t.String(), url: t.String() });

/** A quiz question as the manager reads it (docs/rules/quizzes.md#question-types). */
export const QuizQuestion = t.Object({
  id: t.String(),
  type: QuestionTypeSchema,
  body: t.String(),
  point: Int(),
  explanation: Nullable(t.String()),
  attachments: t.Array(QuizAttachment),
  options: t.Array(t.Object({ id: t.String(), body: t.String(), isCorrect: t.Boolean(), attachments: t.Array(QuizAttachment) }), {
    description: "[] unless SINGLE or MULTIPLE",
  }),
  answerCandidates: t.Array(t.Object({ text: t.String(), ignoreWildcard: t.Boolean() }), { description: "[] unless SHORT_ANSWER" }),
});

export const QuizConfig = t.Object({
  passScore: Nullable(Int()),
  maxAttempts: Nullable(Int()),
  timeLimitMin: Nullable(Int()),
  shuffleQuestions: t.Boolean(),
  shuffleOptions: t.Boolean(),
  resultExposeLevel: ExposeLevelSchema,
  scoreAggregation: AggregationSchema,
  partialCreditMultiple: t.Boolean(),
  opensAt: Nullable(Timestamp),
  closesAt: Nullable(Timestamp),
  questions: t.Array(QuizQuestion),
});

// ---- manager results ------------------------------------------------------------------------

export const QuizStatistics = t.Object({
  submittedCount: Int({ description: "Submitters: profiles with at least one submitted attempt" }),
  gradedCount: Int({ description: "Submitters with a final score (at least one fully scored attempt)" }),
  pendingManualCount: Int({ description: "Submitted attempts waiting for manual (ESSAY) scoring" }),
  averageScore: Nullable(t.Number({ description: "Mean of the graded submitters' final scores; null without any" })),
  passRate: Nullable(t.Number({ description: "Percentage 0..100 of graded submitters whose final score passed; null without passScore" })),
  notSubmittedCount: Int({
    description:
      "Population members without a submitted attempt (who should answer: the active participants of the content's space, or the members it is shared with)",
  }),
  questions: t.Array(
    t.Object({
      questionId: t.String(),
      body: t.String(),
      type: QuestionTypeSchema,
      answeredCount: Int({ description: "Answered (non-empty) answers in submitted attempts" }),
      correctRate: t.Number({ description: "Answers with isCorrect ÷ answeredCount × 100" }),
      options: t.Array(t.Object({ optionId: t.String(), body: t.String(), selectedCount: Int() })),
    }),
  ),
});

export const AttemptsQuery = t.Object({ ...CursorQuery });

const AttemptFields = {
  attemptId: t.String(),
  profileId: t.String(),
  displayName: Nullable(t.String({ description: "null once the member is deleted" })),
  score: Nullable(
    Int({ description: "Points awarded so far (an ESSAY answer waiting for scoreQuizAnswer counts 0); null before submission" }),
  ),
  passed: Nullable(
    t.Boolean({ description: "score >= the current passScore once scoring is complete; null without passScore or while pending" }),
  ),
  submittedAt: Nullable(Timestamp),
  scoringCompletedAt: Nullable(Timestamp),
  hasPendingManual: t.Boolean(),
  /** Set by voidQuizAttempt: the attempt no longer counts toward maxAttempts, finalScore or statistics. */
  voidedAt: Nullable(Timestamp),
};

export const AttemptPage = t.Object({
  attempts: t.Array(t.Object(AttemptFields), {
    description: "Submitted attempts, newest submission first (attempts in progress are not listed)",
  }),
  nextCursor: NextCursor,
});

export const Feedback = t.Object({
  text: t.String(),
  authorProfileId: t.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
const Candidate = t.Object({ text: t.String(), ignoreWildcard: t.Boolean() });

export const AttemptDetail = t.Object({
  ...AttemptFields,
  startedAt: Timestamp,
  expiresAt: Nullable(Timestamp),
  answers: t.Array(
    t.Object({
      answerId: t.String(),
      questionId: t.String(),
      type: QuestionTypeSchema,
      questionBody: t.String(),
      point: Int(),
      selectedOptionIds: t.Array(t.String()),
      textAnswer: Nullable(t.String()),
      isCorrect: Nullable(t.Boolean()),
      pointsAwarded: Nullable(Int()),
      isManualScoring: t.Boolean({ description: "ESSAY questions are scored by hand" }),
      correctOptionIds: t.Array(t.String()),
      answerCandidates: t.Array(Candidate),
      feedback: Nullable(Feedback),
    }),
  ),
});

export const ScoreAnswerBody = t.Object({
  pointsAwarded: Int({ minimum: 0, maximum: 9007199254740991, error: "must be an integer >= 0" }),
  feedback: t.Optional(Nullable(t.String({ maxLength: 5000, error: "must be at most 5000 characters" }))),
});

export const EmailCountBody = t.Object({ email: Email });
export const EmailCountResult = t.Object({ email: t.String(), count: Int() });

// ---- participant side -----------------------------------------------------------------------

const AnswerInput = t.Object({
  questionId: RefId,
  selectedOptionIds: t.Optional(t.Array(RefId, { maxItems: 20, error: "must be at most 20 option ids", description: "null means []" })),
  textAnswer: t.Optional(Nullable(t.String({ maxLength: 10000, error: "must be at most 10000 characters" }))),
});
const Answers = t.Array(AnswerInput, { maxItems: 60, error: "must be at most 60 answers" });
export const SaveAnswersBody = t.Object({ answers: Answers });
/** The body itself may be absent (nothing more to answer). */
export const SubmitAttemptBody = t.Optional(t.Object({ answers: t.Optional(Answers) }));
export type AnswerInput = typeof AnswerInput.static;

const SavedAnswer = t.Object({ questionId: t.String(), selectedOptionIds: t.Array(t.String()), textAnswer: Nullable(t.String()) });

export const ParticipantView = t.Object({
  passScore: Nullable(Int()),
  maxAttempts: Nullable(Int()),
  timeLimitMin: Nullable(Int()),
  resultExposeLevel: ExposeLevelSchema,
  opensAt: Nullable(Timestamp),
  /** An attempt still open at closesAt is submitted with its saved answers. */
  closesAt: Nullable(Timestamp),
  questionCount: Int(),
  totalPoints: Int(),
  attemptsUsed: Int({ description: "Attempts started, the one in progress included; voided attempts do not count" }),
  attempt: Nullable(
    t.Object({
      attemptId: t.String(),
      startedAt: Timestamp,
      expiresAt: Nullable(Timestamp),
      questions: t.Array(
        t.Object({
          id: t.String(),
          type: QuestionTypeSchema,
          body: t.String(),
          point: Int(),
          attachments: t.Array(QuizAttachment),
          options: t.Array(t.Object({ id: t.String(), body: t.String(), attachments: t.Array(QuizAttachment) })),
        }),
      ),
      answers: t.Array(SavedAnswer),
    }),
  ),
});

export const SaveAnswersResult = t.Object({ attemptId: t.String(), savedAt: Timestamp, expiresAt: Nullable(Timestamp) });

export const MyQuizAttempt = t.Object({
  attemptId: t.String(),
  startedAt: Timestamp,
  expiresAt: Nullable(Timestamp),
  submittedAt: Nullable(Timestamp),
  score: Nullable(Int()),
  passed: Nullable(t.Boolean()),
  hasPendingManual: t.Boolean(),
  scoringCompletedAt: Nullable(Timestamp),
  voidedAt: Nullable(Timestamp),
  answers: Nullable(
    t.Array(
      t.Object({
        questionId: t.String(),
        selectedOptionIds: t.Array(t.String()),
        textAnswer: Nullable(t.String()),
        isCorrect: Nullable(t.Boolean()),
        pointsAwarded: Nullable(Int()),
        correctOptionIds: t.Array(t.String()),
        explanation: Nullable(t.String()),
        feedback: Nullable(Feedback),
      }),
      { description: "Only with resultExposeLevel ALL on a submitted attempt" },
    ),
  ),
});

export const MyQuizAttempts = t.Object({
  resultExposeLevel: ExposeLevelSchema,
  finalScore: Nullable(t.Number({ description: "Per scoreAggregation over fully scored attempts (AVERAGE may be fractional)" })),
  passed: Nullable(t.Boolean()),
  attempts: t.Array(MyQuizAttempt),
});

// ---- per-student overrides ------------------------------------------------------------------

export const QuizOverrideParams = t.Object({ contentId: Id, profileId: Id });
const PositiveOrNull = Nullable(Int({ minimum: 1, maximum: 100000, error: "must be an integer 1..100000 or null" }));
export const QuizOverrideBody = t.Object({
  opensAt: t.Optional(Nullable(DateTimeInput)),
  closesAt: t.Optional(Nullable(DateTimeInput)),
  timeLimitMinutes: t.Optional(PositiveOrNull),
  maxAttempts: t.Optional(PositiveOrNull),
});
export const QuizOverride = t.Object({
  profileId: t.String(),
  opensAt: Nullable(Timestamp),
  closesAt: Nullable(Timestamp),
  timeLimitMinutes: Nullable(Int()),
  maxAttempts: Nullable(Int()),
});
export const QuizOverrideList = t.Object({ overrides: t.Array(QuizOverride) });
