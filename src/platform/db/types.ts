import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";

/** A Drizzle handle on one SQLite file, or a transaction on it: services take either. */
export type Db = BaseSQLiteDatabase<"sync", void>;

/** Runs fn in one IMMEDIATE transaction: a request that writes leaves all or nothing. */
export function write<T>(db: Db, fn: (tx: Db) => T): T {
  return db.transaction((tx) => fn(tx as unknown as Db), { behavior: "immediate" });
}
