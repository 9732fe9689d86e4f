import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { members } from "../../schema/members";
import { spaces } from "../../schema/spaces";

export const POST_TYPES = ["NOTICE", "GENERAL", "QUESTION"] as const;
export type PostType = (typeof POST_TYPES)[number];
export const POST_STATUSES = ["SCHEDULED", "PUBLISHED", "ARCHIVED"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * Announcement posts of a space; they go with their space (ON DELETE CASCADE). `status` is the
 * stored one: a SCHEDULED post whose `publish_at` has passed reads as PUBLISHED (docs/rules/posts.md#status-at-creation).
 * Lists walk (is_pinned, publish_at, id) newest first; each filter has an index in that order.
 */
export const posts = sqliteTable(
  "posts",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** The post's number in its space, 1 upwards. */
    index: integer("index").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    type: text("type", { enum: POST_TYPES }).notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    isEmergency: integer("is_emergency", { mode: "boolean" }).notNull(),
    isPinned: integer("is_pinned", { mode: "boolean" }).notNull(),
    allowFileDownload: integer("allow_file_download", { mode: "boolean" }).notNull(),
    status: text("status", { enum: POST_STATUSES }).notNull(),
    publishAt: integer("publish_at").notNull(),
    /** Null once the author's member record is gone; authorName is then null. */
    authorMemberId: text("author_member_id").references(() => members.id, { onDelete: "set null" }),
    /** The comment marked as the answer of a QUESTION post (docs/rules/community.md#answered-questions). */
    answeredCommentId: text("answered_comment_id"),
    /** answered_comment_id IS NOT NULL, kept with it: the `answered` filter walks an index on it. */
    isAnswered: integer("is_answered", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("posts_space_index_idx").on(t.spaceId, t.index),
    index("posts_list_idx").on(t.isPinned, t.publishAt, t.id),
    index("posts_space_list_idx").on(t.spaceId, t.isPinned, t.publishAt, t.id),
    index("posts_type_list_idx").on(t.type, t.isPinned, t.publishAt, t.id),
    // The status filter, the published count per space, and scheduled posts coming due.
    index("posts_status_idx").on(t.status, t.publishAt),
    index("posts_space_status_idx").on(t.spaceId, t.status, t.publishAt),
    index("posts_author_idx").on(t.authorMemberId),
    // listPosts?type=QUESTION&answered=…, with and without a space.
    index("posts_answered_list_idx").on(t.type, t.isAnswered, t.isPinned, t.publishAt, t.id),
    index("posts_space_answered_list_idx").on(t.spaceId, t.type, t.isAnswered, t.isPinned, t.publishAt, t.id),
  ],
);

/** The files a post attaches, in the order sent; links go with the post. */
export const postFiles = sqliteTable(
  "post_files",
  {
    postId: text("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.fileId] }), index("post_files_file_idx").on(t.fileId)],
);

/**
 * Comments on posts (docs/rules/community.md#comments), oldest first on (post_id, created_at, id);
 * they go with their post. The author's member going keeps the comment without an author.
 */
export const postComments = sqliteTable(
  "post_comments",
  {
    id: text("id").primaryKey(),
    postId: text("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    authorMemberId: text("author_member_id").references(() => members.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("post_comments_list_idx").on(t.postId, t.createdAt, t.id), index("post_comments_author_idx").on(t.authorMemberId)],
);

/** The files a comment attaches, in the order sent; links go with the comment. */
export const postCommentFiles = sqliteTable(
  "post_comment_files",
  {
    commentId: text("comment_id")
      .notNull()
      .references(() => postComments.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.fileId] }), index("post_comment_files_file_idx").on(t.fileId)],
);
