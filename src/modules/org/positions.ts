import { asc, count, eq, inArray, max } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound } from "../../platform/http/errors";
import { members } from "../../schema/members";
import { loadMember } from "../members/list";
import { clearPosition, setMemberPosition } from "../members/position";
import type { Position, UpdatePositionBody } from "./model";
import { positionSettings, positions } from "./tables";

type PositionRow = typeof positions.$inferSelect;

export function toPosition(row: PositionRow, memberCount: number): Static<typeof Position> {
  return { id: row.id, name: row.name, order: row.order, memberCount };
}

function positionById(db: Db, id: string): PositionRow {
  const row = db.select().from(positions).where(eq(positions.id, id)).get();
  if (!row) throw notFound();
  return row;
}

/** Holders per position in one grouped query. */
function holderCounts(db: Db, ids: string[]): Map<string, number> {
  if (ids.length === 0) return new Map();
  const rows = db
    .select({ positionId: members.positionId, n: count() })
    .from(members)
    .where(inArray(members.positionId, ids))
    .groupBy(members.positionId)
    .all();
  return new Map(rows.map((r) => [r.positionId as string, r.n]));
}

const record = (db: Db, row: PositionRow) => toPosition(row, holderCounts(db, [row.id]).get(row.id) ?? 0);

/** A new position goes last. */
export function createPosition(db: Db, name: string, now = Date.now()) {
  return write(db, (tx) => {
    const top = tx
      .select({ top: max(positions.order) })
      .from(positions)
      .get()?.top;
    const order = top == null ? 0 : Math.min(top + 1, 9999);
    const row = tx.insert(positions).values({ id: Bun.randomUUIDv7(), name, order, createdAt: now }).returning().get();
    return toPosition(row, 0);
  });
}

export function updatePosition(db: Db, id: string, input: Static<typeof UpdatePositionBody>) {
  return write(db, (tx) => {
    const row = positionById(tx, id);
    const changes = { name: input.name ?? row.name, order: input.order ?? row.order };
    tx.update(positions).set(changes).where(eq(positions.id, id)).run();
    return record(tx, { ...row, ...changes });
  });
}

/** Deletes a position and clears it from its members. */
export function deletePosition(db: Db, id: string) {
  write(db, (tx) => {
    positionById(tx, id);
    clearPosition(tx, id);
    tx.delete(positions).where(eq(positions.id, id)).run();
  });
}

const enabledOf = (db: Db) => db.select({ enabled: positionSettings.enabled }).from(positionSettings).get()?.enabled ?? false;

/** `enabled` (default false) says whether clients show positions; positions are editable either way. */
export function getPositionSettings(db: Db) {
  const rows = db.select().from(positions).orderBy(asc(positions.order), asc(positions.id)).all();
  const counts = holderCounts(
    db,
    rows.map((r) => r.id),
  );
  return { enabled: enabledOf(db), positions: rows.map((r) => toPosition(r, counts.get(r.id) ?? 0)) };
}

export function updatePositionSettings(db: Db, enabled: boolean) {
  db.insert(positionSettings).values({ id: 1, enabled }).onConflictDoUpdate({ target: positionSettings.id, set: { enabled } }).run();
  return { enabled };
}

/** Links a member to one position (null clears): unknown member 404, unknown position 400. Returns the Member. */
export function assignMemberPosition(actor: Actor, memberId: string, positionId: string | null) {
  write(actor.db, (tx) => {
    if (!tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).get()) throw notFound();
    if (positionId !== null && !tx.select({ id: positions.id }).from(positions).where(eq(positions.id, positionId)).get()) {
      throw invalid("positionId", "is not a position of this tenant");
    }
    setMemberPosition(tx, memberId, positionId);
  });
  return loadMember(actor.handle.sqlite, memberId);
}
