// Comments on posts and the answer of a QUESTION post (docs/rules/community.md#comments).
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { decodeKeyset } from "../../platform/http/cursor";
import { conflict, forbidden, invalid, notFound } from "../../platform/http/errors";
import { limitMemberWrites } from "../../platform/http/rate-limit";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { attachmentsByRecord, requireAttachableFiles } from "../files/attachments";
import { forgetNotifications, notify } from "../notifications/emit";
import { consoleUrl } from "../notifications/urls";
import { requireActive } from "../spaces/archived";
import { effectiveAllowFileDownload, getSpaceDefaults } from "../spaces/settings";
import { effectiveStatus } from "./access";
import { communityOn } from "./community";
import type { Comment, CreateCommentBody, ListCommentsQuery, MarkAnswerBody, Post, UpdateCommentBody } from "./model";
import { findPost, type PostView, postsByIds } from "./service";
import { postCommentFiles, postComments, posts } from "./tables";

type CommentRecord = Static<typeof Comment>;
type CommentRow = typeof postComments.$inferSelect & { authorName: string | null };

const LIST_OP = "listPostComments";

function selectComments(db: Db) {
  return db
    .select({
      id: postComments.id,
      postId: postComments.postId,
      authorMemberId: postComments.authorMemberId,
      body: postComments.body,
      createdAt: postComments.createdAt,
      updatedAt: postComments.updatedAt,
      authorName: members.displayName,
    })
    .from(postComments)
    .leftJoin(members, eq(members.id, postComments.authorMemberId));
}

/** Rows → records with their attachments, two queries for the page; URLs follow the post's download rule. */
function toComments(rt: Runtime, actor: Actor, db: Db, view: PostView, rows: CommentRow[]): CommentRecord[] {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? db
        .select({ recordId: postCommentFiles.commentId, fileId: postCommentFiles.fileId })
        .from(postCommentFiles)
        .where(inArray(postCommentFiles.commentId, ids))
        .orderBy(asc(postCommentFiles.commentId), asc(postCommentFiles.position))
        .all()
    : [];
  const files = attachmentsByRecord(rt, actor, db, links, "comment");
  // As the post's own files (docs/rules/posts.md#file-downloads): no URL for non-ADMIN readers while downloads are off.
  const hideUrl =
    view.callerRole !== "ADMIN" &&
    !(view.row.allowFileDownload && effectiveAllowFileDownload(getSpaceDefaults(db), view.spaceAllowsDownload));
  return rows.map((r) => ({
    id: r.id,
    postId: r.postId,
    authorId: r.authorMemberId,
    authorName: r.authorName,
    body: r.body,
    attachments: (files.get(r.id) ?? []).map((a) => (hideUrl ? { ...a, url: null } : a)),
    createdAt: isoRequired(r.createdAt),
    updatedAt: isoRequired(r.updatedAt),
    isAnswer: view.row.answeredCommentId === r.id,
  }));
}

/** The comments of a post the caller can see (else 404), oldest first on (post_id, created_at, id). */
export function listPostComments(rt: Runtime, actor: Actor, postId: string, q: Static<typeof ListCommentsQuery>, now = Date.now()) {
  const after = decodeKeyset(rt.cursors, LIST_OP, { postId }, q.cursor);
  const view = findPost(actor, postId, actor.db, now);
  const limit = q.limit ?? 30;
  const rows = selectComments(actor.db)
    .where(
      and(
        eq(postComments.postId, postId),
        after ? sql`(${postComments.createdAt}, ${postComments.id}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(postComments.createdAt), asc(postComments.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? rt.cursors.encode(LIST_OP, { postId }, [last.createdAt, last.id]) : null;
  return { comments: toComments(rt, actor, actor.db, view, page), nextCursor };
}

/** docs/rules/community.md#comments: nothing changes in an archived space, nor on an ARCHIVED post. */
function requireOpen(view: PostView, now: number): void {
  requireActive({ isActive: view.spaceActive });
  if (effectiveStatus(view.row, now) === "ARCHIVED") throw conflict("INVALID_STATE", "This post is archived: it is read-only.");
}

function commentOf(db: Db, postId: string, commentId: string): CommentRow {
  const row = selectComments(db)
    .where(and(eq(postComments.id, commentId), eq(postComments.postId, postId)))
    .get();
  if (!row) throw notFound();
  return row;
}

/**
 * createPostComment: any member enrolled in the post's space while `community` is on, else its
 * ADMINs only (403); 409 when the space or the post is archived; then the per-member write limit.
 */
export function createPostComment(
  rt: Runtime,
  actor: Actor,
  postId: string,
  input: Static<typeof CreateCommentBody>,
  now = Date.now(),
): CommentRecord {
  return write(actor.db, (tx) => {
    const fileIds = input.fileIds ?? [];
    requireAttachableFiles(tx, actor, fileIds, new Set());
    const view = findPost(actor, postId, tx, now);
    if (view.callerRole !== "ADMIN" && !communityOn(view)) throw forbidden();
    requireOpen(view, now);
    limitMemberWrites(rt, actor, now);
    const id = Bun.randomUUIDv7();
    notifyComment(tx, actor, view, id, input.body, now);
    tx.insert(postComments).values({ id, postId, authorMemberId: actor.memberId, body: input.body, createdAt: now, updatedAt: now }).run();
    if (fileIds.length)
      tx.insert(postCommentFiles)
        .values(fileIds.map((fileId, position) => ({ commentId: id, fileId, position })))
        .run();
    return toComments(rt, actor, tx, view, [commentOf(tx, postId, id)])[0] as CommentRecord;
  });
}

/**
 * COMMENT (docs/rules/notifications.md#kinds): the post's author and everyone who commented on it
 * before, never the commenter (notify's filter drops them, and anyone no longer enrolled).
 */
function notifyComment(tx: Db, actor: Actor, view: PostView, commentId: string, body: string, now: number): void {
  const earlier = tx
    .selectDistinct({ id: postComments.authorMemberId })
    .from(postComments)
    .where(eq(postComments.postId, view.row.id))
    .all();
  const recipients = [view.row.authorMemberId, ...earlier.map((r) => r.id)].filter((id): id is string => id !== null);
  notify(
    tx,
    actor,
    {
      kind: "COMMENT",
      spaceId: view.row.spaceId,
      recordType: "COMMENT",
      recordId: commentId,
      titleKo: `${actor.displayName}님의 댓글: ${view.row.title}`,
      titleEn: `${actor.displayName} commented on ${view.row.title}`,
      bodyPreview: body,
      url: consoleUrl.post(view.row.spaceId, view.row.id),
      actorMemberId: actor.memberId,
      recipients: [...new Set(recipients)],
    },
    now,
  );
}

/** updatePostComment: the comment's author only (403 for anyone else, ADMINs included); an absent body changes nothing. */
export function updatePostComment(
  rt: Runtime,
  actor: Actor,
  params: { postId: string; commentId: string },
  input: Static<typeof UpdateCommentBody>,
  now = Date.now(),
): CommentRecord {
  return write(actor.db, (tx) => {
    const view = findPost(actor, params.postId, tx, now);
    const row = commentOf(tx, params.postId, params.commentId);
    if (row.authorMemberId !== actor.memberId) throw forbidden();
    requireOpen(view, now);
    if (input.body !== undefined) {
      tx.update(postComments).set({ body: input.body, updatedAt: now }).where(eq(postComments.id, row.id)).run();
    }
    return toComments(rt, actor, tx, view, [commentOf(tx, params.postId, params.commentId)])[0] as CommentRecord;
  });
}

/** deletePostComment: its author or an ADMIN of the space; a deleted answer leaves the question unanswered. */
export function deletePostComment(actor: Actor, params: { postId: string; commentId: string }, now = Date.now()): void {
  write(actor.db, (tx) => {
    const view = findPost(actor, params.postId, tx, now);
    const row = commentOf(tx, params.postId, params.commentId);
    if (row.authorMemberId !== actor.memberId && view.callerRole !== "ADMIN") throw forbidden();
    requireOpen(view, now);
    tx.delete(postComments).where(eq(postComments.id, row.id)).run();
    forgetNotifications(tx, actor, view.row.spaceId, "COMMENT", [row.id]);
    if (view.row.answeredCommentId === row.id) setAnswer(tx, view.row.id, null, now);
  });
}

function setAnswer(tx: Db, postId: string, commentId: string | null, now: number): void {
  tx.update(posts)
    .set({ answeredCommentId: commentId, isAnswered: commentId !== null, updatedAt: now })
    .where(eq(posts.id, postId))
    .run();
}

/**
 * markPostAnswer (docs/rules/community.md#answered-questions): the QUESTION post's author or an
 * ADMIN of its space marks one of its comments as the answer, or clears it with null; another
 * type of post is 409; a comment that is not the post's is 400.
 */
export function markPostAnswer(
  rt: Runtime,
  actor: Actor,
  postId: string,
  input: Static<typeof MarkAnswerBody>,
  now = Date.now(),
): Static<typeof Post> {
  return write(actor.db, (tx) => {
    const view = findPost(actor, postId, tx, now);
    if (view.callerRole !== "ADMIN" && view.row.authorMemberId !== actor.memberId) throw forbidden();
    if (view.row.type !== "QUESTION") throw conflict("INVALID_STATE", "Only a QUESTION post has an answer.");
    requireOpen(view, now);
    const commentId = input.commentId ?? null;
    if (commentId !== null) {
      const found = tx
        .select({ id: postComments.id })
        .from(postComments)
        .where(and(eq(postComments.id, commentId), eq(postComments.postId, postId)))
        .get();
      if (!found) throw invalid("commentId", "must be a comment of this post");
    }
    setAnswer(tx, postId, commentId, now);
    return postsByIds(rt, actor, tx, [postId], now)[0] as Static<typeof Post>;
  });
}
