// The check's database work on its own thread and connection: its page writes, fsyncs and WAL
// checkpoints never stall the server's event loop (the request path). Only similarity tables are
// written here, which no read cache of the server's connection holds.
import { existsSync } from "node:fs";
import { drizzleOf, openSqlite } from "../../platform/db/sqlite";
import { addFingerprints, beginCheck, type CheckRow, dropFingerprints, finishCheck, overlapOf, WRITE_CHUNK } from "./compare";

export type WorkerRequest = { id: number; path: string; row: CheckRow; hashes: number[] };
export type WorkerReply = { id: number; error: string | null };

declare const self: Worker;

function record({ path, row, hashes }: WorkerRequest) {
  // a tenant deleted meanwhile: nothing to record, and no empty file to create
  if (!existsSync(path)) return;
  const sqlite = openSqlite(path);
  try {
    const db = drizzleOf(sqlite);
    const start = beginCheck(db, row);
    if (!start) return;
    while (dropFingerprints(db, start.older) > 0) {}
    const overlap = overlapOf(db, row, hashes);
    if (start.latest) for (let i = 0; i < hashes.length; i += WRITE_CHUNK) addFingerprints(db, row.seq, hashes.slice(i, i + WRITE_CHUNK));
    finishCheck(db, row, start, hashes.length, overlap);
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
