import type { Database } from "bun:sqlite";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { commitBatch, joinBatch, noteRollback } from "./group-commit";

/** A Drizzle handle on one SQLite file, or a transaction on it: services take either. */
export type Db = BaseSQLiteDatabase<"sync", void>;

/** The connection under a Drizzle handle made by drizzleOf (write() joins its group commit). */
export const connectionOf = new WeakMap<Db, Database>();

/**
 * Checks run before a write on a connection, registered by whoever opened it (the tenant store): in
 * cluster mode a write to a school this node no longer holds throws (docs/rules/cluster.md#fencing).
 */
export const writeGuards = new WeakMap<Database, () => void>();

/** Runs fn in one IMMEDIATE transaction (a savepoint of the group commit): a request that writes leaves all or nothing. */
export function write<T>(db: Db, fn: (tx: Db) => T): T {
  const sqlite = connectionOf.get(db);
  if (sqlite) {
    writeGuards.get(sqlite)?.();
    joinBatch(sqlite);
  }
  try {
    return db.transaction(
      (tx) => {
        // Prepared queries (db/sqlite.ts preparedQuery) find the connection through the transaction too.
        if (sqlite) connectionOf.set(tx as unknown as Db, sqlite);
        return fn(tx as unknown as Db);
      },
      { behavior: "immediate" },
    );
  } catch (e) {
    if (sqlite) noteRollback(sqlite);
    throw e;
  }
}

/**
 * Runs fn in a savepoint of the caller's write(), as a bulk operation's item: a failure undoes only
 * fn's writes and counts as a rollback on the connection, so a table-guarded cache (db/sqlite.ts)
 * serves nothing loaded while fn's writes were visible (docs/rules/performance.md#caches).
 */
export function savepoint<T>(tx: Db, fn: (sp: Db) => T): T {
  try {
    return tx.transaction((sp) => fn(sp as unknown as Db));
  } catch (e) {
    const sqlite = connectionOf.get(tx);
    if (sqlite) noteRollback(sqlite);
    throw e;
  }
}

/**
 * `column IN (…)` over a list of any length: one bound JSON parameter read with json_each, so a long
 * list never meets SQLite's host-parameter limit.
 */
export function inJsonList(column: SQLWrapper, values: readonly string[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/**
 * Commits this file's open group-commit batch at once: for a protocol whose steps must reach the
 * disk in order across files (sign-up: account and pending marker before the tenant file).
 */
export function commitNow(db: Db): void {
  const sqlite = connectionOf.get(db);
  if (sqlite) commitBatch(sqlite);
}
