import { t } from "elysia";
import { Enum, Id, Int, Nullable } from "../../platform/http/schemas";
import { GRADABLE_TYPES } from "../library/access";
import { CELL_STATUSES } from "./cells";

export const GradebookParams = t.Object({ spaceId: Id });

export const GradebookColumn = t.Object({
  contentId: t.String(),
  type: Enum(GRADABLE_TYPES),
  title: t.String(),
  maxScore: Nullable(Int({ description: "An assignment's maxScore; a quiz's sum of question points; null when not set" })),
});

export const GradebookCell = t.Object({
  contentId: t.String(),
  score: Nullable(
    t.Number({ description: "Quiz: per scoreAggregation (AVERAGE may be fractional); null where there is none (or not yet released)" }),
  ),
  status: Enum(CELL_STATUSES, {
    description: "NOT_SUBMITTED; SUBMITTED (ungraded, or a quiz waiting for hand scoring); GRADED; RETURNED (assignments)",
  }),
});

export const GradebookRow = t.Object({
  profileId: t.String(),
  displayName: t.String(),
  userId: Nullable(t.String()),
  cells: t.Array(GradebookCell, { description: "One per column, in column order" }),
});

export const Gradebook = t.Object({
  columns: t.Array(GradebookColumn, {
    description: "The space's shared or public assignments, group assignments and quizzes, oldest first",
  }),
  rows: t.Array(GradebookRow, { description: "One per active PARTICIPANT, by displayName" }),
});

export const MyGrades = t.Object({
  columns: t.Array(GradebookColumn),
  row: GradebookRow,
});
