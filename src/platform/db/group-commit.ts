import type { Database } from "bun:sqlite";
import { closeSync, fsync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { syncDirectory, syncDirectorySync } from "./sync-directory";

/**
 * Group commit. With synchronous=FULL a commit waits for an fsync on the event loop (4 ms median,
 * over 100 ms at p99 on a shared disk: bench/exam.ts), so near a few hundred commits a second
 * everything queues. Once the server turns it on, the writes (write()) of one event-loop turn run
 * as savepoints in one IMMEDIATE transaction per file, committed once when the turn ends. The turn's
 * COMMIT writes the WAL without its fsync, which then runs on a thread of the pool while the event
 * loop goes on. An answer leaves only once the commits begun before it on the files its request
 * touched (wrote, or could have read) are durable (settledFor), so an acknowledged write, and any
 * data an answer shows, still survives power loss; a request that touched no file with a commit
 * pending waits for nothing (docs/rules/performance.md#durability). Only the server's own connections
 * take part (a CLI command or script opening the same file commits alone).
 */
const members = new WeakSet<Database>();
/** The files with an open batch this turn, each with its turn's commit-and-fsync, settled when durable or failed. */
const open = new Map<Database, PromiseWithResolvers<void>>();
let scheduled = false;
/**
 * Per file, until it is done: every commit begun on it so far being durable (this turn's batch and
 * earlier turns' fsyncs still running). A file with nothing pending has no entry.
 */
const pending = new Map<Database, Promise<void>>();

/** The files the request being served touched (its request context's set), or undefined outside a request. */
let requestFiles: () => Set<Database> | undefined = () => undefined;

/** Called once by the http layer: where the request being served notes the files it touches. */
export function trackRequestFiles(files: () => Set<Database> | undefined) {
  requestFiles = files;
}

/**
 * Notes that the request being served (if any) uses the file: its answer will wait for the file's
 * pending commits (a read may show what they wrote). Called by joinBatch and the tenant store's acquire.
 */
export function noteTouched(sqlite: Database) {
  requestFiles()?.add(sqlite);
}

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
  noteTouched(sqlite);
  if (!members.has(sqlite) || open.has(sqlite) || sqlite.inTransaction) return;
  // The batch's COMMIT writes the WAL without its fsync (SQLite takes the level only outside a
  // transaction); commitBatch syncs it and sets FULL back for any other write on the connection.
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("BEGIN IMMEDIATE");
  const turn = Promise.withResolvers<void>();
  // Nobody may be waiting (a write outside a request); its failure is still reported to waiters.
  turn.promise.catch(() => {});
  open.set(sqlite, turn);
  // The file's earlier fsyncs first (an answer never leaves before a write it could have read is
  // durable); an earlier sync's failure is its own turn's, not this one's.
  const earlier = pending.get(sqlite);
  const mine = earlier ? Promise.all([earlier.catch(() => {}), turn.promise]).then(() => {}) : turn.promise;
  pending.set(sqlite, mine);
  const clear = () => {
    if (pending.get(sqlite) === mine) pending.delete(sqlite);
  };
  mine.then(clear, clear);
  if (!scheduled) {
    scheduled = true;
    setImmediate(commitAll);
  }
}

/**
 * Commits one file's open batch now (before it closes, or a protocol's step: commitNow) and fsyncs
 * its WAL before returning; a failure fails the answers waiting for that file's turn. `deferSync`: the
 * end of the turn's commit, whose fsync then runs off the event loop (walSync). True when it committed.
 */
export function commitBatch(sqlite: Database, deferSync = false): boolean {
  const turn = open.get(sqlite);
  if (!turn) return false;
  open.delete(sqlite);
  try {
    sqlite.exec("COMMIT");
  } catch (e) {
    turn.reject(e);
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
  if (deferSync) {
    // A sync that cannot start (its WAL not opened) fails this turn's answers, never the event loop.
    Promise.resolve()
      .then(() => walSync(sqlite))
      .then(turn.resolve, turn.reject);
    return true;
  }
  try {
    const { wal, first } = walOf(sqlite);
    fsyncSync(wal.fd);
    if (first) syncDirectorySync(dirname(sqlite.filename));
    turn.resolve();
  } catch (e) {
    turn.reject(e);
    throw e;
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
  scheduled = false;
  for (const sqlite of [...open.keys()]) commitBatch(sqlite, true);
}

const joined = (waits: Promise<void>[]): Promise<void> | null =>
  waits.length === 0 ? null : waits.length === 1 ? (waits[0] as Promise<void>) : Promise.all(waits).then(() => {});

/** What a write outside a request (a job, a handoff) waits for: every file's pending commits; null when none. */
export const settled = (): Promise<void> | null => joined([...pending.values()]);

/**
 * What an answer waits for: the pending commits of the files its request touched and of `always`
 * (the platform file, which any request may read); null when none, so an answer that touched no file
 * with a commit pending leaves at once. Outside a request (no context) it is settled().
 * docs/rules/performance.md#durability
 */
export function settledFor(always: Database | null): Promise<void> | null {
  const files = requestFiles();
  if (!files) return settled();
  const waits: Promise<void>[] = [];
  const platform = always && pending.get(always);
  if (platform) waits.push(platform);
  for (const sqlite of files) {
    const p = sqlite !== always && pending.get(sqlite);
    if (p) waits.push(p);
  }
  return joined(waits);
}
