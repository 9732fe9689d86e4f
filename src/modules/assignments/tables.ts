import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";
import { latestIndexes, revisionColumns } from "../submissions/columns";
import type { RubricItem } from "../submissions/grading";

export const RUBRIC_VISIBILITIES = ["VISIBLE_ALL", "HIDE_ALL_TO_PARTICIPANTS"] as const;

export type StoredLevel = { id: string; name: string; description: string | null; points: number };
export type StoredCriterion = { id: string; name: string; description: string | null; maxPoints: number; levels: StoredLevel[] };

/** An ASSIGNMENT's config, one row per content (absent = the defaults: no limit, no deadline, all false). */
export const assignmentConfigs = sqliteTable("assignment_configs", {
  contentId: text("content_id")
    .primaryKey()
    .references(() => libraryContents.id, { onDelete: "cascade" }),
  maxScore: integer("max_score"),
  allowLateSubmit: integer("allow_late_submit", { mode: "boolean" }).notNull().default(false),
  allowResubmit: integer("allow_resubmit", { mode: "boolean" }).notNull().default(false),
  bodyRequired: integer("body_required", { mode: "boolean" }).notNull().default(false),
  fileRequired: integer("file_required", { mode: "boolean" }).notNull().default(false),
  dueAt: integer("due_at"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * An assignment's rubric, one row per content. The criteria are one JSON document: always read and
 * replaced whole; grades copy the points they award, so a later rubric edit never rewrites a grade.
 */
export const assignmentRubrics = sqliteTable("assignment_rubrics", {
  contentId: text("content_id")
    .primaryKey()
    .references(() => libraryContents.id, { onDelete: "cascade" }),
  useLevel: integer("use_level", { mode: "boolean" }).notNull(),
  visibility: text("visibility", { enum: RUBRIC_VISIBILITIES }).notNull(),
  criteria: text("criteria", { mode: "json" }).$type<StoredCriterion[]>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Every revision of every individual submission. `is_latest` marks the one row per (content,
 * submitter) that the list, pendingCount and grading act on; it moves in the submit transaction.
 * The grade lives on the revision (score … rubric_total). `profile_id` has no foreign key: a
 * submission outlives its submitter's member (displayName turns null). Group assignments keep
 * their own tables; nothing here knows about groups.
 */
export const assignmentSubmissions = sqliteTable(
  "assignment_submissions",
  {
    id: text("id").primaryKey(),
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    revision: integer("revision").notNull(),
    isLatest: integer("is_latest", { mode: "boolean" }).notNull(),
    body: text("body"),
    ...revisionColumns(),
    /** null = graded without a rubric (or not graded). */
    rubricItems: text("rubric_items", { mode: "json" }).$type<RubricItem[]>(),
  },
  (t) => [
    // history of one submitter, and the next revision number
    uniqueIndex("assignment_submissions_submitter_idx").on(t.contentId, t.profileId, t.revision),
    ...latestIndexes(t, { latest: "assignment_submissions_latest_idx", status: "assignment_submissions_latest_status_idx" }),
  ],
);

/** The files of a submission revision, in the order sent; `file_id` indexed for getFile. */
export const assignmentSubmissionFiles = sqliteTable(
  "assignment_submission_files",
  {
    submissionId: text("submission_id")
      .notNull()
      .references(() => assignmentSubmissions.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.fileId] }), index("assignment_submission_files_file_idx").on(t.fileId)],
);

/** setSubmissionExtension: one participant's own deadline, replacing the config's dueAt for them. */
export const assignmentExtensions = sqliteTable(
  "assignment_extensions",
  {
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    dueAt: integer("due_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.profileId] })],
);
