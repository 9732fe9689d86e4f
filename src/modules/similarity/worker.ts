// The check's database work on its own thread and connection: its reads, its one write transaction
// and the WAL checkpoints it runs never stall the server's event loop (the request path). Only
// similarity tables are written here, which no read cache of the server's connection holds.
import { existsSync } from "node:fs";
import { drizzleOf, openSqlite } from "../../platform/db/sqlite";
import { beginCheck, type CheckRow, convertLegacy, finishCheck, overlapOf } from "./compare";
import { forgetPools, poolOf, setPoolBudget, updatePool } from "./pool";

export type WorkerRequest = { id: number; path: string; row: CheckRow; hashes: Uint32Array; poolBudgetBytes: number };
export type WorkerReply = { id: number; error: string | null };

/**
 * Frames of WAL after which this connection's commit checkpoints (the server's connections wait for
 * SQLite's default, 1,000): while checks run, the checkpoints happen here, off the event loop.
 */
const WAL_AUTOCHECKPOINT = 200;

declare const self: Worker;

function record({ path, row, hashes, poolBudgetBytes }: WorkerRequest) {
  // a tenant deleted meanwhile: nothing to record, and no empty file to create
  if (!existsSync(path)) return forgetPools(path);
  setPoolBudget(poolBudgetBytes);
  const sqlite = openSqlite(path);
  try {
    // NORMAL: a commit here does not wait for an fsync. What power loss can take is only derived data
    // and recomputable: the whole transaction goes, the row is PENDING again, and the tenant's
    // `pending` mark (cleared only after jobs.ts fsyncs the file) makes the next start redo it.
    sqlite.exec("PRAGMA synchronous = NORMAL");
    sqlite.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT}`);
    const db = drizzleOf(sqlite);
    convertLegacy(db);
    const start = beginCheck(db, row);
    if (!start) return;
    const overlap = overlapOf(poolOf(db, path, row.contentId), row, hashes);
    const now = Date.now();
    if (!finishCheck(db, row, start, hashes, overlap, now)) return;
    const join = start.latest ? { seq: row.seq, ownerId: row.ownerId, hashes, checkedAt: now } : null;
    updatePool(db, path, row.contentId, start.older, join);
  } finally {
    sqlite.close();
  }
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  let error: string | null = null;
  try {
    record(event.data);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  self.postMessage({ id: event.data.id, error } satisfies WorkerReply);
};
