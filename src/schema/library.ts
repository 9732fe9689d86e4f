import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { members } from "./members";
import { spaces } from "./spaces";

export const CONTENT_TYPES = [
  "VIDEO",
  "URL_VIDEO",
  "QUIZ",
  "DOCUMENT",
  "SURVEY",
  "LIVE",
  "ASSIGNMENT",
  "GROUP_ASSIGNMENT",
  "GROUP_PEER_ASSESSMENT",
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
/** The types whose playable part is set by a typed operation (attachVideo, setLinkedVideo, …). */
export const MEDIA_TYPES = ["VIDEO", "URL_VIDEO", "LIVE", "DOCUMENT"] as const satisfies readonly ContentType[];
export type MediaType = (typeof MEDIA_TYPES)[number];
export const VISIBILITIES = ["PRIVATE", "SHARED", "PUBLIC"] as const;
export const LIVE_PROVIDERS = ["meeting_a", "meeting_b", "meeting_c", "other"] as const;

/** What a typed set operation stores; rendered (with freshly signed URLs) by info.ts. */
export type StoredInfo =
  | { kind: "VIDEO"; fileId: string }
  | { kind: "URL_VIDEO"; url: string; videoKey: string | null }
  | { kind: "LIVE"; provider: (typeof LIVE_PROVIDERS)[number]; joinUrl: string; startAt?: number | null; endAt?: number | null }
  | { kind: "DOCUMENT"; fileId: string; pageCount: number | null };

/**
 * Folder nodes. `space_id` null = the tenant library; a node never changes space except when its
 * space is deleted (detachSpaceNodes, with the FK's SET NULL as the fallback). Siblings sort by
 * (rank, id): (parent_id, rank, id) serves children, (space_id, parent_id, rank, id) the roots.
 */
export const libraryNodes = sqliteTable(
  "library_nodes",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").references(() => spaces.id, { onDelete: "set null" }),
    // deleteNode refuses a node with children (409), so no cascade here.
    parentId: text("parent_id").references((): AnySQLiteColumn => libraryNodes.id),
    title: text("title").notNull(),
    rank: text("rank").notNull(),
    depth: integer("depth").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("library_nodes_parent_idx").on(t.parentId, t.rank, t.id),
    index("library_nodes_space_idx").on(t.spaceId, t.parentId, t.rank, t.id),
  ],
);

/**
 * Library contents. `space_id` copies the space of the content's node (a content moves only between
 * folders of the same space, docs/rules/next-year.md#moving), so visibility and the spaces' counts need no join. Later modules (assignments, quizzes,
 * surveys, …) reference `id` with ON DELETE CASCADE. listContents walks (created_at, id) newest
 * first, per node or per type on its own keyset index.
 */
export const libraryContents = sqliteTable(
  "library_contents",
  {
    id: text("id").primaryKey(),
    type: text("type", { enum: CONTENT_TYPES }).notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    visibility: text("visibility", { enum: VISIBILITIES }).notNull(),
    // deleteNode refuses a node that still holds contents (409), so no cascade here.
    nodeId: text("node_id").references(() => libraryNodes.id),
    spaceId: text("space_id").references(() => spaces.id, { onDelete: "set null" }),
    /** No foreign key: the content outlives its author's member record (authorName turns null). */
    authorProfileId: text("author_profile_id").notNull(),
    info: text("info", { mode: "json" }).$type<StoredInfo>(),
    /** The file of a VIDEO or DOCUMENT info, indexed for "who may read this file" (getFile). */
    infoFileId: text("info_file_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("library_contents_created_idx").on(t.createdAt, t.id),
    index("library_contents_node_created_idx").on(t.nodeId, t.createdAt, t.id),
    index("library_contents_type_created_idx").on(t.type, t.createdAt, t.id),
    index("library_contents_space_idx").on(t.spaceId, t.visibility),
    index("library_contents_author_idx").on(t.authorProfileId),
    index("library_contents_info_file_idx").on(t.infoFileId),
  ],
);

/** The files a content attaches (Content detail `attachments`), in the order sent. */
export const libraryContentFiles = sqliteTable(
  "library_content_files",
  {
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.fileId] }), index("library_content_files_file_idx").on(t.fileId)],
);

/** shareContent's list (USER / VIEW only); effective while the content is SHARED. */
export const libraryContentShares = sqliteTable(
  "library_content_shares",
  {
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.memberId] }), index("library_content_shares_member_idx").on(t.memberId, t.contentId)],
);
