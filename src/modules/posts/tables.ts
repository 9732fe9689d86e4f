import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { members } from "../../schema/members";
import { spaces } from "../../schema/spaces";

export const POST_TYPES = ["NOTICE", "GENERAL", "QUESTION"] as const;
export type PostType = (typeof POST_TYPES)[number];
export const POST_STATUSES = ["SCHEDULED", "PUBLISHED", "ARCHIVED"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * Announcement posts of a space; they go with their space (ON DELETE CASCADE). `status` is the
 * stored one: a SCHEDULED post whose `publish_at` has passed reads as PUBLISHED (DECISIONS §9.3).
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
