import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";
import { latestIndexes, revisionColumns } from "../submissions/columns";

export const SUBMISSION_METHODS = ["ANY_MEMBER", "ALL_MEMBERS"] as const;
/** Why a config's group-set link does not work (NOT_LINKED is computed: no set chosen). */
export const LINK_INVALID_REASONS = ["NOT_LINKED", "GROUP_SET_DELETED"] as const;

/**
 * One row per GROUP_ASSIGNMENT content (absent = the defaults, not linked). `space_group_set_id` has
 * no foreign key: deleting the set keeps the link and marks it GROUP_SET_DELETED (the set's name is
 * copied so the manager still sees what was linked).
 */
export const groupAssignmentConfigs = sqliteTable(
  "group_assignment_configs",
  {
    contentId: text("content_id")
      .primaryKey()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    spaceGroupSetId: text("space_group_set_id"),
    spaceGroupSetName: text("space_group_set_name"),
    linkInvalidReason: text("link_invalid_reason", { enum: ["GROUP_SET_DELETED"] }),
    maxScore: integer("max_score"),
    allowLateSubmit: integer("allow_late_submit", { mode: "boolean" }).notNull().default(false),
    submissionMethod: text("submission_method", { enum: SUBMISSION_METHODS }).notNull().default("ANY_MEMBER"),
    bodyRequired: integer("body_required", { mode: "boolean" }).notNull().default(false),
    fileRequired: integer("file_required", { mode: "boolean" }).notNull().default(false),
    dueAt: integer("due_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  // the group-set delete hook finds the configs linked to a set
  (t) => [index("group_assignment_configs_set_idx").on(t.spaceGroupSetId)],
);

/**
 * Every revision of every group's submission. One revision chain per (content, group); `is_latest`
 * marks its head, which the list pages over. Group and submitter names are copies: a group removed
 * from its set, or a member removed, keeps its submissions readable.
 */
export const groupSubmissions = sqliteTable(
  "group_submissions",
  {
    id: text("id").primaryKey(),
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    groupId: text("group_id").notNull(),
    groupName: text("group_name").notNull(),
    submitterMemberId: text("submitter_member_id").notNull(),
    submitterName: text("submitter_name").notNull(),
    revision: integer("revision").notNull(),
    isLatest: integer("is_latest", { mode: "boolean" }).notNull(),
    body: text("body").notNull(),
    fileIds: text("file_ids", { mode: "json" }).$type<string[]>().notNull(),
    ...revisionColumns(),
  },
  (t) => [
    // a group's chain (history, next revision, who of the group has submitted)
    uniqueIndex("group_submissions_chain_idx").on(t.contentId, t.groupId, t.revision),
    ...latestIndexes(t, { latest: "group_submissions_latest_idx", status: "group_submissions_status_idx" }),
  ],
);

/** Per-member score overrides of one graded revision (overrideGroupMemberScores; PUT replaces them). */
export const groupMemberScores = sqliteTable(
  "group_member_scores",
  {
    submissionId: text("submission_id")
      .notNull()
      .references(() => groupSubmissions.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    score: integer("score").notNull(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.profileId] })],
);

/**
 * The files a revision attaches (its `file_ids`, one row each): getFile finds the revisions attaching
 * a file through the file index.
 */
export const groupSubmissionFiles = sqliteTable(
  "group_submission_files",
  {
    submissionId: text("submission_id")
      .notNull()
      .references(() => groupSubmissions.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.fileId] }), index("group_submission_files_file_idx").on(t.fileId)],
);

/** setGroupSubmissionExtension: one group's own deadline, replacing the config's dueAt for it. */
export const groupAssignmentExtensions = sqliteTable(
  "group_assignment_extensions",
  {
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    groupId: text("group_id").notNull(),
    dueAt: integer("due_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.groupId] })],
);
