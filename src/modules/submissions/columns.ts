// The columns every submission revision has, whoever submits (a participant or a group): one
// definition so both tables keep the same grade and late-mark shape.
import { type AnySQLiteColumn, index, integer, text } from "drizzle-orm/sqlite-core";

export const SUBMISSION_STATUSES = ["SUBMITTED", "GRADED", "RETURNED"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Fresh builders per table (Drizzle binds a builder to the table it is used in). */
export function revisionColumns() {
  return {
    status: text("status", { enum: SUBMISSION_STATUSES }).notNull(),
    submittedAt: integer("submitted_at").notNull(),
    dueAtAtSubmit: integer("due_at_at_submit"),
    isLate: integer("is_late", { mode: "boolean" }).notNull(),
    score: integer("score"),
    feedback: text("feedback"),
    gradedAt: integer("graded_at"),
    returnedAt: integer("returned_at"),
  };
}

/** The list indexes: latest rows newest first (total, pendingCount), with and without the status filter. */
export function latestIndexes(
  t: { contentId: AnySQLiteColumn; isLatest: AnySQLiteColumn; status: AnySQLiteColumn; submittedAt: AnySQLiteColumn; id: AnySQLiteColumn },
  names: { latest: string; status: string },
) {
  return [
    index(names.latest).on(t.contentId, t.isLatest, t.submittedAt, t.id),
    index(names.status).on(t.contentId, t.isLatest, t.status, t.submittedAt, t.id),
  ];
}
