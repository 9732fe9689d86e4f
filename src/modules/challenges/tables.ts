import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";
import { members } from "../../schema/members";
import { spaces } from "../../schema/spaces";

export const TASK_TYPES = ["CHECK_TASK"] as const;
export const CHALLENGE_STATES = ["BEFORE_START", "ONGOING", "FINISHED"] as const;
export type ChallengeState = (typeof CHALLENGE_STATES)[number];

/**
 * Challenges of a space; they go with their space (cascade). `started_at`/`ended_at` are derived
 * from the tasks on every task change (docs/rules/challenges.md#dates). listChallenges walks
 * (space_id, created_at, id) newest first.
 */
export const challenges = sqliteTable(
  "challenges",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** Null once the author's member record is gone (authorName turns null). */
    authorMemberId: text("author_member_id").references(() => members.id, { onDelete: "set null" }),
    /** The author's space role at creation: ADMIN. */
    isWrittenByAdmin: integer("is_written_by_admin", { mode: "boolean" }).notNull(),
    title: text("title").notNull(),
    emoji: text("emoji").notNull(),
    body: text("body").notNull().default(""),
    reminderMinutes: text("reminder_minutes", { mode: "json" }).$type<number[]>().notNull(),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("challenges_space_created_idx").on(t.spaceId, t.createdAt, t.id), index("challenges_author_idx").on(t.authorMemberId)],
);

/** Tasks in `index` order. A purged target content leaves the task with targetContentId null (SET NULL). */
export const challengeTasks = sqliteTable(
  "challenge_tasks",
  {
    id: text("id").primaryKey(),
    challengeId: text("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    guide: text("guide"),
    type: text("type", { enum: TASK_TYPES }).notNull(),
    index: integer("index").notNull(),
    startedAt: integer("started_at").notNull(),
    deadline: integer("deadline"),
    targetContentId: text("target_content_id").references(() => libraryContents.id, { onDelete: "set null" }),
    defaultTags: text("default_tags", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("challenge_tasks_challenge_idx").on(t.challengeId, t.index), index("challenge_tasks_target_idx").on(t.targetContentId)],
);

/**
 * Challenge memberships. (challenge_id, joined_at, member_id) serves the member and task-status
 * lists; (member_id) the space-leave clean-up and the caller's `joined`.
 */
export const challengeMembers = sqliteTable(
  "challenge_members",
  {
    challengeId: text("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    joinedAt: integer("joined_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.challengeId, t.memberId] }),
    index("challenge_members_list_idx").on(t.challengeId, t.joinedAt, t.memberId),
    index("challenge_members_member_idx").on(t.memberId, t.challengeId),
  ],
);

/**
 * Completed tasks, only of current members (leaving removes them). (challenge_id, member_id, task_id)
 * serves progress; (task_id, member_id) the task status.
 */
export const challengeCompletions = sqliteTable(
  "challenge_completions",
  {
    challengeId: text("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    taskId: text("task_id")
      .notNull()
      .references(() => challengeTasks.id, { onDelete: "cascade" }),
    completedAt: integer("completed_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.challengeId, t.memberId, t.taskId] }),
    index("challenge_completions_task_idx").on(t.taskId, t.memberId),
    index("challenge_completions_member_idx").on(t.memberId),
  ],
);

/** The files a challenge attaches (Challenge detail `attachments`), in the order sent. */
export const challengeFiles = sqliteTable(
  "challenge_files",
  {
    challengeId: text("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.challengeId, t.fileId] }), index("challenge_files_file_idx").on(t.fileId)],
);
