// Post visibility as SQL and the hooks other modules call (space counts, file reads). Imports
// tables (and the space-defaults reader) only, so spaces/access.ts can use it without an import
// cycle through the services.
import { and, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { spaceMembers, spaces } from "../../schema/spaces";
import { spaceAllowsDownload } from "../spaces/settings";
import { type PostStatus, postCommentFiles, postComments, postFiles, posts } from "./tables";

/** A stored SCHEDULED post reads as PUBLISHED once its publish time has come (docs/rules/posts.md#status-at-creation). */
export function publishedSql(now: number): SQL {
  return sql`(${posts.status} = 'PUBLISHED' OR (${posts.status} = 'SCHEDULED' AND ${posts.publishAt} <= ${now}))`;
}

export function effectiveStatus(row: { status: PostStatus; publishAt: number }, now: number): PostStatus {
  return row.status === "SCHEDULED" && row.publishAt <= now ? "PUBLISHED" : row.status;
}

/** The status filter of listPosts, on the status as read. */
export function statusSql(status: PostStatus, now: number): SQL {
  if (status === "PUBLISHED") return publishedSql(now);
  if (status === "SCHEDULED") return sql`(${posts.status} = 'SCHEDULED' AND ${posts.publishAt} > ${now})`;
  return eq(posts.status, "ARCHIVED");
}

/**
 * Space.postCount of a page of spaces in one grouped query: the posts every member of the space
 * can read (published), so scheduled and archived posts do not show through the count.
 */
export function postCounts(db: Db, spaceIds: string[], now = Date.now()): Map<string, number> {
  if (spaceIds.length === 0) return new Map();
  const rows = db
    .select({ spaceId: posts.spaceId, n: count() })
    .from(posts)
    .where(and(inArray(posts.spaceId, spaceIds), publishedSql(now)))
    .groupBy(posts.spaceId)
    .all();
  return new Map(rows.map((r) => [r.spaceId, r.n]));
}

/**
 * Hook for getFile (docs/rules/files.md#getfile): the reader can see a post that attaches the file (enrolled in
 * its space, and the post is published or the reader is ADMIN there).
 */
export function canSeePostFile(db: Db, memberId: string, fileId: string, now = Date.now()): boolean {
  const row = db
    .select({ id: posts.id })
    .from(postFiles)
    .innerJoin(posts, eq(posts.id, postFiles.postId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, posts.spaceId), eq(spaceMembers.memberId, memberId)))
    .where(and(eq(postFiles.fileId, fileId), sql`(${spaceMembers.role} = 'ADMIN' OR ${publishedSql(now)})`))
    .limit(1)
    .get();
  return row !== undefined;
}

/**
 * Hook for downloadFileContent of a URL emitted for `post:<postId>` (docs/rules/files.md#download-rules): "ok" while the
 * reader can still see the post and it still attaches the file; "forbidden" for a non-ADMIN reader
 * while the post's or its space's allowFileDownload is false; "gone" otherwise (404).
 */
export function postFileDownload(db: Db, postId: string, fileId: string, readerId: string, now = Date.now()): "ok" | "forbidden" | "gone" {
  const link = db
    .select({ postId: postFiles.postId })
    .from(postFiles)
    .where(and(eq(postFiles.postId, postId), eq(postFiles.fileId, fileId)))
    .get();
  return link ? postDownloadRule(db, postId, readerId, now) : "gone";
}

/** The same rule for a URL emitted for `comment:<commentId>`: the comment still attaches the file, then its post's rule. */
export function commentFileDownload(
  db: Db,
  commentId: string,
  fileId: string,
  readerId: string,
  now = Date.now(),
): "ok" | "forbidden" | "gone" {
  const link = db
    .select({ postId: postComments.postId })
    .from(postCommentFiles)
    .innerJoin(postComments, eq(postComments.id, postCommentFiles.commentId))
    .where(and(eq(postCommentFiles.commentId, commentId), eq(postCommentFiles.fileId, fileId)))
    .get();
  return link ? postDownloadRule(db, link.postId, readerId, now) : "gone";
}

/** Whether the reader may download what a post (or a comment on it) attaches. */
function postDownloadRule(db: Db, postId: string, readerId: string, now: number): "ok" | "forbidden" | "gone" {
  const row = db
    .select({
      status: posts.status,
      publishAt: posts.publishAt,
      allowFileDownload: posts.allowFileDownload,
      spaceAllows: spaces.allowFileDownload,
      role: spaceMembers.role,
    })
    .from(posts)
    .innerJoin(spaces, eq(spaces.id, posts.spaceId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, posts.spaceId), eq(spaceMembers.memberId, readerId)))
    .where(eq(posts.id, postId))
    .get();
  if (!row) return "gone";
  if (row.role === "ADMIN") return "ok";
  if (effectiveStatus(row, now) !== "PUBLISHED") return "gone";
  return row.allowFileDownload && spaceAllowsDownload(db, row.spaceAllows) ? "ok" : "forbidden";
}

/** Hook for getFile: the reader can see a post with a comment that attaches the file (as canSeePostFile). */
export function canSeeCommentFile(db: Db, memberId: string, fileId: string, now = Date.now()): boolean {
  const row = db
    .select({ id: posts.id })
    .from(postCommentFiles)
    .innerJoin(postComments, eq(postComments.id, postCommentFiles.commentId))
    .innerJoin(posts, eq(posts.id, postComments.postId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, posts.spaceId), eq(spaceMembers.memberId, memberId)))
    .where(and(eq(postCommentFiles.fileId, fileId), sql`(${spaceMembers.role} = 'ADMIN' OR ${publishedSql(now)})`))
    .limit(1)
    .get();
  return row !== undefined;
}

/**
 * The notices a participant of these spaces reads now (published NOTICE or emergency posts) from
 * `since`, emergencies first, then newest: one query on (space_id, status, publish_at).
 */
export function recentNotices(db: Db, spaceIds: string[], since: number, now: number, limit = 50) {
  if (spaceIds.length === 0) return [];
  return db
    .select({ postId: posts.id, spaceId: posts.spaceId, title: posts.title, isEmergency: posts.isEmergency, publishAt: posts.publishAt })
    .from(posts)
    .where(
      and(
        inArray(posts.spaceId, spaceIds),
        publishedSql(now),
        sql`${posts.publishAt} >= ${since}`,
        sql`(${posts.type} = 'NOTICE' OR ${posts.isEmergency} = 1)`,
      ),
    )
    .orderBy(desc(posts.isEmergency), desc(posts.publishAt), desc(posts.id))
    .limit(limit)
    .all();
}
