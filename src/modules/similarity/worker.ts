// The check's database work on its own thread and connection: its reads, its one write transaction
// and the WAL checkpoints it runs never stall the server's event loop (the request path). Only
// similarity tables are written here, which no read cache of the server's connection holds.
import { existsSync } from "node:fs";
import { closeNow, drizzleOf, openSqlite, walAutocheckpoint } from "../../platform/db/sqlite";
import { normalJitPolicy } from "../../platform/jit";
import { lowerThisThread } from "../../platform/threads";
import { beginCheck, type CheckRow, convertLegacy, finishCheck, overlapOf } from "./compare";
import { forgetPools, poolOf, setPoolBudget, updatePool } from "./pool";

/** `replicated`: Litestream replicates the file and checkpoints it (docs/rules/replication.md#checkpoints). */
export type WorkerRequest = { id: number; path: string; row: CheckRow; hashes: Uint32Array; poolBudgetBytes: number; replicated: boolean };
/** `poolMs`: reading and comparing the pool; `writeMs`: the one write transaction (the bench reports both). */
export type WorkerReply = { id: number; error: string | null; poolMs?: number; writeMs?: number };

/**
 * Frames of WAL after which this connection's commit checkpoints: below the server's (SQLite's
 * default, 1,000), so while checks run the checkpoints mostly happen here, off the event loop; not
 * much lower, as each checkpoint costs two fsyncs on a disk the server's commits wait for.
 */
const WAL_AUTOCHECKPOINT = 500;

declare const self: Worker;

/** This thread at nice 10: checks take the cores' idle time (docs/rules/performance.md#background-threads). */
lowerThisThread(10);
// The binary starts every thread with a reluctant JIT (src/platform/jit.ts); a Worker runs long work from its start.
normalJitPolicy();

function record({ path, row, hashes, poolBudgetBytes, replicated }: WorkerRequest): Omit<WorkerReply, "id" | "error"> {
  // a tenant deleted meanwhile: nothing to record, and no empty file to create
  if (!existsSync(path)) {
    forgetPools(path);
    return {};
  }
  setPoolBudget(poolBudgetBytes);
  const sqlite = openSqlite(path, undefined, walAutocheckpoint(replicated, WAL_AUTOCHECKPOINT));
  try {
    // NORMAL: a commit here does not wait for an fsync. What power loss can take is only derived data
    // and recomputable: the whole transaction goes, the row is PENDING again, and the tenant's
    // `pending` mark (cleared only after jobs.ts fsyncs the file) makes the next start redo it.
    sqlite.exec("PRAGMA synchronous = NORMAL");
    const db = drizzleOf(sqlite);
    convertLegacy(db);
    const start = beginCheck(db, row);
    if (!start) return {};
    const t0 = performance.now();
    const overlap = overlapOf(poolOf(db, path, row.contentId), row, hashes);
    const now = Date.now();
    const t1 = performance.now();
    if (!finishCheck(db, row, start, hashes, overlap, now)) return {};
    const t2 = performance.now();
    const join = start.latest ? { seq: row.seq, ownerId: row.ownerId, hashes, checkedAt: now } : null;
    updatePool(db, path, row.contentId, start.older, join);
    return { poolMs: t1 - t0, writeMs: t2 - t1 };
  } finally {
    closeNow(sqlite);
  }
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  let reply: WorkerReply = { id: event.data.id, error: null };
  try {
    reply = { ...reply, ...record(event.data) };
  } catch (e) {
    reply.error = e instanceof Error ? e.message : String(e);
  }
  self.postMessage(reply satisfies WorkerReply);
};
