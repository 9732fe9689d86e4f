// Library contents: list, create, read, update, delete and share.
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { forbidden, invalid } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { libraryContentFiles, libraryContentShares, libraryContents, MEDIA_TYPES } from "../../schema/library";
import { members } from "../../schema/members";
import { attachmentOf, readyFilesByIds, requireAttachableFiles } from "../files/attachments";
import { contains } from "../groups/lookup";
import { type ContentAccess, contentForManager, contentForViewer, findVisibleNode, selectContents, visibleContentSql } from "./access";
import type { ContentDetail, ContentSummary, CreateContentBody, ListContentsQuery, ShareContentBody, UpdateContentBody } from "./model";
import { nodeForContent } from "./nodes";
import { contentDeleted, contentWritten } from "./notify";

type Summary = Static<typeof ContentSummary>;
type Detail = Static<typeof ContentDetail>;

const LIST_OP = "listContents";
const isMedia = (type: string) => (MEDIA_TYPES as readonly string[]).includes(type);

function toSummary(c: ContentAccess): Summary {
  return {
    id: c.id,
    type: c.type,
    title: c.title,
    description: c.description,
    visibility: c.visibility,
    authorProfileId: c.authorProfileId,
    authorName: c.authorName,
    ready: !isMedia(c.type) || c.info !== null,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
    canManage: c.canManage,
  };
}

/** The detail: shares (for managers only: they name other members) and attachments signed for this reader. */
function toDetail(rt: Runtime, actor: Actor, db: Db, c: ContentAccess): Detail {
  const shares = c.canManage
    ? db
        .select({ targetId: libraryContentShares.memberId, targetName: members.displayName })
        .from(libraryContentShares)
        .innerJoin(members, eq(members.id, libraryContentShares.memberId))
        .where(eq(libraryContentShares.contentId, c.id))
        .orderBy(asc(libraryContentShares.position))
        .all()
        .map((s) => ({ targetType: "USER" as const, targetId: s.targetId, targetName: s.targetName, level: "VIEW" as const }))
    : [];
  const fileIds = attachedFileIds(db, c.id);
  const files = readyFilesByIds(db, fileIds);
  const attachments = fileIds.flatMap((id) => {
    const f = files.get(id);
    return f ? [attachmentOf(rt, actor, f, `content:${c.id}`)] : [];
  });
  return { ...toSummary(c), shares, attachments };
}

/** A content's files in order: a prepared query (every quiz page reads it: docs/rules/performance.md#prepared-queries). */
function attachedFileIds(db: Db, contentId: string): string[] {
  return preparedQuery(db, "library.attachedFileIds", (base) =>
    base
      .select({ fileId: libraryContentFiles.fileId })
      .from(libraryContentFiles)
      .where(eq(libraryContentFiles.contentId, sql.placeholder("contentId")))
      .orderBy(asc(libraryContentFiles.position))
      .prepare(),
  )
    .all({ contentId })
    .map((r) => r.fileId);
}

function replaceFiles(tx: Db, contentId: string, fileIds: string[]) {
  tx.delete(libraryContentFiles).where(eq(libraryContentFiles.contentId, contentId)).run();
  if (fileIds.length)
    tx.insert(libraryContentFiles)
      .values(fileIds.map((fileId, position) => ({ contentId, fileId, position })))
      .run();
}

/**
 * createContent: the author is the caller's main profile. A `nodeId` must be a folder the caller
 * sees (400); one in a space's tree needs ADMIN of that space (403), and the content joins that space.
 */
export function createContent(rt: Runtime, actor: Actor, input: Static<typeof CreateContentBody>, now = Date.now()): Detail {
  return write(actor.db, (tx) => {
    const fileIds = input.fileIds ?? [];
    requireAttachableFiles(tx, actor, fileIds, new Set());
    const node = input.nodeId != null ? nodeForContent(tx, actor, input.nodeId) : null;
    const id = Bun.randomUUIDv7();
    tx.insert(libraryContents)
      .values({
        id,
        type: input.type,
        title: input.title,
        description: input.description ?? "",
        visibility: input.visibility ?? "PRIVATE",
        nodeId: node?.id ?? null,
        spaceId: node?.spaceId ?? null,
        authorProfileId: actor.profileId,
        info: null,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    replaceFiles(tx, id, fileIds);
    const created = contentForViewer(actor, id, undefined, tx);
    contentWritten(tx, actor, null, created, now);
    return toDetail(rt, actor, tx, created);
  });
}

export function getContent(rt: Runtime, actor: Actor, contentId: string): Detail {
  return toDetail(rt, actor, actor.db, contentForViewer(actor, contentId));
}

/**
 * PATCH: absent fields unchanged; `fileIds` replaces the attachment list. Check order (docs/rules/errors.md#check-order) as
 * createContent: the files (references, docs/rules/conventions.md#body-references) 400, then the content 404, 403.
 */
export function updateContent(rt: Runtime, actor: Actor, contentId: string, input: Static<typeof UpdateContentBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    if (input.fileIds !== undefined) requireAttachableFiles(tx, actor, input.fileIds, new Set(attachedFileIds(tx, contentId)));
    const before = contentForManager(actor, contentId, undefined, tx);
    if (input.fileIds !== undefined) replaceFiles(tx, contentId, input.fileIds);
    const patch: Partial<typeof libraryContents.$inferInsert> = { updatedAt: now };
    if (input.nodeId !== undefined) patch.nodeId = moveTarget(tx, actor, before, input.nodeId).id;
    if (input.title !== undefined) patch.title = input.title;
    if (input.description !== undefined) patch.description = input.description;
    if (input.visibility !== undefined) patch.visibility = input.visibility;
    tx.update(libraryContents).set(patch).where(eq(libraryContents.id, contentId)).run();
    const after = contentForViewer(actor, contentId, undefined, tx);
    contentWritten(tx, actor, before.visibility, after, now);
    return toDetail(rt, actor, tx, after);
  });
}

/**
 * Where updateContent's `nodeId` moves a content (docs/rules/next-year.md#moving): a folder the
 * caller could create it in (createContent's rules: library:upload, a folder they see (else 400),
 * ADMIN of its space (else 403)) of the content's own space, or of the tenant library for a library
 * content; a folder of another space is 400.
 */
function moveTarget(tx: Db, actor: Actor, content: ContentAccess, nodeId: string) {
  const node = findVisibleNode(tx, actor, nodeId);
  if (!node) throw invalid("nodeId", "must be a folder you can see");
  if (node.spaceId !== content.spaceId) throw invalid("nodeId", "must be a folder of the content's own space (or of the tenant library)");
  if (!actor.permissionSet.has("library:upload")) throw forbidden();
  return nodeForContent(tx, actor, nodeId);
}

/**
 * Removes a content row. Its shares and attachment links go by cascade, as do the configs,
 * submissions, attempts and responses of the modules that reference library_contents with
 * ON DELETE CASCADE. Cross-module clean-ups that are not cascades (challenge tasks'
 * targetContentId = null) are added here.
 */
export function purgeContent(tx: Db, contentId: string): void {
  tx.delete(libraryContents).where(eq(libraryContents.id, contentId)).run();
  contentDeleted(tx, contentId);
}

export function deleteContent(actor: Actor, contentId: string): void {
  write(actor.db, (tx) => {
    contentForManager(actor, contentId, undefined, tx);
    purgeContent(tx, contentId);
  });
}

/** shareContent: PUT replaces the list; each targetId must be a Member.id of this tenant (400). */
export function shareContent(rt: Runtime, actor: Actor, contentId: string, input: Static<typeof ShareContentBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, undefined, tx);
    const ids = input.shares.map((s) => s.targetId);
    const known = new Set(
      ids.length
        ? tx
            .select({ id: members.id })
            .from(members)
            .where(inArray(members.id, [...new Set(ids)]))
            .all()
            .map((r) => r.id)
        : [],
    );
    const missing = ids.findIndex((id) => !known.has(id));
    if (missing >= 0) throw invalid(`shares[${missing}].targetId`, "is not a member of this tenant");
    tx.delete(libraryContentShares).where(eq(libraryContentShares.contentId, contentId)).run();
    const unique = [...new Set(ids)];
    if (unique.length)
      tx.insert(libraryContentShares)
        .values(unique.map((memberId, position) => ({ contentId, memberId, position })))
        .run();
    tx.update(libraryContents).set({ updatedAt: now }).where(eq(libraryContents.id, contentId)).run();
    return toDetail(rt, actor, tx, contentForViewer(actor, contentId, undefined, tx));
  });
}

type ListQuery = Static<typeof ListContentsQuery>;

/**
 * listContents: the visible contents, newest first on (created_at, id). `nodeId` = directly in that
 * folder (one the caller cannot see: 400), `type` exact, `q` a case-insensitive substring of the
 * title. The cursor is bound to the filters.
 */
export function listContents(rt: Runtime, actor: Actor, query: ListQuery) {
  const q = query.q ? query.q : null;
  const filters = { nodeId: query.nodeId ?? null, type: query.type ?? null, q };
  const after = rt.cursors.decode<unknown>(LIST_OP, filters, query.cursor);
  if (after !== null && !(Array.isArray(after) && after.length === 2 && typeof after[0] === "number" && typeof after[1] === "string")) {
    throw invalid("cursor", "is not a valid cursor for this list", "query");
  }
  if (query.nodeId !== undefined && !findVisibleNode(actor.db, actor, query.nodeId)) {
    throw invalid("nodeId", "must be a folder you can see", "query");
  }
  const c = libraryContents;
  const conds: (SQL | undefined)[] = [visibleContentSql(actor)];
  if (query.nodeId !== undefined) conds.push(eq(c.nodeId, query.nodeId));
  if (query.type !== undefined) conds.push(eq(c.type, query.type));
  if (q !== null) conds.push(contains(c.title, q));
  const position = after as [number, string] | null;
  if (position) conds.push(sql`(${c.createdAt}, ${c.id}) < (${position[0]}, ${position[1]})`);
  const limit = query.limit ?? 30;
  const rows = selectContents(actor.db, actor)
    .where(and(...conds))
    .orderBy(desc(c.createdAt), desc(c.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? rt.cursors.encode(LIST_OP, filters, [last.row.createdAt, last.row.id]) : null;
  return {
    contents: page.map((r) => toSummary({ ...r.row, authorName: r.authorName, canManage: r.canManage })),
    nextCursor,
  };
}
