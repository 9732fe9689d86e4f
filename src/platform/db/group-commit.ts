import type { Database } from "bun:sqlite";

/**
 * Group commit. With synchronous=FULL a commit waits for an fsync on the event loop (4 ms median,
 * over 100 ms at p99 on a shared disk: bench/exam.ts), so near a few hundred commits a second
 * everything queues. Once the server turns it on, the writes (write()) of one event-loop turn run
 * as savepoints in one IMMEDIATE transaction per file, committed once when the turn ends; no response
 * leaves before the commits begun before it have returned (settled()), so an acknowledged write
 * still survives power loss. Only the server's own connections take part (a CLI command or script
 * opening the same file commits alone).
 */
const members = new WeakSet<Database>();
const open = new Set<Database>();
let batch: PromiseWithResolvers<void> | null = null;
let failure: unknown = null;

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
  sqlite.exec("BEGIN IMMEDIATE");
  open.add(sqlite);
  if (!batch) {
    batch = Promise.withResolvers<void>();
    // Nobody may be waiting (a write outside a request); its failure is still reported to waiters.
    batch.promise.catch(() => {});
    setImmediate(commitAll);
  }
}

/** Commits one file's open batch now (before it closes); a failure fails the whole turn's batch. */
export function commitBatch(sqlite: Database) {
  if (!open.delete(sqlite)) return;
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
  }
}

function commitAll() {
  const done = batch;
  try {
    for (const sqlite of [...open]) commitBatch(sqlite);
  } finally {
    // Always settle and reset, or every later write would wait for a commit never scheduled.
    const error = failure;
    batch = null;
    failure = null;
    open.clear();
    if (error) done?.reject(error);
    else done?.resolve();
  }
}

/** The commit of this turn's writes, or null when none is pending: await it before answering. */
export const settled = (): Promise<void> | null => batch?.promise ?? null;
