// Folder nodes: createNode, listNodes, renameNode, moveNode, deleteNode, and the deleteSpace hook.
import { and, asc, count, desc, eq, inArray, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { libraryContents, libraryNodes } from "../../schema/library";
import { requireSpaceAdmin } from "../spaces/access";
import { findVisibleNode, type NodeRow, visibleContentSql, visibleNodeSql } from "./access";
import type { CreateNodeBody, MoveNodeBody, Node } from "./model";
import { rankBetween } from "./rank";

type NodeRecord = Static<typeof Node>;
const n = libraryNodes;

/** Node rows → records; childCount and contentCount come from one grouped query each. */
function toNodes(db: Db, actor: Actor, rows: NodeRow[], all = false): NodeRecord[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // listNodes counts over the whole tree (no IN list of every node); single-node answers use IN.
  const children = db
    .select({ id: n.parentId, k: count() })
    .from(n)
    .where(all ? sql`${n.parentId} IS NOT NULL` : inArray(n.parentId, ids))
    .groupBy(n.parentId)
    .all();
  const contents = db
    .select({ id: libraryContents.nodeId, k: count() })
    .from(libraryContents)
    .where(and(all ? sql`${libraryContents.nodeId} IS NOT NULL` : inArray(libraryContents.nodeId, ids), visibleContentSql(actor)))
    .groupBy(libraryContents.nodeId)
    .all();
  const childCount = new Map(children.map((c) => [c.id, c.k]));
  const contentCount = new Map(contents.map((c) => [c.id, c.k]));
  return rows.map((r) => ({
    id: r.id,
    scope: "LIBRARY" as const,
    spaceId: r.spaceId,
    parentId: r.parentId,
    title: r.title,
    rank: r.rank,
    depth: r.depth,
    childCount: childCount.get(r.id) ?? 0,
    contentCount: contentCount.get(r.id) ?? 0,
  }));
}

const nodeRecord = (db: Db, actor: Actor, row: NodeRow) => toNodes(db, actor, [row])[0] as NodeRecord;

/** A node the caller may change: 404 when invisible; a space's node needs ADMIN of that space (403). */
function nodeForWrite(tx: Db, actor: Actor, nodeId: string): NodeRow {
  const node = findVisibleNode(tx, actor, nodeId);
  if (!node) throw notFound();
  if (node.spaceId !== null) requireSpaceAdmin(actor, node.spaceId, tx);
  return node;
}

/** The siblings under a parent: its children, or the roots of a space (or of the tenant library). */
function siblingsOf(parentId: string | null, spaceId: string | null): SQL {
  if (parentId !== null) return eq(n.parentId, parentId);
  return and(isNull(n.parentId), spaceId === null ? isNull(n.spaceId) : eq(n.spaceId, spaceId)) as SQL;
}

/**
 * The rank for a node placed under (parentId, spaceId) between prevNodeId and nextNodeId, which
 * must be children of that parent (400); neither given = last. `selfId` (a moved node) is not its
 * own neighbour.
 */
function placeRank(
  tx: Db,
  where: { parentId: string | null; spaceId: string | null },
  input: { prevNodeId?: string | null; nextNodeId?: string | null },
  selfId: string | null,
): string {
  const siblings = and(siblingsOf(where.parentId, where.spaceId), selfId ? ne(n.id, selfId) : undefined);
  const sibling = (id: string, field: string) => {
    const row = tx
      .select({ id: n.id, rank: n.rank })
      .from(n)
      .where(and(siblings, eq(n.id, id)))
      .get();
    if (!row) throw invalid(field, "must be a child of the target parent");
    return row;
  };
  const prev = input.prevNodeId ? sibling(input.prevNodeId, "prevNodeId") : null;
  const next = input.nextNodeId ? sibling(input.nextNodeId, "nextNodeId") : null;
  if (prev && next) {
    if (!(prev.rank < next.rank || (prev.rank === next.rank && prev.id < next.id))) {
      throw invalid("nextNodeId", "must sort after prevNodeId");
    }
    return rankBetween(prev.rank, next.rank);
  }
  if (prev) {
    const following = tx
      .select({ rank: n.rank })
      .from(n)
      .where(and(siblings, sql`(${n.rank}, ${n.id}) > (${prev.rank}, ${prev.id})`))
      .orderBy(asc(n.rank), asc(n.id))
      .get();
    return rankBetween(prev.rank, following?.rank ?? null);
  }
  if (next) {
    const preceding = tx
      .select({ rank: n.rank })
      .from(n)
      .where(and(siblings, sql`(${n.rank}, ${n.id}) < (${next.rank}, ${next.id})`))
      .orderBy(desc(n.rank), desc(n.id))
      .get();
    return rankBetween(preceding?.rank ?? null, next.rank);
  }
  const last = tx.select({ rank: n.rank }).from(n).where(siblings).orderBy(desc(n.rank), desc(n.id)).get();
  return rankBetween(last?.rank ?? null, null);
}

/**
 * createNode (docs/rules/library.md#space-folders): `spaceId` is looked up like a path id (404, then 403
 * unless ADMIN); a child takes its parent's space (another spaceId sent: 400) and needs ADMIN of it.
 * Check order (docs/rules/errors.md#check-order) as createPost: the references parentId, prevNodeId and nextNodeId (400, docs/rules/conventions.md#body-references)
 * first, then the space (404, 403).
 */
export function createNode(actor: Actor, input: Static<typeof CreateNodeBody>, now = Date.now()): NodeRecord {
  return write(actor.db, (tx) => {
    let spaceId = input.spaceId ?? null;
    let parent: NodeRow | null = null;
    if (input.parentId != null) {
      parent = findVisibleNode(tx, actor, input.parentId);
      if (!parent) throw invalid("parentId", "must be a folder you can see");
      if (input.spaceId != null && parent.spaceId !== input.spaceId) throw invalid("spaceId", "must be the space of the parent folder");
      spaceId = parent.spaceId;
    }
    const rank = placeRank(tx, { parentId: parent?.id ?? null, spaceId }, input, null);
    if (spaceId !== null) requireSpaceAdmin(actor, spaceId, tx);
    const row = tx
      .insert(n)
      .values({
        id: Bun.randomUUIDv7(),
        spaceId,
        parentId: parent?.id ?? null,
        title: input.title,
        rank,
        depth: parent ? parent.depth + 1 : 0,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    return nodeRecord(tx, actor, row);
  });
}

/**
 * Every node the caller can see: the tenant library first, then each space's folders; within a
 * tree parents come before their children (depth-first), siblings by (rank, id).
 */
export function listNodes(actor: Actor): { nodes: NodeRecord[] } {
  const rows = actor.db.select().from(n).where(visibleNodeSql(actor)).orderBy(asc(n.rank), asc(n.id)).all();
  const byParent = new Map<string | null, NodeRow[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    const key = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    const list = byParent.get(key) ?? [];
    list.push(r);
    byParent.set(key, list);
  }
  const roots = (byParent.get(null) ?? []).sort((a, b) =>
    a.spaceId === b.spaceId ? 0 : a.spaceId === null ? -1 : b.spaceId === null ? 1 : a.spaceId < b.spaceId ? -1 : 1,
  );
  const ordered: NodeRow[] = [];
  const stack = [...roots].reverse();
  while (stack.length) {
    const node = stack.pop() as NodeRow;
    ordered.push(node);
    const kids = byParent.get(node.id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as NodeRow);
  }
  return { nodes: toNodes(actor.db, actor, ordered, true) };
}

export function renameNode(actor: Actor, nodeId: string, title: string, now = Date.now()): NodeRecord {
  return write(actor.db, (tx) => {
    nodeForWrite(tx, actor, nodeId);
    const row = tx.update(n).set({ title, updatedAt: now }).where(eq(n.id, nodeId)).returning().get() as NodeRow;
    return nodeRecord(tx, actor, row);
  });
}

/**
 * moveNode (docs/rules/library.md#moving-folders): `parentId` null = the root of the node's own space (or of the tenant
 * library); absent = the node stays under its parent (a reorder among siblings). The parent must be
 * in the same space and not the node or one of its descendants (400). The subtree's depths shift
 * with the node.
 */
export function moveNode(actor: Actor, nodeId: string, input: Static<typeof MoveNodeBody>, now = Date.now()): NodeRecord {
  return write(actor.db, (tx) => {
    const node = nodeForWrite(tx, actor, nodeId);
    let parent: NodeRow | null = null;
    if (input.parentId === undefined) {
      parent = node.parentId === null ? null : (tx.select().from(n).where(eq(n.id, node.parentId)).get() ?? null);
    } else if (input.parentId !== null) {
      parent = findVisibleNode(tx, actor, input.parentId);
      if (!parent) throw invalid("parentId", "must be a folder you can see");
      if (parent.spaceId !== node.spaceId) throw invalid("parentId", "must be in the same space as the node (a node never changes space)");
      const cycle = tx.get<{ hit: number }>(sql`WITH RECURSIVE up(id, parent_id) AS (
          SELECT id, parent_id FROM library_nodes WHERE id = ${parent.id}
          UNION ALL SELECT p.id, p.parent_id FROM library_nodes p JOIN up ON p.id = up.parent_id
        ) SELECT 1 AS hit FROM up WHERE id = ${node.id} LIMIT 1`);
      if (cycle) throw invalid("parentId", "must not be the node itself or one of its descendants");
    }
    const rank = placeRank(tx, { parentId: parent?.id ?? null, spaceId: node.spaceId }, input, node.id);
    const depth = parent ? parent.depth + 1 : 0;
    const row = tx
      .update(n)
      .set({ parentId: parent?.id ?? null, rank, depth, updatedAt: now })
      .where(eq(n.id, nodeId))
      .returning()
      .get() as NodeRow;
    const shift = depth - node.depth;
    if (shift !== 0) {
      tx.run(sql`WITH RECURSIVE sub(id) AS (
          SELECT id FROM library_nodes WHERE parent_id = ${node.id}
          UNION ALL SELECT c.id FROM library_nodes c JOIN sub ON c.parent_id = sub.id
        ) UPDATE library_nodes SET depth = depth + ${shift} WHERE id IN (SELECT id FROM sub)`);
    }
    return nodeRecord(tx, actor, row);
  });
}

/** deleteNode: a node that still has children or contents is refused with 409 IN_USE. */
export function deleteNode(actor: Actor, nodeId: string): void {
  write(actor.db, (tx) => {
    nodeForWrite(tx, actor, nodeId);
    if (tx.select({ id: n.id }).from(n).where(eq(n.parentId, nodeId)).limit(1).get()) {
      throw conflict("IN_USE", "This folder still has folders in it.");
    }
    if (tx.select({ id: libraryContents.id }).from(libraryContents).where(eq(libraryContents.nodeId, nodeId)).limit(1).get()) {
      throw conflict("IN_USE", "This folder still holds contents.");
    }
    tx.delete(n).where(eq(n.id, nodeId)).run();
  });
}

/**
 * For deleteSpace (docs/rules/library.md#space-folders): the space's folders, with their contents, move to the tenant
 * library; its root folders go after the library's last root, the tree below them is kept. Call
 * inside deleteSpace's transaction, before the space row is deleted.
 */
export function detachSpaceNodes(db: Db, spaceId: string, now = Date.now()): void {
  const roots = db
    .select({ id: n.id })
    .from(n)
    .where(and(eq(n.spaceId, spaceId), isNull(n.parentId)))
    .orderBy(asc(n.rank), asc(n.id))
    .all();
  let rank = db.select({ rank: n.rank }).from(n).where(siblingsOf(null, null)).orderBy(desc(n.rank), desc(n.id)).get()?.rank ?? null;
  for (const root of roots) {
    rank = rankBetween(rank, null);
    db.update(n).set({ rank }).where(eq(n.id, root.id)).run();
  }
  db.update(n).set({ spaceId: null, updatedAt: now }).where(eq(n.spaceId, spaceId)).run();
  db.update(libraryContents).set({ spaceId: null }).where(eq(libraryContents.spaceId, spaceId)).run();
}

/** The node a content is created in: visible (else 400 naming nodeId); a space's node needs ADMIN (403). */
export function nodeForContent(tx: Db, actor: Actor, nodeId: string): NodeRow {
  const node = findVisibleNode(tx, actor, nodeId);
  if (!node) throw invalid("nodeId", "must be a folder you can see");
  if (node.spaceId !== null) requireSpaceAdmin(actor, node.spaceId, tx);
  return node;
}
