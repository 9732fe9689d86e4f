import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Static } from "elysia";
import { requirePermissionsHeld } from "../../platform/access";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { notFound } from "../../platform/http/errors";
import { isoRequired, pageOf } from "../../platform/http/schemas";
import { groupMembers, groups } from "../../schema/groups";
import { members } from "../../schema/members";
import { codesGrantedTo, forgetGrantSubject } from "../grants/subjects";
import { contains, requireMemberIds } from "./lookup";
import type { CreateGroupBody, Group, GroupMemberItem, ListGroupsQuery, PlainGroup, UpdateGroupBody } from "./model";

/** `grant` groups are grant subjects (/groups); `plain` groups are simple member lists (/plain-groups). */
export type GroupKind = "grant" | "plain";
type GroupRow = typeof groups.$inferSelect;
type MemberItem = Static<typeof GroupMemberItem>;

export function toGroup(row: GroupRow, memberCount: number): Static<typeof Group> {
  return { id: row.id, name: row.name, description: row.description, memberCount, createdAt: isoRequired(row.createdAt) };
}

export function toPlainGroup(row: GroupRow, memberCount: number): Static<typeof PlainGroup> {
  return { id: row.id, name: row.name, description: row.description, memberCount };
}

type RecordOf<K extends GroupKind> = K extends "grant" ? Static<typeof Group> : Static<typeof PlainGroup>;
type DetailOf<K extends GroupKind> = RecordOf<K> & { members: MemberItem[] };

const toRecord = <K extends GroupKind>(kind: K, row: GroupRow, memberCount: number) =>
  (kind === "grant" ? toGroup(row, memberCount) : toPlainGroup(row, memberCount)) as RecordOf<K>;

/** A group of this kind, else 404: a plain group is not found under /groups and vice versa. */
export function groupById(db: Db, kind: GroupKind, id: string): GroupRow {
  const row = db
    .select()
    .from(groups)
    .where(and(eq(groups.id, id), eq(groups.kind, kind)))
    .get();
  if (!row) throw notFound();
  return row;
}

function membersOf(db: Db, groupId: string): MemberItem[] {
  return db
    .select({ id: members.id, userId: members.userId, displayName: members.displayName, email: members.email })
    .from(groupMembers)
    .innerJoin(members, eq(members.id, groupMembers.memberId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(members.displayName), asc(members.id))
    .all();
}

function detail<K extends GroupKind>(db: Db, kind: K, row: GroupRow): DetailOf<K> {
  const list = membersOf(db, row.id);
  return { ...toRecord(kind, row, list.length), members: list };
}

/** Member counts of many groups in one grouped query. */
function memberCounts(db: Db, ids: string[]): Map<string, number> {
  if (ids.length === 0) return new Map();
  const rows = db
    .select({ groupId: groupMembers.groupId, n: count() })
    .from(groupMembers)
    .where(inArray(groupMembers.groupId, ids))
    .groupBy(groupMembers.groupId)
    .all();
  return new Map(rows.map((r) => [r.groupId, r.n]));
}

export function createGroup<K extends GroupKind>(db: Db, kind: K, input: Static<typeof CreateGroupBody>, now = Date.now()) {
  const row = db
    .insert(groups)
    .values({ id: Bun.randomUUIDv7(), kind, name: input.name, description: input.description ?? null, createdAt: now })
    .returning()
    .get();
  return toRecord(kind, row, 0);
}

export function getGroup<K extends GroupKind>(db: Db, kind: K, id: string) {
  return detail(db, kind, groupById(db, kind, id));
}

export function updateGroup<K extends GroupKind>(db: Db, kind: K, id: string, input: Static<typeof UpdateGroupBody>) {
  return write(db, (tx) => {
    const row = groupById(tx, kind, id);
    const changes = {
      name: input.name ?? row.name,
      description: input.description === undefined ? row.description : input.description,
    };
    tx.update(groups).set(changes).where(eq(groups.id, id)).run();
    return detail(tx, kind, { ...row, ...changes });
  });
}

/**
 * Adds members; ones already in the group are unchanged. Joining a group hands out its grants, so
 * the caller must hold every code granted to the group itself (403), as for role assignment.
 */
export function addGroupMembers<K extends GroupKind>(actor: Actor, kind: K, id: string, userIds: string[], now = Date.now()) {
  return write(actor.db, (tx) => {
    const row = groupById(tx, kind, id);
    requirePermissionsHeld(actor, codesGrantedTo(tx, "GROUP", id));
    const ids = requireMemberIds(tx, userIds);
    if (ids.length > 0) {
      tx.insert(groupMembers)
        .values(ids.map((memberId) => ({ groupId: id, memberId, createdAt: now })))
        .onConflictDoNothing()
        .run();
    }
    return detail(tx, kind, row);
  });
}

export function removeGroupMember<K extends GroupKind>(db: Db, kind: K, id: string, memberId: string) {
  return write(db, (tx) => {
    const row = groupById(tx, kind, id);
    const gone = tx
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, id), eq(groupMembers.memberId, memberId)))
      .returning({ memberId: groupMembers.memberId })
      .all();
    if (gone.length === 0) throw notFound("This member is not in the group.");
    return detail(tx, kind, row);
  });
}

/** Page of groups of one kind, by name; `search` is a name substring. */
export function listGroups<K extends GroupKind>(db: Db, kind: K, query: Static<typeof ListGroupsQuery>) {
  const where = and(eq(groups.kind, kind), query.search ? contains(groups.name, query.search) : undefined);
  const total = db.select({ n: count() }).from(groups).where(where).get()?.n ?? 0;
  const page = pageOf(total, query.page, query.pageSize);
  const rows = db
    .select()
    .from(groups)
    .where(where)
    .orderBy(asc(groups.name), asc(groups.id))
    .limit(page.pageSize)
    .offset(page.offset)
    .all();
  const counts = memberCounts(
    db,
    rows.map((r) => r.id),
  );
  const items = rows.map((r) => toRecord(kind, r, counts.get(r.id) ?? 0));
  return { items, total: page.total, page: page.page, pageSize: page.pageSize, totalPages: page.totalPages };
}

/** Deletes a group with its memberships and, for a grant group, its grant subjects. */
export function deleteGroup<K extends GroupKind>(db: Db, kind: K, id: string) {
  write(db, (tx) => {
    groupById(tx, kind, id);
    if (kind === "grant") forgetGrantSubject(tx, "GROUP", id);
    tx.delete(groupMembers).where(eq(groupMembers.groupId, id)).run();
    tx.delete(groups).where(eq(groups.id, id)).run();
  });
}
