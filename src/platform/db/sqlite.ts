import { constants, Database, type Statement } from "bun:sqlite";
import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { commitBatch, noteRollback, releaseWal, rollbackCount } from "./group-commit";
import { syncDirectorySync } from "./sync-directory";
import { connectionOf, type Db } from "./types";

/**
 * SQLite's automatic checkpoint for a connection of `serve`: off (0) when Litestream replicates the
 * files, which then checkpoints them itself (docs/rules/replication.md#checkpoints); else SQLite's
 * default (undefined: left as it is) or the `pages` a caller asks for.
 */
export function walAutocheckpoint(replicated: boolean, pages?: number): number | undefined {
  return replicated ? 0 : pages;
}

/** The page size of every learnspace file (see openSqlite). */
export const PAGE_SIZE = 2048;

/**
 * The bytes of a new file that `build` fills in an in-memory database (migrations, statistics), marked
 * WAL in its header as the WAL switch would mark it; `writeNewFile` writes them.
 */
export function newFileImage(build: (sqlite: Database) => void): Uint8Array {
  const memory = new Database(":memory:");
  let image: Uint8Array;
  try {
    memory.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    build(memory);
    image = memory.serialize();
  } finally {
    memory.close();
  }
  // The file format's write and read versions (header offsets 18 and 19): 2 is WAL.
  image[18] = 2;
  image[19] = 2;
  return image;
}

/**
 * Writes a new file whole from its `image` (`newFileImage`): one write and one fsync of the file, then
 * one of its directory, where creating it through openSqlite costs nine fsyncs at `synchronous = FULL`
 * (the WAL switch, then every transaction), 13–40 ms of a cold start on a busy disk
 * (docs/rules/performance.md#start). It is written beside the file, then linked to its name, which fails
 * if the file exists by then (another process made it first: its file stands, this one is dropped), so
 * no reader ever sees a half-written file. Returns whether this call made the file.
 */
export function writeNewFile(path: string, image: Uint8Array): boolean {
  const partial = `${path}.${process.pid}.new`;
  const fd = openSync(partial, "wx", 0o644);
  try {
    writeSync(fd, image);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  let made = true;
  try {
    linkSync(partial, path);
  } catch (e) {
    if ((e as { code?: string }).code !== "EEXIST") throw e;
    made = false;
  } finally {
    unlinkSync(partial);
  }
  if (made) syncDirectorySync(dirname(path));
  return made;
}

/**
 * Opens a SQLite file with the pragmas every learnspace file uses; a tenant file's caches follow the
 * memory budget; `autocheckpoint` (frames, 0 = off) from `walAutocheckpoint`.
 */
export function openSqlite(path: string, memory?: { cacheKiB: number }, autocheckpoint?: number): Database {
  const sqlite = new Database(path, { create: true, strict: true });
  // First: every later pragma (journal_mode reads the file) waits for a busy lock instead of failing at once.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  // No mmap_size: its mapped pages count in RSS (+55 MiB at 1,000 tenants, bench/tenants.ts).
  if (memory) sqlite.exec(`PRAGMA cache_size = -${memory.cacheKiB}`);
  // 2 KiB pages halve an empty tenant file (~250 tables and indexes, a page each: 1 MiB → 540 KiB) at no
  // measured read cost; SQLite applies it to a new file only (an existing one keeps its size until VACUUM).
  sqlite.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  sqlite.exec("PRAGMA journal_mode = WAL");
  // FULL: an acknowledged write survives power loss, even in WAL mode.
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  if (autocheckpoint !== undefined) sqlite.exec(`PRAGMA wal_autocheckpoint = ${autocheckpoint}`);
  // Off means Litestream replicates the file (walAutocheckpoint): the WAL stays when the last connection
  // closes, as Litestream's own connections keep it, so a restarted Litestream goes on from its shadow
  // WAL instead of a new generation (docs/rules/replication.md#persistent-wal).
  if (autocheckpoint === 0) sqlite.fileControl(constants.SQLITE_FCNTL_PERSIST_WAL, 1);
  return sqlite;
}

/**
 * Query-planner statistics, as SQLite advises for long-lived connections: bounded work once the file
 * is migrated (tables never analysed or much changed); refreshed again by closeSqlite. Used for the
 * platform file only: on a tenant file it doubles the memory of each open handle (~325 → ~650 KiB),
 * so tenant files get their statistics when their handle closes.
 */
export function optimizeOnOpen(sqlite: Database) {
  sqlite.exec("PRAGMA analysis_limit = 400");
  sqlite.exec("PRAGMA optimize = 0x10002");
}

/** The compiled statements drizzleOf keeps per connection, finalized when it closes. */
const statementsOf = new WeakMap<Database, Map<string, Statement>>();

/**
 * Closes a connection after refreshing the planner's statistics (PRAGMA optimize) and checkpointing
 * its WAL (PASSIVE: never waits for a reader, docs/rules/replication.md#checkpoints). Its statements
 * are finalized first: a connection with live statements closes only when the garbage collector
 * gets to them, holding its schema and page cache until then (RSS grew with every reopened tenant).
 * `optimize: false` for a connection that wrote nothing (docs/rules/performance.md#reopen): it changed
 * no row count, so the statistics stay as the last writer's close left them.
 */
export function closeSqlite(sqlite: Database, { optimize = true }: { optimize?: boolean } = {}) {
  commitBatch(sqlite);
  try {
    if (optimize) sqlite.exec("PRAGMA optimize");
  } catch {
    // A statistics refresh never blocks a close (e.g. a busy file during shutdown).
  }
  try {
    // PASSIVE copies what no reader still needs and returns at once: TRUNCATE waited busy_timeout (5 s)
    // for Litestream's read lock. The last connection's close then checkpoints and removes the WAL
    // when no other process reads it, so a stopped server without replication still leaves whole files.
    sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // A checkpoint never blocks a close.
  }
  closeNow(sqlite);
}

/**
 * Closes a connection without a checkpoint, its statements finalized first: with live statements a
 * closed connection lingers, holding its file, until the garbage collector gets to them.
 */
export function closeNow(sqlite: Database) {
  for (const stmt of statementsOf.get(sqlite)?.values() ?? []) stmt.finalize();
  // A prepared query's statement is its own, outside the LRU above.
  for (const query of preparedOf.get(sqlite)?.values() ?? []) (query as { stmt?: Statement }).stmt?.finalize();
  preparedOf.delete(sqlite);
  sqlite.close();
  releaseWal(sqlite);
}

/** Drizzle prepared queries (`.prepare()`) of a connection, by name (see preparedQuery). */
const preparedOf = new WeakMap<Database, Map<string, unknown>>();
/** The Drizzle handle drizzleOf made for a connection: prepared queries are built on it, never on a transaction. */
const baseOf = new WeakMap<Database, Db>();

/**
 * A Drizzle prepared query built once per connection and reused by every request, inside a write()
 * or not (docs/rules/performance.md#prepared-queries): Drizzle builds a query's SQL text on every
 * call otherwise, which cost ~20 % of the server in an exam start. `build` gets the connection's
 * handle and returns `….prepare()` with `sql.placeholder`s for the values. A Db of no known
 * connection gets a query built for this call alone.
 */
export function preparedQuery<T>(db: Db, name: string, build: (db: Db) => T): T {
  const sqlite = connectionOf.get(db);
  const base = sqlite && baseOf.get(sqlite);
  if (!sqlite || !base) return build(db);
  let queries = preparedOf.get(sqlite);
  if (!queries) {
    queries = new Map();
    preparedOf.set(sqlite, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    // Its statement stays outside drizzleOf's LRU (which finalizes what it drops): the query holds it.
    pinning = true;
    try {
      query = build(base);
    } finally {
      pinning = false;
    }
    queries.set(name, query);
  }
  return query;
}

/** Set while preparedQuery builds a query: the statement it compiles belongs to that query, not to the LRU. */
let pinning = false;

/**
 * The rows changed through a connection, counted by SQLite's update hook (docs/rules/performance.md#caches):
 * `all` for every table, and one counter per table a cache guards. A guard is then a few property reads
 * per lookup, not a statement. The hook reports every inserted, updated and deleted row of a rowid table
 * (a foreign key's cascade and a trigger's rows too), and a change rolled back later has been counted.
 * It does not report a `DELETE` without `WHERE` on a table without triggers (SQLite empties the table
 * in one step) or a `WITHOUT ROWID` table: the schema has none, and no code deletes a guarded table whole.
 */
type Changes = { all: number; tables: Map<string, { n: number }> };
const changesOf = new WeakMap<Database, Changes>();

function changeCounts(sqlite: Database): Changes {
  let changes = changesOf.get(sqlite);
  if (!changes) {
    const counted: Changes = { all: 0, tables: new Map() };
    const hook = (_db: Database, table: string) => {
      counted.all++;
      const cell = counted.tables.get(table);
      if (cell !== undefined) cell.n++;
    };
    sqlite.onInsert = hook;
    sqlite.onUpdate = hook;
    sqlite.onDelete = hook;
    changesOf.set(sqlite, counted);
    changes = counted;
  }
  return changes;
}

/** The counter of one table's changed rows on a connection, shared by every cache that guards it. */
function tableCounter(changes: Changes, table: string): { n: number } {
  let cell = changes.tables.get(table);
  if (!cell) {
    cell = { n: 0 };
    changes.tables.set(table, cell);
  }
  return cell;
}

/**
 * A read cache that stays exact while every write to the file goes through this one connection (the
 * server's own): an entry is valid until a row of the file changes through it, or a rollback on it is
 * noted. Bounded: the least recently used entry goes at `max`.
 */
export function changeGuardedCache<V>(sqlite: Database, max = 1000) {
  const changes = changeCounts(sqlite);
  const lookup = stampedEntries<V>(max);
  // Both counts only grow and every change or rollback moves one of them: their sum is a stamp.
  return (key: string, load: () => V): V => lookup(key, changes.all + rollbackCount(sqlite), load);
}

/**
 * A bounded map of values stamped when loaded: an entry serves while its stamp is current. At `max`
 * entries the least recently used goes first, by second chance (docs/rules/performance.md#caches): a hit
 * only marks its entry used (one Map lookup; moving it to the end was a delete and an insert on every
 * request's session and actor lookup), and the eviction moves the used entries it meets at the front to
 * the end, unmarked, before it drops the first unused one. An exam's 5,000 students cycle through the
 * actor cache, which a clear at the bound emptied for everyone.
 */
function stampedEntries<V>(max: number) {
  const entries = new Map<string, { at: number; value: V; used: boolean }>();
  const evictOne = () => {
    for (const [key, entry] of entries) {
      entries.delete(key);
      if (!entry.used) return;
      // Used since it last reached the front: a second chance at the end (a Map iterates in insertion order).
      entry.used = false;
      entries.set(key, entry);
    }
  };
  return (key: string, at: number, load: () => V): V => {
    const hit = entries.get(key);
    if (hit && hit.at === at) {
      hit.used = true;
      return hit.value;
    }
    const value = load();
    if (hit) {
      hit.at = at;
      hit.value = value;
      hit.used = true;
      return value;
    }
    if (entries.size >= max) evictOne();
    entries.set(key, { at, value, used: false });
    return value;
  };
}

/**
 * A read cache that stays exact while every write to the file goes through this one connection (the
 * server's own), invalidated only by writes to `tables` (docs/rules/performance.md#caches): the
 * connection's update hook counts the changed rows of each table, and an entry is valid while the
 * counts of its tables and the connection's rollback count are unchanged. A rollback is noted by
 * write(), savepoint(), the group commit and drizzleOf (a Drizzle transaction or savepoint undone):
 * a value loaded while the undone rows were visible is not served after it. Caches from the first
 * lookup, inside a transaction too (an exam's steps all look up inside their write()). Bounded: the
 * least recently used entry goes at `max`.
 */
export function tableGuardedCache<V>(sqlite: Database, tables: readonly string[], max = 1000) {
  const changes = changeCounts(sqlite);
  const counters = [...new Set(tables)].map((table) => tableCounter(changes, table));
  const lookup = stampedEntries<V>(max);
  return (key: string, load: () => V): V => {
    let at = rollbackCount(sqlite);
    for (const c of counters) at += c.n;
    return lookup(key, at, load);
  };
}

/** The tableGuardedCaches of a connection by name (see cachedByTables). */
const guardedOf = new WeakMap<Database, Map<string, (key: string, load: () => unknown) => unknown>>();

/**
 * `load()` through the tableGuardedCache `name` of the connection under `db` (made on first use, a
 * transaction's Db included): for services that get a Db rather than the tenant handle. A Db of no
 * known connection loads every time. The value is shared by every later caller: never mutate it.
 */
export function cachedByTables<V>(db: Db, cache: { name: string; tables: readonly string[]; max?: number }, key: string, load: () => V): V {
  const sqlite = connectionOf.get(db);
  if (!sqlite) return load();
  let caches = guardedOf.get(sqlite);
  if (!caches) {
    caches = new Map();
    guardedOf.set(sqlite, caches);
  }
  let lookup = caches.get(cache.name);
  if (!lookup) {
    lookup = tableGuardedCache<unknown>(sqlite, cache.tables, cache.max);
    caches.set(cache.name, lookup);
  }
  return lookup(key, load) as V;
}

const frozenThrough = new WeakSet<object>();

/** A value frozen through and through: what a cache hands every later caller (cachedByTables). */
export function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
    frozenThrough.add(value);
  }
  return value;
}

/**
 * Whether `frozen` froze this object (and so everything in it): it can never change. `Object.isExtensible`
 * first: most values answered are extensible, and it is cheaper than the set's lookup; `Object.isFrozen`
 * of a frozen object visits each of its properties (~1.5 % of a tenant read's samples, three calls a read).
 */
export const isFrozenThrough = (value: object) => !Object.isExtensible(value) && frozenThrough.has(value);

/**
 * The Drizzle handle of a connection, with compiled statements reused: Drizzle's bun-sqlite session
 * compiles every query it runs (`prepare`), which costs more than running it. The same SQL text gets
 * the same statement from a bounded LRU (statements are bound per call and run synchronously, so
 * sharing one is safe); one dropped from the LRU is finalized at once.
 */
export function drizzleOf(sqlite: Database, max = 500): Db {
  const statements = new Map<string, Statement>();
  statementsOf.set(sqlite, statements);
  const client = {
    prepare(sql: string) {
      if (pinning) return sqlite.prepare(sql);
      // Drizzle undoes a nested transaction with this statement (a bulk item's savepoint, or any `tx.transaction`).
      if (sql.startsWith("rollback")) noteRollback(sqlite);
      let stmt = statements.get(sql);
      if (stmt) {
        statements.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (statements.size >= max) {
          // Finalized now, not when the collector gets to it: its compiled program is ~7 KiB of native
          // memory (docs/rules/performance.md#memory). A one-off query runs right after its prepare,
          // so the least recently used statement is never one in use.
          const oldest = statements.keys().next().value as string;
          statements.get(oldest)?.finalize();
          statements.delete(oldest);
        }
      }
      statements.set(sql, stmt);
      return stmt;
    },
    exec: (sql: string) => sqlite.exec(sql),
    // A transaction whose function throws is rolled back: noted, so a table-guarded cache serves nothing
    // loaded while its rows were visible (docs/rules/performance.md#caches).
    transaction: <A extends unknown[], R>(fn: (...args: A) => R) =>
      sqlite.transaction((...args: A): R => {
        try {
          return fn(...args);
        } catch (e) {
          noteRollback(sqlite);
          throw e;
        }
      }),
  };
  const db = drizzle({ client: client as unknown as Database }) as unknown as Db;
  connectionOf.set(db, sqlite);
  baseOf.set(sqlite, db);
  return db;
}
