// Posts of spaces: create (one space or many), list, read, update, delete. ADMINs post anything;
// participants post, edit and delete their own where the space allows it (docs/rules/community.md).
import { and, asc, count, desc, eq, inArray, max, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { forbidden, invalid, notFound } from "../../platform/http/errors";
import { isoRequired, parseTime } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { type SpaceRole, spaceMembers, spaces } from "../../schema/spaces";
import { attachmentOf, readyFilesByIds, requireAttachableFiles } from "../files/attachments";
import { contains } from "../groups/lookup";
import { forgetNotifications } from "../notifications/emit";
import { cancelJobs } from "../notifications/schedule";
import { canSeeSpace, visibleSpace } from "../spaces/access";
import { requireActive } from "../spaces/archived";
import { effectiveAllowFileDownload, getSpaceDefaults } from "../spaces/settings";
import { effectiveStatus, publishedSql, statusSql } from "./access";
import { requireParticipantPostFields, requireParticipantWrite } from "./community";
import type { CreatePostBody, CreatePostsInSpacesBody, ListPostsQuery, Post, PostInput, UpdatePostBody } from "./model";
import { postWritten } from "./notify";
import { type PostStatus, postComments, postFiles, posts } from "./tables";

type PostRecord = Static<typeof Post>;
type PostRow = typeof posts.$inferSelect;
/** A post row with what its record shows besides the row, and the reader's role in its space. */
export type PostView = {
  row: PostRow;
  spaceName: string;
  spaceAllowsDownload: boolean;
  spaceActive: boolean;
  enabledMenus: string[];
  authorName: string | null;
  callerRole: SpaceRole | null;
};

const LIST_OP = "listPosts";
const LINK_CHUNK = 2000;

/** FROM posts with its space, author and the reader's enrolment (left) joined. */
function selectPosts(db: Db, actor: Actor) {
  const enrolment = and(eq(spaceMembers.spaceId, posts.spaceId), eq(spaceMembers.memberId, actor.memberId));
  const q = db
    .select({
      row: posts,
      spaceName: spaces.name,
      spaceAllowsDownload: spaces.allowFileDownload,
      spaceActive: spaces.isActive,
      enabledMenus: spaces.enabledMenus,
      authorName: members.displayName,
      callerRole: spaceMembers.role,
    })
    .from(posts)
    .innerJoin(spaces, eq(spaces.id, posts.spaceId))
    .leftJoin(members, eq(members.id, posts.authorMemberId));
  return q.leftJoin(spaceMembers, enrolment);
}

/** Views → records with their attachments: two queries for the whole page, never one per post. */
function toPosts(rt: Runtime, actor: Actor, db: Db, views: PostView[], now: number): PostRecord[] {
  const ids = views.map((v) => v.row.id);
  const links = ids.length
    ? db
        .select({ postId: postFiles.postId, fileId: postFiles.fileId })
        .from(postFiles)
        .where(inArray(postFiles.postId, ids))
        .orderBy(asc(postFiles.postId), asc(postFiles.position))
        .all()
    : [];
  const files = readyFilesByIds(
    db,
    links.map((l) => l.fileId),
  );
  const byPost = new Map<string, string[]>();
  for (const l of links) byPost.set(l.postId, [...(byPost.get(l.postId) ?? []), l.fileId]);
  const comments = new Map(
    ids.length
      ? db
          .select({ postId: postComments.postId, n: count() })
          .from(postComments)
          .where(inArray(postComments.postId, ids))
          .groupBy(postComments.postId)
          .all()
          .map((r) => [r.postId, r.n])
      : [],
  );
  const defaults = getSpaceDefaults(db);
  return views.map(({ row, spaceName, spaceAllowsDownload, authorName, callerRole }) => {
    // docs/rules/posts.md#file-downloads: no URL for non-ADMIN readers while downloads are off
    // (the post's flag, or its space's as the space defaults enforce it).
    const hideUrl = callerRole !== "ADMIN" && !(row.allowFileDownload && effectiveAllowFileDownload(defaults, spaceAllowsDownload));
    const attachments = (byPost.get(row.id) ?? []).flatMap((fileId) => {
      const f = files.get(fileId);
      if (!f) return [];
      const a = attachmentOf(rt, actor, f, `post:${row.id}`);
      return [hideUrl ? { ...a, url: null } : a];
    });
    return {
      id: row.id,
      spaceId: row.spaceId,
      spaceName,
      index: row.index,
      title: row.title,
      content: row.content,
      type: row.type,
      tags: row.tags,
      isEmergency: row.isEmergency,
      isPinned: row.isPinned,
      allowFileDownload: row.allowFileDownload,
      status: effectiveStatus(row, now),
      publishAt: isoRequired(row.publishAt),
      authorId: row.authorMemberId,
      authorName,
      attachments,
      commentCount: comments.get(row.id) ?? 0,
      answeredCommentId: row.answeredCommentId,
      createdAt: isoRequired(row.createdAt),
    };
  });
}

/** The records of these posts, in the order given. */
export function postsByIds(rt: Runtime, actor: Actor, db: Db, ids: string[], now: number): PostRecord[] {
  if (ids.length === 0) return [];
  const views = selectPosts(db, actor).where(inArray(posts.id, ids)).all();
  const byId = new Map(views.map((v) => [v.row.id, v]));
  return toPosts(
    rt,
    actor,
    db,
    ids.flatMap((id) => byId.get(id) ?? []),
    now,
  );
}

/**
 * A post as the caller may reach it: 404 when it is unknown, the caller is not enrolled in its
 * space, or it is not published and the caller is not ADMIN of its space (docs/rules/access.md#posts
 * Visibility). The caller's role decides the 403s that follow.
 */
export function findPost(actor: Actor, postId: string, db: Db, now: number): PostView {
  const view = selectPosts(db, actor).where(eq(posts.id, postId)).get();
  if (!view) throw notFound();
  // docs/rules/access.md#posts: enrolled in its space (a public space shows its posts to nobody
  // else), and PUBLISHED unless the caller is ADMIN there; anything else is 404, never 403 (docs/rules/access.md#visibility).
  if (view.callerRole === null) throw notFound();
  if (view.callerRole !== "ADMIN" && effectiveStatus(view.row, now) !== "PUBLISHED") throw notFound();
  return view;
}

/**
 * A post the caller may change: any post for an ADMIN of its space; for a participant, their own
 * (docs/rules/community.md#participant-posts), which `fields` may refuse (403), and not while the
 * space is archived (409). Anyone else: 403.
 */
function postForEditor(actor: Actor, postId: string, db: Db, now: number, fields: () => void = () => {}): PostView {
  const view = findPost(actor, postId, db, now);
  if (view.callerRole === "ADMIN") return view;
  if (view.row.authorMemberId !== actor.memberId) throw forbidden();
  fields();
  requireActive({ isActive: view.spaceActive });
  return view;
}

/** Creation status (docs/rules/posts.md#status-at-creation): a future publishAt schedules; otherwise published now. */
function initialSchedule(publishAt: string | null | undefined, now: number): { status: PostStatus; publishAt: number } {
  const at = publishAt == null ? null : parseTime(publishAt);
  return at !== null && at > now ? { status: "SCHEDULED", publishAt: at } : { status: "PUBLISHED", publishAt: now };
}

/** Inserts one post per space (each the next index of its space) with the same fields and files. */
function insertPosts(tx: Db, actor: Actor, spaceIds: string[], input: PostInput, fileIds: string[], now: number): string[] {
  if (spaceIds.length === 0) return [];
  const last = new Map(
    tx
      .select({ spaceId: posts.spaceId, n: max(posts.index) })
      .from(posts)
      .where(inArray(posts.spaceId, spaceIds))
      .groupBy(posts.spaceId)
      .all()
      .map((r) => [r.spaceId, r.n ?? 0]),
  );
  const schedule = initialSchedule(input.publishAt, now);
  const rows = spaceIds.map((spaceId) => ({
    id: Bun.randomUUIDv7(),
    spaceId,
    index: (last.get(spaceId) ?? 0) + 1,
    title: input.title,
    content: input.content ?? "",
    type: input.type ?? "NOTICE",
    tags: input.tags ?? [],
    isEmergency: input.isEmergency ?? false,
    isPinned: input.isPinned ?? false,
    allowFileDownload: input.allowFileDownload ?? true,
    ...schedule,
    authorMemberId: actor.memberId,
    createdAt: now,
    updatedAt: now,
  }));
  tx.insert(posts).values(rows).run();
  for (const r of rows) postWritten(tx, actor, r, now);
  const links = rows.flatMap((r) => fileIds.map((fileId, position) => ({ postId: r.id, fileId, position })));
  // 500 spaces x 20 files: chunks keep each statement well under SQLite's bound-parameter limit.
  for (let i = 0; i < links.length; i += LINK_CHUNK)
    tx.insert(postFiles)
      .values(links.slice(i, i + LINK_CHUNK))
      .run();
  return rows.map((r) => r.id);
}

/**
 * createPost: an ADMIN of the body's space, or a participant where the space lets them
 * (docs/rules/community.md#participant-posts); 404 when the space cannot be seen, then 403.
 */
export function createPost(rt: Runtime, actor: Actor, input: Static<typeof CreatePostBody>, now = Date.now()): PostRecord {
  return write(actor.db, (tx) => {
    const fileIds = input.fileIds ?? [];
    requireAttachableFiles(tx, actor, fileIds, new Set());
    const space = visibleSpace(actor, input.spaceId, tx);
    if (space.callerRole !== "ADMIN") requireParticipantWrite(rt, actor, space, () => requireParticipantPostFields(input, false));
    const ids = insertPosts(tx, actor, [input.spaceId], input, fileIds, now);
    return postsByIds(rt, actor, tx, ids, now)[0] as PostRecord;
  });
}

/**
 * createPostsInSpaces (docs/rules/posts.md#many-spaces, docs/rules/conventions.md#partial-failures): one post in each listed space where the caller
 * is ADMIN; a space it cannot see is skipped as NOT_FOUND, one where it is not ADMIN as FORBIDDEN.
 * A space listed twice gets one post. Bad fileIds fail the whole request (400).
 */
export function createPostsInSpaces(rt: Runtime, actor: Actor, input: Static<typeof CreatePostsInSpacesBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    const fileIds = input.fileIds ?? [];
    requireAttachableFiles(tx, actor, fileIds, new Set());
    const spaceIds = [...new Set(input.spaceIds)];
    const found = new Map(
      tx
        .select({ space: spaces, role: spaceMembers.role })
        .from(spaces)
        .leftJoin(spaceMembers, and(eq(spaceMembers.spaceId, spaces.id), eq(spaceMembers.memberId, actor.memberId)))
        .where(inArray(spaces.id, spaceIds))
        .all()
        .map((r) => [r.space.id, r]),
    );
    const targets: string[] = [];
    const skipped: { spaceId: string; reason: "NOT_FOUND" | "FORBIDDEN" }[] = [];
    for (const spaceId of spaceIds) {
      const f = found.get(spaceId);
      if (!f || !canSeeSpace(actor, f.space, f.role)) skipped.push({ spaceId, reason: "NOT_FOUND" });
      else if (f.role !== "ADMIN") skipped.push({ spaceId, reason: "FORBIDDEN" });
      else targets.push(spaceId);
    }
    const ids = insertPosts(tx, actor, targets, input, fileIds, now);
    return { created: ids.length, skipped, posts: postsByIds(rt, actor, tx, ids, now) };
  });
}

/** A scheduled post reads as published once `rt.now` passes its publishAt (docs/rules/posts.md#status-at-creation). */
export function getPost(rt: Runtime, actor: Actor, postId: string, now = rt.now()): PostRecord {
  const view = findPost(actor, postId, actor.db, now);
  return toPosts(rt, actor, actor.db, [view], now)[0] as PostRecord;
}

/**
 * The status and publish time after an update. `status` sent is the next state (docs/rules/posts.md#updating);
 * a publishAt sent alone reschedules a post that is not ARCHIVED (future: SCHEDULED, else
 * PUBLISHED); null publishes now. SCHEDULED needs a future publishAt; PUBLISHED moves a future
 * one to now.
 */
function nextSchedule(row: PostRow, input: Static<typeof UpdatePostBody>, now: number): { status: PostStatus; publishAt: number } {
  const current = effectiveStatus(row, now);
  const sentAt = input.publishAt === undefined ? undefined : input.publishAt === null ? now : parseTime(input.publishAt);
  const publishAt = sentAt ?? row.publishAt;
  if (input.status === undefined) {
    if (sentAt === undefined || current === "ARCHIVED") return { status: current, publishAt };
    return { status: publishAt > now ? "SCHEDULED" : "PUBLISHED", publishAt };
  }
  if (input.status === "SCHEDULED" && publishAt <= now) throw invalid("publishAt", "must be a future date-time for a SCHEDULED post");
  if (input.status === "PUBLISHED" && publishAt > now) {
    if (sentAt !== undefined) throw invalid("publishAt", "must not be in the future for a PUBLISHED post");
    return { status: "PUBLISHED", publishAt: now };
  }
  return { status: input.status, publishAt };
}

/**
 * PATCH: absent fields unchanged; `fileIds` replaces the attachment list (kept files may be another
 * ADMIN's). Check order (docs/rules/errors.md#check-order) as createPost: the files (references) 400, then the post 404, 403.
 */
export function updatePost(rt: Runtime, actor: Actor, postId: string, input: Static<typeof UpdatePostBody>, now = Date.now()): PostRecord {
  return write(actor.db, (tx) => {
    if (input.fileIds !== undefined) {
      const kept = tx.select({ fileId: postFiles.fileId }).from(postFiles).where(eq(postFiles.postId, postId)).all();
      requireAttachableFiles(tx, actor, input.fileIds, new Set(kept.map((k) => k.fileId)));
    }
    const { row } = postForEditor(actor, postId, tx, now, () => requireParticipantPostFields(input, true));
    if (input.fileIds !== undefined) {
      tx.delete(postFiles).where(eq(postFiles.postId, postId)).run();
      if (input.fileIds.length) {
        tx.insert(postFiles)
          .values(input.fileIds.map((fileId, position) => ({ postId, fileId, position })))
          .run();
      }
    }
    const patch: Partial<typeof posts.$inferInsert> = { ...nextSchedule(row, input, now), updatedAt: now };
    for (const key of ["title", "content", "type", "tags", "isEmergency", "isPinned", "allowFileDownload"] as const) {
      if (input[key] !== undefined) Object.assign(patch, { [key]: input[key] });
    }
    // Only a QUESTION keeps an answer (docs/rules/community.md#answered-questions).
    if (input.type !== undefined && input.type !== "QUESTION") Object.assign(patch, { answeredCommentId: null, isAnswered: false });
    const updated = tx.update(posts).set(patch).where(eq(posts.id, postId)).returning().get();
    if (updated) postWritten(tx, actor, updated, now);
    return postsByIds(rt, actor, tx, [postId], now)[0] as PostRecord;
  });
}

/** Hard delete (docs/rules/posts.md#deleting) by an ADMIN or the author; comments and attachment links go by cascade, the files stay. */
export function deletePost(actor: Actor, postId: string, now = Date.now()): void {
  write(actor.db, (tx) => {
    const { spaceId } = postForEditor(actor, postId, tx, now).row;
    const comments = tx.select({ id: postComments.id }).from(postComments).where(eq(postComments.postId, postId)).all();
    tx.delete(posts).where(eq(posts.id, postId)).run();
    cancelJobs(tx, postId);
    // Its notifications and its comments' go with it (docs/rules/notifications.md#deleted-records).
    forgetNotifications(tx, actor, spaceId, "POST", [postId]);
    forgetNotifications(
      tx,
      actor,
      spaceId,
      "COMMENT",
      comments.map((c) => c.id),
    );
  });
}

type Position = [number, number, string];
const isPosition = (v: unknown): v is Position =>
  Array.isArray(v) &&
  v.length === 3 &&
  (v[0] === 0 || v[0] === 1) &&
  typeof v[1] === "number" &&
  Number.isSafeInteger(v[1]) &&
  typeof v[2] === "string";

/**
 * Pinned first, then newest publishAt, on (is_pinned, publish_at, id). Only the posts the caller
 * may read: in spaces where it is enrolled, and published unless it is ADMIN there. A spaceId the
 * caller cannot see is 404; `search` is a case-insensitive substring of title or content.
 * `answered` lists QUESTION posts with or without an answer (docs/rules/community.md#answered-questions).
 */
export function listPosts(rt: Runtime, actor: Actor, q: Static<typeof ListPostsQuery>, now = rt.now()) {
  const filters = {
    search: q.search ?? null,
    spaceId: q.spaceId ?? null,
    status: q.status ?? null,
    type: q.type ?? null,
    answered: q.answered ?? null,
  };
  const after = rt.cursors.decode<unknown>(LIST_OP, filters, q.cursor);
  if (after !== null && !isPosition(after)) throw invalid("cursor", "is not a valid cursor for this list", "query");
  if (q.spaceId !== undefined) visibleSpace(actor, q.spaceId);
  const conds: SQL[] = [];
  if (q.spaceId !== undefined) conds.push(eq(posts.spaceId, q.spaceId));
  if (q.type !== undefined) conds.push(eq(posts.type, q.type));
  if (q.answered !== undefined) conds.push(eq(posts.type, "QUESTION"), eq(posts.isAnswered, q.answered === "true"));
  if (q.status !== undefined) conds.push(statusSql(q.status, now));
  if (q.search !== undefined) conds.push(sql`(${contains(posts.title, q.search)} OR ${contains(posts.content, q.search)})`);
  const readable = sql`(${spaceMembers.role} = 'ADMIN' OR ${publishedSql(now)})`;
  // The count may start from the caller's enrolments; the page walks the (…, is_pinned, publish_at,
  // id) index in order and probes the enrolment per post, so it never sorts every visible post.
  const total =
    actor.db
      .select({ n: count() })
      .from(posts)
      .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, posts.spaceId), eq(spaceMembers.memberId, actor.memberId)))
      .where(and(readable, ...conds))
      .get()?.n ?? 0;
  const enrolledAndReadable = sql`EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${posts.spaceId} AND sm.member_id = ${actor.memberId} AND (sm.role = 'ADMIN' OR ${publishedSql(now)}))`;
  const limit = q.limit ?? 30;
  const rows = selectPosts(actor.db, actor)
    .where(
      and(
        enrolledAndReadable,
        ...conds,
        after ? sql`(${posts.isPinned}, ${posts.publishAt}, ${posts.id}) < (${after[0]}, ${after[1]}, ${after[2]})` : undefined,
      ),
    )
    .orderBy(desc(posts.isPinned), desc(posts.publishAt), desc(posts.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1)?.row;
  const nextCursor =
    rows.length > limit && last ? rt.cursors.encode(LIST_OP, filters, [last.isPinned ? 1 : 0, last.publishAt, last.id]) : null;
  return { posts: toPosts(rt, actor, actor.db, page, now), total, nextCursor };
}
