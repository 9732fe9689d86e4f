import { t } from "elysia";
import { DateTimeInput, Enum, Id, Int, Nullable, PageFields, PageQuery, Timestamp } from "../../platform/http/schemas";
import { Similarity } from "../similarity/model";
import { SUBMISSION_STATUSES } from "../submissions/columns";
import { RUBRIC_VISIBILITIES } from "./tables";

const RefId = t.String({ minLength: 1, maxLength: 100, error: "must be an id" });
const Points = Int({ minimum: 0, maximum: 10000, error: "must be an integer 0..10000" });

export const AssignmentParams = t.Object({ contentId: Id });
export const SubmissionParams = t.Object({ contentId: Id, submissionId: Id });
export const SubmitterParams = t.Object({ contentId: Id, profileId: Id });

export const SubmissionStatusSchema = Enum(SUBMISSION_STATUSES);
export const RubricVisibilitySchema = Enum(RUBRIC_VISIBILITIES);

// ---- config ---------------------------------------------------------------------------------

/** setAssignmentConfig (PUT: full replace; absent fields take their defaults). */
export const AssignmentConfigBody = t.Object({
  maxScore: t.Optional(Nullable(Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: "must be an integer >= 1 or null" }))),
  allowLateSubmit: t.Optional(t.Boolean()),
  allowResubmit: t.Optional(t.Boolean()),
  bodyRequired: t.Optional(t.Boolean()),
  fileRequired: t.Optional(t.Boolean()),
  dueAt: t.Optional(Nullable(DateTimeInput)),
});

export const AssignmentConfig = t.Object({
  maxScore: Nullable(Int()),
  allowLateSubmit: t.Boolean(),
  allowResubmit: t.Boolean(),
  bodyRequired: t.Boolean(),
  fileRequired: t.Boolean(),
  dueAt: Nullable(Timestamp),
});

// ---- rubric ---------------------------------------------------------------------------------

const Name = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
const Description = t.Optional(Nullable(t.String({ maxLength: 5000, error: "must be at most 5000 characters" })));

const LevelInput = t.Object({ id: t.Optional(RefId), name: Name, description: Description, points: Points });
const CriterionInput = t.Object({
  id: t.Optional(RefId),
  name: t.Optional({ ...Name, description: "Default empty" }),
  description: Description,
  maxPoints: t.Optional({ ...Points, description: "Default: the largest level's points, else 0" }),
  levels: t.Optional(t.Array(LevelInput, { maxItems: 20, error: "must be at most 20 levels" })),
});

/** setAssignmentRubric (PUT: full replace). An item with the id of a stored one keeps it; one without is new. */
export const RubricBody = t.Object({
  useLevel: t.Boolean(),
  visibility: RubricVisibilitySchema,
  criteria: t.Array(CriterionInput, { maxItems: 20, error: "must be at most 20 criteria" }),
});

const Level = t.Object({ id: t.String(), name: t.String(), description: Nullable(t.String()), points: Int() });
export const Rubric = t.Object({
  useLevel: t.Boolean(),
  visibility: RubricVisibilitySchema,
  criteria: t.Array(
    t.Object({
      id: t.String(),
      index: Int(),
      name: t.String(),
      description: Nullable(t.String()),
      maxPoints: Int(),
      levels: t.Array(Level),
    }),
  ),
  totalMaxPoints: Int(),
});

// ---- submissions ----------------------------------------------------------------------------

const RubricItem = t.Object({ criterionId: t.String(), levelId: Nullable(t.String()), points: Int() });

export const Submission = t.Object({
  id: t.String(),
  profileId: t.String(),
  displayName: Nullable(t.String()),
  revision: Int(),
  body: Nullable(t.String()),
  attachments: t.Array(t.Object({ fileId: t.String(), fileName: t.String(), downloadUrl: t.String() })),
  status: SubmissionStatusSchema,
  submittedAt: Timestamp,
  dueAtAtSubmit: Nullable(Timestamp),
  isLate: t.Boolean(),
  score: Nullable(Int()),
  feedback: Nullable(t.String()),
  gradedAt: Nullable(Timestamp),
  returnedAt: Nullable(Timestamp),
  rubricEvaluation: Nullable(t.Object({ items: t.Array(RubricItem), total: Int() })),
  similarity: Nullable(Similarity),
});

export const SubmitBody = t.Object({
  body: t.Optional(Nullable(t.String({ maxLength: 200000, error: "must be at most 200000 characters" }))),
  fileIds: t.Optional(t.Array(RefId, { maxItems: 20, error: "must be at most 20 file ids" })),
});

export const SubmissionsQuery = t.Object({ ...PageQuery, status: t.Optional(SubmissionStatusSchema) });
export const Extension = t.Object({
  profileId: t.String(),
  dueAt: Nullable(Timestamp),
});

export const SubmissionPage = t.Object({
  ...PageFields,
  submissions: t.Array(Submission),
  pendingCount: Int(),
  extensions: t.Array(Extension, {
    description: "Every participant's own deadline for this assignment (setSubmissionExtension), submitted or not",
  }),
});

export const SubmitterHistory = t.Object({ latest: Submission, history: t.Array(Submission) });
export const MySubmission = t.Object({ latest: Nullable(Submission), history: t.Array(Submission) });

// ---- grading --------------------------------------------------------------------------------

export const GradeBody = t.Object({
  score: t.Optional(Nullable(Points)),
  feedback: t.Optional(Nullable(t.String({ maxLength: 10000, error: "must be at most 10000 characters" }))),
  rubric: t.Optional(
    t.Array(t.Object({ criterionId: RefId, levelId: t.Optional(Nullable(RefId)), points: t.Optional(Points) }), {
      maxItems: 20,
      error: "must be at most 20 items",
    }),
  ),
});

export const FeedbackBody = t.Object({
  feedback: t.Optional(Nullable(t.String({ maxLength: 10000, error: "must be at most 10000 characters" }))),
});

export { ExtensionBody } from "../submissions/model";

export const ReturnAllResult = t.Object({ returned: Int({ description: "How many submissions were returned" }) });
