// Own deadlines (extensions) for both assignment kinds: a participant's or a group's dueAt that
// replaces the config's for them (docs/rules/next-year.md#extensions).
import { and, eq } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../platform/db/types";
import { parseTime } from "../../platform/http/schemas";

/** An extension table: (content_id, <owner>) keys, due_at, updated_at. */
export type ExtensionStore = {
  table: any;
  contentId: AnySQLiteColumn;
  owner: AnySQLiteColumn;
  ownerKey: string;
  dueAt: AnySQLiteColumn;
};

/**
 * Sets (or with null removes) one owner's deadline. Revisions already submitted keep their
 * dueAtAtSubmit and isLate: an extension speaks for submits to come (docs/rules/next-year.md#extensions).
 */
export function putExtension(tx: Db, x: ExtensionStore, contentId: string, ownerId: string, dueAt: string | null | undefined, now: number) {
  const where = and(eq(x.contentId, contentId), eq(x.owner, ownerId));
  if (dueAt == null) {
    tx.delete(x.table).where(where).run();
    return null;
  }
  const ms = parseTime(dueAt);
  tx.insert(x.table)
    .values({ contentId, [x.ownerKey]: ownerId, dueAt: ms, updatedAt: now })
    .onConflictDoUpdate({ target: [x.contentId, x.owner], set: { dueAt: ms, updatedAt: now } })
    .run();
  return ms;
}

/** The deadline of one owner: their extension, else the config's dueAt. */
export function deadlineFor(db: Db, x: ExtensionStore, contentId: string, ownerId: string, configDueAt: number | null): number | null {
  const row = db
    .select({ dueAt: x.dueAt })
    .from(x.table)
    .where(and(eq(x.contentId, contentId), eq(x.owner, ownerId)))
    .get() as { dueAt: number } | undefined;
  return row?.dueAt ?? configDueAt;
}

/** Every owner's deadline of one content (walks the primary key's content_id prefix). */
export function listExtensions(db: Db, x: ExtensionStore, contentId: string): { ownerId: string; dueAt: number }[] {
  return db.select({ ownerId: x.owner, dueAt: x.dueAt }).from(x.table).where(eq(x.contentId, contentId)).all() as {
    ownerId: string;
    dueAt: number;
  }[];
}
