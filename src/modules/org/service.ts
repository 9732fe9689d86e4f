import { and, asc, count, eq, inArray, isNull, max, sql } from "drizzle-orm";
import type { Static } from "elysia";
import { type Db, write } from "../../platform/db/types";
import type { Cursors } from "../../platform/http/cursor";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { members } from "../../schema/members";
import { requireMemberIds } from "../groups/lookup";
import type { CreateOrgUnitBody, OrgMemberPage, OrgUnit, UpdateOrgUnitBody } from "./model";
import { orgUnitMembers, orgUnits } from "./tables";

type UnitRow = typeof orgUnits.$inferSelect;
type UnitWithLeader = UnitRow & { leaderName: string | null };

const MEMBERS_OP = "listOrgUnitMembers";
const FIRST_PAGE = 30;

export function toOrgUnit(row: UnitWithLeader, memberCount: number): Static<typeof OrgUnit> {
  return {
    id: row.id,
    parentId: row.parentId,
    name: row.name,
    order: row.order,
    leaderUserId: row.leaderMemberId,
    leaderName: row.leaderName,
    memberCount,
  };
}

/** Units with their leader's display name, `where` applied, siblings by order. */
function selectUnits(db: Db, where?: ReturnType<typeof eq>): UnitWithLeader[] {
  const rows = db
    .select({ unit: orgUnits, leaderName: members.displayName })
    .from(orgUnits)
    .leftJoin(members, eq(members.id, orgUnits.leaderMemberId))
    .where(where)
    .orderBy(asc(orgUnits.order), asc(orgUnits.id))
    .all();
  return rows.map((r) => ({ ...r.unit, leaderName: r.leaderName }));
}

function unitById(db: Db, id: string): UnitRow {
  const row = db.select().from(orgUnits).where(eq(orgUnits.id, id)).get();
  if (!row) throw notFound();
  return row;
}

/** Member counts per unit in one grouped query (all units, or the listed ones). */
function memberCounts(db: Db, ids?: string[]): Map<string, number> {
  const rows = db
    .select({ unitId: orgUnitMembers.unitId, n: count() })
    .from(orgUnitMembers)
    .where(ids ? inArray(orgUnitMembers.unitId, ids) : undefined)
    .groupBy(orgUnitMembers.unitId)
    .all();
  return new Map(rows.map((r) => [r.unitId, r.n]));
}

function unitRecord(db: Db, id: string) {
  const [row] = selectUnits(db, eq(orgUnits.id, id));
  if (!row) throw notFound();
  return toOrgUnit(row, memberCounts(db, [id]).get(id) ?? 0);
}

const isUnitMember = (db: Db, unitId: string, memberId: string) =>
  db
    .select({ id: orgUnitMembers.memberId })
    .from(orgUnitMembers)
    .where(and(eq(orgUnitMembers.unitId, unitId), eq(orgUnitMembers.memberId, memberId)))
    .get() !== undefined;

/** A new unit goes after its siblings. */
function nextOrder(db: Db, parentId: string | null): number {
  const top = db
    .select({ top: max(orgUnits.order) })
    .from(orgUnits)
    .where(parentId === null ? isNull(orgUnits.parentId) : eq(orgUnits.parentId, parentId))
    .get()?.top;
  return top == null ? 0 : Math.min(top + 1, Number.MAX_SAFE_INTEGER);
}

/** True when `ancestorId` is `id` itself or above it in the tree (one recursive query). */
function isSelfOrAncestor(db: Db, ancestorId: string, id: string): boolean {
  const hit = db.all(sql`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT id, parent_id FROM org_units WHERE id = ${id}
      UNION ALL SELECT o.id, o.parent_id FROM org_units o JOIN up ON o.id = up.parent_id
    ) SELECT id FROM up WHERE id = ${ancestorId} LIMIT 1`);
  return hit.length > 0;
}

export function createOrgUnit(db: Db, input: Static<typeof CreateOrgUnitBody>, now = Date.now()) {
  return write(db, (tx) => {
    const parentId = input.parentId ?? null;
    if (parentId !== null && !tx.select({ id: orgUnits.id }).from(orgUnits).where(eq(orgUnits.id, parentId)).get()) {
      throw invalid("parentId", "is not an organization unit of this tenant");
    }
    const row = tx
      .insert(orgUnits)
      .values({ id: Bun.randomUUIDv7(), parentId, name: input.name, order: nextOrder(tx, parentId), createdAt: now })
      .returning()
      .get();
    return toOrgUnit({ ...row, leaderName: null }, 0);
  });
}

/**
 * `parentId` may not be the unit or one of its descendants (400). The leader must be a member of
 * the unit (add them first), so that removing the leader from the unit can clear it.
 */
export function updateOrgUnit(db: Db, id: string, input: Static<typeof UpdateOrgUnitBody>) {
  return write(db, (tx) => {
    const row = unitById(tx, id);
    const parentId = input.parentId === undefined ? row.parentId : input.parentId;
    if (input.parentId) {
      if (!tx.select({ id: orgUnits.id }).from(orgUnits).where(eq(orgUnits.id, input.parentId)).get()) {
        throw invalid("parentId", "is not an organization unit of this tenant");
      }
      if (isSelfOrAncestor(tx, id, input.parentId)) throw invalid("parentId", "would make the unit its own ancestor");
    }
    if (input.leaderUserId && !isUnitMember(tx, id, input.leaderUserId)) {
      throw invalid("leaderUserId", "must be a member of this unit");
    }
    tx.update(orgUnits)
      .set({
        name: input.name ?? row.name,
        parentId,
        order: input.order ?? row.order,
        leaderMemberId: input.leaderUserId === undefined ? row.leaderMemberId : input.leaderUserId,
      })
      .where(eq(orgUnits.id, id))
      .run();
    return unitRecord(tx, id);
  });
}

/** Flat list: parents before children (depth first), siblings by order. */
export function listOrgUnits(db: Db) {
  const rows = selectUnits(db);
  const counts = memberCounts(db);
  const children = new Map<string | null, UnitWithLeader[]>();
  for (const r of rows) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r]);
  const out: Static<typeof OrgUnit>[] = [];
  const visit = (parentId: string | null) => {
    for (const r of children.get(parentId) ?? []) {
      out.push(toOrgUnit(r, counts.get(r.id) ?? 0));
      visit(r.id);
    }
  };
  visit(null);
  return { orgUnits: out };
}

/** Refused with 409 IN_USE while the unit has child units; its members are unlinked. */
export function deleteOrgUnit(db: Db, id: string) {
  write(db, (tx) => {
    unitById(tx, id);
    if (tx.select({ id: orgUnits.id }).from(orgUnits).where(eq(orgUnits.parentId, id)).get()) {
      throw conflict("IN_USE", "The unit has child units.");
    }
    tx.delete(orgUnitMembers).where(eq(orgUnitMembers.unitId, id)).run();
    tx.delete(orgUnits).where(eq(orgUnits.id, id)).run();
  });
}

/** One page of a unit's members by (displayName, id); the cursor is bound to the unit. */
function membersPage(db: Db, cursors: Cursors, unitId: string, after: [string, string] | null, limit: number) {
  const rows = db
    .select({ id: members.id, userId: members.userId, displayName: members.displayName, email: members.email })
    .from(orgUnitMembers)
    .innerJoin(members, eq(members.id, orgUnitMembers.memberId))
    .where(
      and(eq(orgUnitMembers.unitId, unitId), after ? sql`(${members.displayName}, ${members.id}) > (${after[0]}, ${after[1]})` : undefined),
    )
    .orderBy(asc(members.displayName), asc(members.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? cursors.encode(MEMBERS_OP, { orgUnitId: unitId }, [last.displayName, last.id]) : null;
  return { members: page, nextCursor } satisfies Static<typeof OrgMemberPage>;
}

export function listOrgUnitMembers(db: Db, cursors: Cursors, unitId: string, query: { cursor?: string; limit?: number }) {
  const after = cursors.decode<unknown>(MEMBERS_OP, { orgUnitId: unitId }, query.cursor);
  if (after !== null && !(Array.isArray(after) && after.length === 2 && after.every((v) => typeof v === "string"))) {
    throw invalid("cursor", "is not a valid cursor for this list", "query");
  }
  unitById(db, unitId);
  return membersPage(db, cursors, unitId, after as [string, string] | null, query.limit ?? FIRST_PAGE);
}

/** Adds members (present ones unchanged); the result is the unit's first page of members. */
export function addOrgUnitMembers(db: Db, cursors: Cursors, unitId: string, userIds: string[], now = Date.now()) {
  return write(db, (tx) => {
    unitById(tx, unitId);
    const ids = requireMemberIds(tx, userIds);
    if (ids.length > 0) {
      tx.insert(orgUnitMembers)
        .values(ids.map((memberId) => ({ unitId, memberId, createdAt: now })))
        .onConflictDoNothing()
        .run();
    }
    return membersPage(tx, cursors, unitId, null, FIRST_PAGE);
  });
}

/** Puts one member in the given units in the caller's transaction; an unknown unit is 400 naming `field[i]`. */
export function joinOrgUnits(tx: Db, memberId: string, unitIds: string[], now: number, field = "orgUnitIds") {
  if (unitIds.length === 0) return;
  const known = new Set(
    tx
      .select({ id: orgUnits.id })
      .from(orgUnits)
      .where(inArray(orgUnits.id, unitIds))
      .all()
      .map((r) => r.id),
  );
  const i = unitIds.findIndex((id) => !known.has(id));
  if (i >= 0) throw invalid(`${field}[${i}]`, "does not name an org unit");
  tx.insert(orgUnitMembers)
    .values([...new Set(unitIds)].map((unitId) => ({ unitId, memberId, createdAt: now })))
    .onConflictDoNothing()
    .run();
}

/** Non-member: 404. Removing the leader clears the unit's leader. */
export function removeOrgUnitMember(db: Db, unitId: string, memberId: string) {
  write(db, (tx) => {
    const unit = unitById(tx, unitId);
    const gone = tx
      .delete(orgUnitMembers)
      .where(and(eq(orgUnitMembers.unitId, unitId), eq(orgUnitMembers.memberId, memberId)))
      .returning({ id: orgUnitMembers.memberId })
      .all();
    if (gone.length === 0) throw notFound("This member is not in the unit.");
    if (unit.leaderMemberId === memberId) tx.update(orgUnits).set({ leaderMemberId: null }).where(eq(orgUnits.id, unitId)).run();
  });
}
