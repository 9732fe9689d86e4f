// Copies of library records (docs/rules/next-year.md#copies): a content's row and attachment links,
// and a space's folder tree. What each content type keeps in its own tables is copied by its module.
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { libraryContentFiles, libraryContents, libraryNodes, type StoredInfo } from "../../schema/library";
import type { ContentRow, NodeRow } from "./access";

/** The info a copy starts with: the same files and links; a live session's times cleared. */
const copiedInfo = (info: StoredInfo | null): StoredInfo | null => (info?.kind === "LIVE" ? { ...info, startAt: null, endAt: null } : info);

/**
 * Inserts copies of contents into folders (`nodeOf` gives each source's target folder): PRIVATE drafts
 * authored by the caller, with the same type, description, info and attachments (the same stored
 * files, referenced again). Returns source id → copy id. Three statements whatever the count.
 */
export function copyContentRows(
  tx: Db,
  actor: Pick<Actor, "profileId">,
  sources: ContentRow[],
  nodeOf: (c: ContentRow) => Pick<NodeRow, "id" | "spaceId">,
  title: (c: ContentRow) => string,
  now: number,
): Map<string, string> {
  const ids = new Map(sources.map((c) => [c.id, Bun.randomUUIDv7()]));
  if (sources.length === 0) return ids;
  const rows = sources.map((c, i) => {
    const node = nodeOf(c);
    const info = copiedInfo(c.info);
    return {
      id: ids.get(c.id) as string,
      type: c.type,
      title: title(c),
      description: c.description,
      visibility: "PRIVATE" as const,
      nodeId: node.id,
      spaceId: node.spaceId,
      authorProfileId: actor.profileId,
      info,
      infoFileId: c.infoFileId,
      // one ms apart keeps the sources' order on the (created_at, id) lists
      createdAt: now + i,
      updatedAt: now + i,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    tx.insert(libraryContents)
      .values(rows.slice(i, i + 500))
      .run();
  const files = tx
    .select()
    .from(libraryContentFiles)
    .where(inArray(libraryContentFiles.contentId, [...ids.keys()]))
    .all()
    .map((f) => ({ ...f, contentId: ids.get(f.contentId) as string }));
  for (let i = 0; i < files.length; i += 500)
    tx.insert(libraryContentFiles)
      .values(files.slice(i, i + 500))
      .run();
  return ids;
}

/** A space's folder tree copied into another space, parents first: old node id → new node id. */
export function copySpaceNodes(tx: Db, fromSpaceId: string, toSpaceId: string, now: number): Map<string, NodeRow> {
  const nodes = tx
    .select()
    .from(libraryNodes)
    .where(eq(libraryNodes.spaceId, fromSpaceId))
    .orderBy(asc(libraryNodes.depth), asc(libraryNodes.rank), asc(libraryNodes.id))
    .all();
  const out = new Map<string, NodeRow>();
  for (const n of nodes) {
    const parentId = n.parentId === null ? null : (out.get(n.parentId)?.id ?? null);
    out.set(n.id, { ...n, id: Bun.randomUUIDv7(), spaceId: toSpaceId, parentId, createdAt: now, updatedAt: now });
  }
  const rows = [...out.values()];
  for (let i = 0; i < rows.length; i += 500)
    tx.insert(libraryNodes)
      .values(rows.slice(i, i + 500))
      .run();
  return out;
}

/** The contents in a space's folders, oldest first. */
export function spaceContents(db: Db, spaceId: string): ContentRow[] {
  return db
    .select()
    .from(libraryContents)
    .where(and(eq(libraryContents.spaceId, spaceId), isNotNull(libraryContents.nodeId)))
    .orderBy(asc(libraryContents.createdAt), asc(libraryContents.id))
    .all();
}

/**
 * What a content type's copier gets: the moment, and where a group-set link goes (the set in the
 * copied space, the same set when the copy stays in its space, else null: not linked).
 */
export type CopyContext = { now: number; groupSet: (setId: string) => string | null };
/** A content type's copier: its config rows of `from` become `to`'s, without any learner data. */
export type ConfigCopier = (tx: Db, from: string, to: string, ctx: CopyContext) => void;

type GroupSetLink = { spaceGroupSetId: string | null; spaceGroupSetName: string | null };
/** A copied config's group-set link: the set `ctx` maps a valid link to, else none (a broken link is not carried). */
export function copiedGroupSetLink(cfg: GroupSetLink & { linkInvalidReason: string | null }, ctx: CopyContext) {
  const setId = cfg.spaceGroupSetId && cfg.linkInvalidReason === null ? ctx.groupSet(cfg.spaceGroupSetId) : null;
  return { spaceGroupSetId: setId, spaceGroupSetName: setId ? cfg.spaceGroupSetName : null, linkInvalidReason: null };
}
