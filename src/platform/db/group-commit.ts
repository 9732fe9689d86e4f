import type { Database } from "bun:sqlite";
import { closeSync, fsync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { syncDirectory, syncDirectorySync } from "./sync-directory";

/**
 * Group commit. With synchronous=FULL a commit waits for an fsync on the event loop (4 ms median,
 * over 100 ms at p99 on a shared disk: bench/exam.ts), so near a few hundred commits a second
 * everything queues. Once the server turns it on, the writes (write()) of one event-loop turn run
 * as savepoints in one IMMEDIATE transaction per file, committed once when the turn ends; no response
 * leaves before the commits begun before it are durable (settled()), so an acknowledged write
 * still survives power loss. The turn's COMMIT writes the WAL without its fsync, which then runs on a
 * thread of the pool while the event loop goes on (docs/rules/performance.md#durability). Only the
 * server's own connections take part (a CLI command or script opening the same file commits alone).
 */
const members = new WeakSet<Database>();
const open = new Set<Database>();
let batch: PromiseWithResolvers<void> | null = null;
let failure: unknown = null;
/** The WAL syncs of the commits made so far, until they are all done (settled() waits for them too). */
let syncing: Promise<void> | null = null;

/** Rollbacks on a connection (a failed write(), a failed group commit): they undo what guard triggers counted. */
const rollbacks = new WeakMap<Database, number>();

/** Called after a rollback on the connection: every table-guarded cache on it starts over (db/sqlite.ts). */
export function noteRollback(sqlite: Database) {
  rollbacks.set(sqlite, (rollbacks.get(sqlite) ?? 0) + 1);
}

export const rollbackCount = (sqlite: Database) => rollbacks.get(sqlite) ?? 0;

export function enableGroupCommit(sqlite: Database) {
  members.add(sqlite);
}

/** Called before a write: opens this turn's transaction on the file unless it is already in one. */
export function joinBatch(sqlite: Database) {
  if (!members.has(sqlite) || open.has(sqlite) || sqlite.inTransaction) return;
  // The batch's COMMIT writes the WAL without its fsync (SQLite takes the level only outside a
  // transaction); commitBatch syncs it and sets FULL back for any other write on the connection.
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("BEGIN IMMEDIATE");
  open.add(sqlite);
  if (!batch) {
    batch = Promise.withResolvers<void>();
    // Nobody may be waiting (a write outside a request); its failure is still reported to waiters.
    batch.promise.catch(() => {});
    setImmediate(commitAll);
  }
}

/**
 * Commits one file's open batch now (before it closes, or a protocol's step: commitNow) and fsyncs
 * its WAL before returning; a failure fails the whole turn's batch. `deferSync`: the end of the
 * turn's commit, whose fsync the caller then runs off the event loop (walSync). True when it committed.
 */
export function commitBatch(sqlite: Database, deferSync = false): boolean {
  if (!open.delete(sqlite)) return false;
  try {
    sqlite.exec("COMMIT");
  } catch (e) {
    failure ??= e;
    noteRollback(sqlite);
    try {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    } catch {
      // A connection closed under its batch: nothing left to roll back.
    }
    return false;
  } finally {
    try {
      if (!sqlite.inTransaction) sqlite.exec("PRAGMA synchronous = FULL");
    } catch {
      // A closed connection has no level left to set.
    }
  }
  if (!deferSync) {
    const { wal, first } = walOf(sqlite);
    fsyncSync(wal.fd);
    if (first) syncDirectorySync(dirname(sqlite.filename));
  }
  return true;
}

/** A connection's WAL file, open for its fsyncs; closed when the connection is and no fsync uses it. */
type Wal = { fd: number; syncing: number; released: boolean };
const wals = new WeakMap<Database, Wal>();

/** The connection's WAL, opened at its first sync (`first`: SQLite syncs the directory of a WAL it created, so do we). */
function walOf(sqlite: Database): { wal: Wal; first: boolean } {
  const wal = wals.get(sqlite);
  if (wal) return { wal, first: false };
  const made = { fd: openSync(`${sqlite.filename}-wal`, "r"), syncing: 0, released: false };
  wals.set(sqlite, made);
  return { wal: made, first: true };
}

/**
 * fsyncs the connection's WAL on a thread of the pool (node:fs's callback API), the event loop free
 * meanwhile: what synchronous=FULL does inside the COMMIT.
 */
function fsyncWal(sqlite: Database): Promise<void> {
  const { wal, first } = walOf(sqlite);
  wal.syncing++;
  return new Promise<void>((resolve, reject) => fsync(wal.fd, (e) => (e ? reject(e) : resolve())))
    .then(() => (first ? syncDirectory(dirname(sqlite.filename)) : undefined))
    .finally(() => {
      if (--wal.syncing === 0 && wal.released) closeSync(wal.fd);
    });
}

let walSync: (sqlite: Database) => Promise<void> = fsyncWal;

/** Tests: replaces the WAL's fsync (null: the real one), to hold a commit's answer at will. */
export function setWalSync(fn: ((sqlite: Database) => Promise<void>) | null) {
  walSync = fn ?? fsyncWal;
}

/** Called when a connection closes: its WAL's descriptor closes once no fsync uses it. */
export function releaseWal(sqlite: Database) {
  const wal = wals.get(sqlite);
  if (!wal) return;
  wals.delete(sqlite);
  wal.released = true;
  if (wal.syncing === 0) closeSync(wal.fd);
}

function commitAll() {
  const done = batch;
  const committed: Database[] = [];
  try {
    for (const sqlite of [...open]) if (commitBatch(sqlite, true)) committed.push(sqlite);
  } finally {
    // Always settle and reset, or every later write would wait for a commit never scheduled.
    const error = failure;
    batch = null;
    failure = null;
    open.clear();
    if (error) done?.reject(error);
    else if (done) durable(committed).then(done.resolve, done.reject);
  }
}

/**
 * The fsyncs of a turn's commits, after the earlier turns' (an answer never leaves before a write it
 * could have read is durable); an earlier sync's failure is its own turn's, not this one's.
 */
function durable(committed: Database[]): Promise<void> {
  const earlier = syncing?.catch(() => {});
  // A sync that cannot start (its WAL not opened) fails this turn's answers, never the event loop.
  const syncs = committed.map((sqlite) => Promise.resolve().then(() => walSync(sqlite)));
  const mine = Promise.all([earlier, ...syncs]).then(() => {});
  syncing = mine;
  const clear = () => {
    if (syncing === mine) syncing = null;
  };
  mine.then(clear, clear);
  return mine;
}

/** What the answer must wait for: this turn's commit, or the fsyncs of earlier commits still running; null when none. */
export const settled = (): Promise<void> | null => batch?.promise ?? syncing;
