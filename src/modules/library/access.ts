// Who may see and manage library records (docs/rules/access.md#contentmanager, docs/rules/access.md#contentviewer, docs/rules/access.md#visibility).
// Later modules (assignments, group assignments, peer assessments, quizzes, surveys) use these.
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import { cachedByTables, frozen, preparedQuery } from "../../platform/db/sqlite";
import type { Db } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { forbidden, notFound } from "../../platform/http/errors";
import { type ContentType, libraryContentFiles, libraryContentShares, libraryContents, libraryNodes } from "../../schema/library";
import { members, profiles } from "../../schema/members";
import { spaceMembers } from "../../schema/spaces";
import { spaceRole } from "../spaces/access";

export type ContentRow = typeof libraryContents.$inferSelect;
export type NodeRow = typeof libraryNodes.$inferSelect;
/** A content row as the caller sees it: its author's name and whether the caller manages it. */
export type ContentAccess = ContentRow & { authorName: string | null; canManage: boolean };

type Who = Pick<Actor, "memberId" | "profileId">;

/** canManage as SQL over library_contents: the author, or an ADMIN of the space owning its node. */
export function canManageSql(actor: Who): SQL<boolean> {
  const c = libraryContents;
  return sql<boolean>`(${c.authorProfileId} = ${actor.profileId} OR (${c.spaceId} IS NOT NULL AND EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${c.spaceId} AND sm.member_id = ${actor.memberId} AND sm.role = 'ADMIN')))`.mapWith(
    (v) => v === 1 || v === true,
  );
}

/**
 * Content visibility as SQL over library_contents (docs/rules/access.md#contents): canManage, or PUBLIC, or SHARED
 * with the caller, or SHARED/PUBLIC in a space where the caller is enrolled. PRIVATE content in a
 * space's folder is a draft its managers alone see.
 */
export function visibleContentSql(actor: Who): SQL<boolean> {
  const c = libraryContents;
  return sql<boolean>`(${c.visibility} = 'PUBLIC' OR ${c.authorProfileId} = ${actor.profileId} OR (${c.spaceId} IS NOT NULL AND EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${c.spaceId} AND sm.member_id = ${actor.memberId} AND (sm.role = 'ADMIN' OR ${c.visibility} = 'SHARED'))) OR (${c.visibility} = 'SHARED' AND EXISTS (SELECT 1 FROM library_content_shares s WHERE s.content_id = ${c.id} AND s.member_id = ${actor.memberId})))`.mapWith(
    (v) => v === 1 || v === true,
  );
}

/** The columns every content read selects: the row, the author's name, canManage and visibility. */
export function contentColumns(actor: Who) {
  return {
    row: libraryContents,
    authorName: members.displayName,
    canManage: canManageSql(actor),
    visible: visibleContentSql(actor),
  };
}

/** FROM library_contents with the author's name joined (left: the author may be gone). */
export function selectContents(db: Db, actor: Who) {
  return db
    .select(contentColumns(actor))
    .from(libraryContents)
    .leftJoin(profiles, eq(profiles.id, libraryContents.authorProfileId))
    .leftJoin(members, eq(members.id, profiles.memberId));
}

/** The caller's ids as placeholders: content access as one prepared query per connection. */
const CALLER = { profileId: sql.placeholder("profileId"), memberId: sql.placeholder("memberId") } as unknown as Who;

/**
 * A content row with its author's name, shared by every caller until a write to the tables it is read
 * from (docs/rules/performance.md#caches): a quiz's 5,000 students read one row, not one each.
 */
const CONTENTS = { name: "library_contents", tables: ["library_contents", "profiles", "members"] } as const;

/**
 * Whether one member sees and manages one content, until a write to what decides it: the content's
 * author, space and visibility, the space's enrolments, the shares (docs/rules/access.md#contents).
 * Two booleans an entry, up to 5,000 (an exam's students).
 */
const ACCESS = { name: "content_access", tables: ["library_contents", "space_members", "library_content_shares"], max: 5000 } as const;

type CachedContent = { row: ContentRow; authorName: string | null };

/** One content with the caller's access to it (each part cached, above); null when the id is unknown. */
function loadContent(db: Db, actor: Who, contentId: string) {
  const content = cachedByTables(db, CONTENTS, contentId, (): CachedContent | null => {
    const r = preparedQuery(db, "library.content", (base) =>
      base
        .select({ row: libraryContents, authorName: members.displayName })
        .from(libraryContents)
        .leftJoin(profiles, eq(profiles.id, libraryContents.authorProfileId))
        .leftJoin(members, eq(members.id, profiles.memberId))
        .where(eq(libraryContents.id, sql.placeholder("contentId")))
        .prepare(),
    ).get({ contentId });
    return r ? frozen(r) : null;
  });
  if (!content) return null;
  const access = cachedByTables(
    db,
    ACCESS,
    `${actor.memberId} ${actor.profileId} ${contentId}`,
    () =>
      preparedQuery(db, "library.contentAccess", (base) =>
        base
          .select({ canManage: canManageSql(CALLER), visible: visibleContentSql(CALLER) })
          .from(libraryContents)
          .where(eq(libraryContents.id, sql.placeholder("contentId")))
          .prepare(),
      ).get({ profileId: actor.profileId, memberId: actor.memberId, contentId }) ?? null,
  );
  if (!access) return null;
  return {
    access: { ...content.row, authorName: content.authorName, canManage: access.canManage } as ContentAccess,
    visible: access.visible,
  };
}

const typeMatches = (actual: ContentType, type: ContentType | readonly ContentType[] | undefined) =>
  type === undefined || (typeof type === "string" ? actual === type : type.includes(actual));

/**
 * `contentViewer`: the content is visible to the caller and of the route's type (one or several),
 * else 404. Managers pass too.
 */
export function contentForViewer(
  actor: Actor,
  contentId: string,
  type?: ContentType | readonly ContentType[],
  db: Db = actor.db,
): ContentAccess {
  const found = loadContent(db, actor, contentId);
  if (!found?.visible || !typeMatches(found.access.type, type)) throw notFound();
  return found.access;
}

/**
 * `contentManager`: 404 when the content is unknown, invisible or of another type; 403 when the
 * caller sees it but is neither its author nor an ADMIN of the space owning its node.
 */
export function contentForManager(
  actor: Actor,
  contentId: string,
  type?: ContentType | readonly ContentType[],
  db: Db = actor.db,
): ContentAccess {
  const content = contentForViewer(actor, contentId, type, db);
  if (!content.canManage) throw forbidden();
  return content;
}

/** `Content.canManage` for a row loaded elsewhere: the author, or an ADMIN of the content's space. */
export function canManageContent(actor: Actor, content: Pick<ContentRow, "authorProfileId" | "spaceId">, db: Db = actor.db) {
  if (content.authorProfileId === actor.profileId) return true;
  return content.spaceId !== null && spaceRole(db, content.spaceId, actor.memberId) === "ADMIN";
}

export type PopulationMember = { memberId: string; profileId: string };

/**
 * docs/rules/library.md#who-should-answer: the PARTICIPANTs now enrolled in the space owning the
 * content's node; for content outside any space, the members its shares name while it is SHARED
 * (otherwise nobody). Active members only (docs/rules/members.md#deactivation). Each with the member's main profile
 * (attempts and responses carry profileId).
 */
export function contentPopulation(db: Db, content: Pick<ContentRow, "id" | "spaceId" | "visibility">): PopulationMember[] {
  if (content.spaceId !== null) {
    return db
      .select({ memberId: spaceMembers.memberId, profileId: profiles.id })
      .from(spaceMembers)
      .innerJoin(members, and(eq(members.id, spaceMembers.memberId), eq(members.isActive, true)))
      .innerJoin(profiles, and(eq(profiles.memberId, spaceMembers.memberId), eq(profiles.isMain, true)))
      .where(and(eq(spaceMembers.spaceId, content.spaceId), eq(spaceMembers.role, "PARTICIPANT")))
      .all();
  }
  if (content.visibility !== "SHARED") return [];
  return db
    .select({ memberId: libraryContentShares.memberId, profileId: profiles.id })
    .from(libraryContentShares)
    .innerJoin(members, and(eq(members.id, libraryContentShares.memberId), eq(members.isActive, true)))
    .innerJoin(profiles, and(eq(profiles.memberId, libraryContentShares.memberId), eq(profiles.isMain, true)))
    .where(eq(libraryContentShares.contentId, content.id))
    .all();
}

/**
 * Space.contentCount for a page of spaces, in one grouped query: the contents in each space's
 * folders that its participants can see (SHARED or PUBLIC; drafts are not counted).
 */
export function contentCounts(db: Db, spaceIds: string[]): Map<string, number> {
  const out = new Map<string, number>(spaceIds.map((id) => [id, 0]));
  if (spaceIds.length === 0) return out;
  const rows = db
    .select({ spaceId: libraryContents.spaceId, n: count() })
    .from(libraryContents)
    .where(and(inArray(libraryContents.spaceId, spaceIds), inArray(libraryContents.visibility, ["SHARED", "PUBLIC"])))
    .groupBy(libraryContents.spaceId)
    .all();
  for (const r of rows) if (r.spaceId !== null) out.set(r.spaceId, r.n);
  return out;
}

/** Node visibility as SQL over library_nodes: the tenant library to every member, a space's nodes to its enrolled members. */
export function visibleNodeSql(actor: Who): SQL<boolean> {
  const n = libraryNodes;
  return sql<boolean>`(${n.spaceId} IS NULL OR EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${n.spaceId} AND sm.member_id = ${actor.memberId}))`;
}

/** The node if the caller can see it, else null (unknown, other tenant and invisible alike). */
export function findVisibleNode(db: Db, actor: Who, nodeId: string): NodeRow | null {
  return (
    db
      .select()
      .from(libraryNodes)
      .where(and(eq(libraryNodes.id, nodeId), visibleNodeSql(actor)))
      .get() ?? null
  );
}

/**
 * For getFile (docs/rules/files.md#getfile): whether the caller can see a content that attaches the file, as an
 * attachment or as its VIDEO/DOCUMENT file. Two indexed probes.
 */
export function canSeeContentFile(db: Db, actor: Who, fileId: string): boolean {
  const visible = visibleContentSql(actor);
  const asInfo = db
    .select({ id: libraryContents.id })
    .from(libraryContents)
    .where(and(eq(libraryContents.infoFileId, fileId), visible))
    .limit(1)
    .get();
  if (asInfo) return true;
  const asAttachment = db
    .select({ id: libraryContents.id })
    .from(libraryContentFiles)
    .innerJoin(libraryContents, eq(libraryContents.id, libraryContentFiles.contentId))
    .where(and(eq(libraryContentFiles.fileId, fileId), visible))
    .limit(1)
    .get();
  return asAttachment !== undefined;
}

/**
 * downloadFileContent of a URL emitted for `content:<contentId>` (docs/rules/files.md#download-rules): the content still
 * attaches the file (as an attachment or its VIDEO/DOCUMENT file) and the reader can still see it.
 */
export function contentFileDownload(db: Db, contentId: string, fileId: string, reader: Who): DownloadRule {
  const attached = sql`(${libraryContents.infoFileId} = ${fileId} OR EXISTS (SELECT 1 FROM library_content_files f WHERE f.content_id = ${libraryContents.id} AND f.file_id = ${fileId}))`;
  const row = db
    .select({ id: libraryContents.id })
    .from(libraryContents)
    .where(and(eq(libraryContents.id, contentId), attached, visibleContentSql(reader)))
    .get();
  return row ? "ok" : "gone";
}

/** Whether the reader can see the content (the probes of modules whose records hang off a content). */
export function contentVisibleTo(db: Db, contentId: string, reader: Who, type?: ContentType): boolean {
  const row = db
    .select({ type: libraryContents.type })
    .from(libraryContents)
    .where(and(eq(libraryContents.id, contentId), visibleContentSql(reader)))
    .get();
  return row !== undefined && typeMatches(row.type, type);
}

export const GRADABLE_TYPES = ["ASSIGNMENT", "GROUP_ASSIGNMENT", "QUIZ"] as const satisfies readonly ContentType[];
export type GradableType = (typeof GRADABLE_TYPES)[number];

/** The gradebook's columns: a space's assignments, group assignments and quizzes its participants see (not drafts), oldest first. */
export function gradableContents(db: Db, spaceId: string): { id: string; type: GradableType; title: string }[] {
  return participantContents(db, [spaceId], GRADABLE_TYPES);
}

/** The contents of these types that the spaces' participants see (SHARED or PUBLIC: no drafts), oldest first: one query. */
export function participantContents<T extends ContentType>(
  db: Db,
  spaceIds: string[],
  types: readonly T[],
): { id: string; spaceId: string; type: T; title: string }[] {
  if (spaceIds.length === 0) return [];
  return db
    .select({ id: libraryContents.id, spaceId: libraryContents.spaceId, type: libraryContents.type, title: libraryContents.title })
    .from(libraryContents)
    .where(
      and(
        inArray(libraryContents.spaceId, spaceIds),
        inArray(libraryContents.visibility, ["SHARED", "PUBLIC"]),
        inArray(libraryContents.type, types),
      ),
    )
    .orderBy(asc(libraryContents.createdAt), asc(libraryContents.id))
    .all() as { id: string; spaceId: string; type: T; title: string }[];
}
