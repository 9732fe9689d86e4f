// Own deadlines (extensions) for both assignment kinds: a participant's or a group's dueAt that
// replaces the config's for them (docs/rules/next-year.md#extensions).
import { and, eq, inArray } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { parseTime } from "../../platform/http/schemas";
import type { ContentType } from "../../schema/library";
import { type ContentAccess, contentForManager } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";

/** An extension table: (content_id, <owner>) keys, due_at, updated_at; `type` the content kind it extends. */
export type ExtensionStore = {
  type: ContentType;
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
function putExtension(tx: Db, x: ExtensionStore, contentId: string, ownerId: string, dueAt: string | null | undefined, now: number) {
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

/** Who may have an extension: `check` tells an owner of the content, else 400 naming `field` (a path param). */
export type ExtensionOwner = { field: string; message: string; check: (tx: Db, content: ContentAccess) => boolean };

/**
 * setSubmissionExtension, setGroupSubmissionExtension: in one transaction, manager access to the
 * content, the owner check, the deadline put (null removes it) and the due-soon reminders recomputed
 * (docs/rules/notifications.md#due-soon). Returns the stored deadline.
 */
export function setExtension(
  actor: Actor,
  x: ExtensionStore,
  owner: ExtensionOwner,
  ref: { contentId: string; ownerId: string },
  dueAt: string | null | undefined,
  now: number,
): number | null {
  return write(actor.db, (tx) => {
    const content = contentForManager(actor, ref.contentId, x.type, tx);
    if (!owner.check(tx, content)) throw invalid(owner.field, owner.message, "path");
    const ms = putExtension(tx, x, ref.contentId, ref.ownerId, dueAt, now);
    dueMomentsChanged(tx, actor, ref.contentId, x.type);
    return ms;
  });
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

type OwnerExtension = { contentId: string; ownerId: string; dueAt: number };

/** Every owner's deadline of one content (walks the primary key's content_id prefix). */
export function listExtensions(db: Db, x: ExtensionStore, contentId: string): { ownerId: string; dueAt: number }[] {
  return db.select({ ownerId: x.owner, dueAt: x.dueAt }).from(x.table).where(eq(x.contentId, contentId)).all() as {
    ownerId: string;
    dueAt: number;
  }[];
}

/** The owners' deadlines of one content by owner id (one query, what the due-soon sources read). */
export const extensionsByOwner = (db: Db, x: ExtensionStore, contentId: string) =>
  new Map(listExtensions(db, x, contentId).map((e) => [e.ownerId, e.dueAt]));

/** The extensions these owners have on these contents: one query for any number of either. */
export function extensionsOf(db: Db, x: ExtensionStore, contentIds: string[], ownerIds: string[]): OwnerExtension[] {
  if (contentIds.length === 0 || ownerIds.length === 0) return [];
  return db
    .select({ contentId: x.contentId, ownerId: x.owner, dueAt: x.dueAt })
    .from(x.table)
    .where(and(inArray(x.contentId, contentIds), inArray(x.owner, ownerIds)))
    .all() as OwnerExtension[];
}
