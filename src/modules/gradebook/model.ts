import { t } from "elysia";
import { Chars, Enum, Id, Nullable, QueryBool } from "../../platform/http/schemas";
import { GRADABLE_TYPES } from "../library/access";
import { CELL_STATUSES } from "./cells";

export const GradebookParams = t.Object({ spaceId: Id });
export const GradeColumnParams = t.Object({ spaceId: Id, columnId: Id });
export const GradebookQuery = t.Object({
  includeInactive: t.Optional(QueryBool),
});

export const COLUMN_TYPES = [...GRADABLE_TYPES, "MANUAL"] as const;
const Weight = t.Number({ minimum: 0, maximum: 1000, error: "must be a number 0..1000" });
const MaxScore = t.Number({ exclusiveMinimum: 0, maximum: 100000, error: "must be a number above 0 (at most 100000)" });

export const GradebookColumn = t.Object({
  contentId: Nullable(t.String({ description: "The content of a content column; null for a manual column" })),
  columnId: t.Optional(t.String({ description: "The id of a manual column (absent on a content column)" })),
  type: Enum(COLUMN_TYPES, { description: "MANUAL for a manual column (createGradeColumn)" }),
  title: t.String(),
  maxScore: Nullable(
    t.Number({ description: "An assignment's maxScore; a quiz's sum of question points; a manual column's maxScore; null when not set" }),
  ),
  weight: t.Number({ description: "The column's weight in `total` (default 1)" }),
});

export const GradebookCell = t.Object({
  contentId: Nullable(t.String()),
  columnId: t.Optional(t.String({ description: "The manual column's id (absent on a content column's cell)" })),
  score: Nullable(
    t.Number({ description: "Quiz: per scoreAggregation (AVERAGE may be fractional); null where there is none (or not yet released)" }),
  ),
  status: Enum(CELL_STATUSES, {
    description:
      "NOT_SUBMITTED; SUBMITTED (ungraded, or a quiz waiting for hand scoring); GRADED (a manual column with a score); RETURNED (assignments)",
  }),
});

export const GradebookRow = t.Object({
  profileId: t.String(),
  displayName: t.String(),
  userId: Nullable(t.String()),
  isActive: t.Boolean({ description: "false for a member who left the space or was deactivated (includeInactive)" }),
  cells: t.Array(GradebookCell, { description: "One per column, in column order" }),
  total: Nullable(
    t.Number({
      description:
        "Σ(weight × score ÷ maxScore) ÷ Σ(weight of the columns with a score) × 100 over the columns with a score and a maxScore; null without any",
    }),
  ),
});

export const Gradebook = t.Object({
  columns: t.Array(GradebookColumn, {
    description: "The space's shared or public assignments, group assignments and quizzes, oldest first, then its manual columns",
  }),
  rows: t.Array(GradebookRow, { description: "One per active PARTICIPANT (with includeInactive, also those who left), by displayName" }),
});

export const MyGrades = t.Object({
  columns: t.Array(GradebookColumn),
  row: GradebookRow,
});

// ---- manual columns and weights ---------------------------------------------------------------

export const CreateGradeColumnBody = t.Object({
  title: Chars(1, 100, { error: "must be 1..100 characters" }),
  maxScore: MaxScore,
  weight: t.Optional(Weight),
});

export const UpdateGradeColumnBody = t.Object({
  title: t.Optional(Chars(1, 100, { error: "must be 1..100 characters" })),
  maxScore: t.Optional(MaxScore),
  weight: t.Optional(Weight),
});

export const GradeColumn = t.Object({ id: t.String(), title: t.String(), maxScore: t.Number(), weight: t.Number() });

export const GradeColumnScoresBody = t.Object({
  scores: t.Array(
    t.Object({
      profileId: Id,
      score: Nullable(t.Number({ minimum: 0, error: "must be a number ≥ 0 or null" })),
    }),
    { minItems: 1, maxItems: 1000, error: "must list 1..1000 scores" },
  ),
});

export const GradebookWeightsBody = t.Object({
  weights: t.Array(
    t.Object({
      contentId: t.Optional(Id),
      columnId: t.Optional(Id),
      weight: Weight,
    }),
    { minItems: 1, maxItems: 500, error: "must list 1..500 weights" },
  ),
});
