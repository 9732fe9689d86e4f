import { inArray } from "drizzle-orm";
import { listTenantRows } from "../../platform/db/registry";
import { write } from "../../platform/db/types";
import { isStoredId } from "../../platform/files/storage";
import type { Runtime } from "../../platform/runtime";
import { referencedFileIds } from "./kinds";
import { isUploading } from "./service";
import { files } from "./tables";

const HOUR = 3_600_000;

export type CollectorOptions = {
  now?: () => number;
  /** A pending upload, or stored bytes with no record, older than this goes (24 h). */
  pendingMs?: number;
  /** A ready file no record references goes once it has been seen so for this long (24 h). */
  graceMs?: number;
  /** Called between the scan and the sweep of each tenant (tests attach a file there). */
  afterScan?: (tenantId: string) => Promise<void>;
};

export type CollectorReport = {
  /** File records removed with their bytes. */
  removedFiles: number;
  /** Stored objects removed (the bytes of removed records, and bytes of no record). */
  removedObjects: number;
  removedBytes: number;
  /** Ready files no record references, kept until their grace period ends. */
  waiting: number;
};

/**
 * The file collector (docs/rules/storage.md#file-collector): deletes pending uploads older than
 * 24 h, ready files no feature references once unreferenced for the grace period, and stored bytes
 * of no record. The decision for each tenant is taken again inside one write transaction, so a
 * file attached while the collector listed the store is kept.
 */
export function createFileCollector(rt: Runtime, opts: CollectorOptions = {}) {
  const now = opts.now ?? (() => rt.now());
  const pendingMs = opts.pendingMs ?? 24 * HOUR;
  const graceMs = opts.graceMs ?? rt.config.fileGraceMs;
  /** `tenantId/fileId` → when the collector first saw it unreferenced (kept in memory: a restart only lengthens the grace). */
  const unreferencedSince = new Map<string, number>();

  async function collectTenant(tenantId: string, report: CollectorReport) {
    const objects: { fileId: string; size: number; modifiedAt: number }[] = [];
    for await (const o of rt.files.list(tenantId)) objects.push(o);
    const scan = () =>
      rt.tenants.use(tenantId, (h) => ({
        rows: h.db.select({ id: files.id, status: files.status, createdAt: files.createdAt, readyAt: files.readyAt }).from(files).all(),
        refs: referencedFileIds(h.db),
      }));
    const first = scan();
    await opts.afterScan?.(tenantId);
    const t = now();
    const candidates = new Set<string>();
    for (const r of first.rows) {
      const key = `${tenantId}/${r.id}`;
      if (r.status === "pending") {
        if (r.createdAt <= t - pendingMs && !isUploading(key)) candidates.add(r.id);
        continue;
      }
      if (first.refs.has(r.id)) {
        unreferencedSince.delete(key);
        continue;
      }
      const since = unreferencedSince.get(key) ?? t;
      unreferencedSince.set(key, since);
      if (since <= t - graceMs && (r.readyAt ?? r.createdAt) <= t - pendingMs) candidates.add(r.id);
      else report.waiting++;
    }
    // The sweep: decided again on what the tenant holds now, in one transaction (no request runs meanwhile).
    // Nothing to remove, no transaction: every write marks the school as worked on, and an hourly write to
    // every file would make every school hot for replication (docs/rules/replication.md#tiers).
    const removed: string[] =
      candidates.size === 0
        ? []
        : rt.tenants.use(tenantId, (h) =>
            write(h.db, (tx) => {
              const refs = referencedFileIds(tx);
              const gone = tx
                .select({ id: files.id, status: files.status })
                .from(files)
                .where(inArray(files.id, [...candidates]))
                .all()
                .filter((r) => !refs.has(r.id) && !isUploading(`${tenantId}/${r.id}`))
                .map((r) => r.id);
              if (gone.length) tx.delete(files).where(inArray(files.id, gone)).run();
              return gone;
            }),
          );
    const known = new Set(scan().rows.map((r) => r.id));
    for (const id of removed) {
      unreferencedSince.delete(`${tenantId}/${id}`);
      report.removedFiles++;
    }
    for (const o of objects) {
      const recordGone = removed.includes(o.fileId);
      // Bytes of no record (a crash between the bytes and the record, a `.part` left by a failed upload).
      const stray = !known.has(isStoredId(o.fileId) ? o.fileId : "") && o.modifiedAt <= t - pendingMs;
      if (!recordGone && !stray) continue;
      await rt.files.remove(tenantId, o.fileId);
      report.removedObjects++;
      report.removedBytes += o.size;
    }
  }

  return {
    /** One pass over every tenant; the counts go to rt.fileCollection (`/metrics`). */
    async run(): Promise<CollectorReport> {
      const report: CollectorReport = { removedFiles: 0, removedObjects: 0, removedBytes: 0, waiting: 0 };
      for (const { id: tenantId } of listTenantRows(rt.platform.db)) {
        // Requests first: a school without stored files is collected without any I/O to wait for, so
        // without this turn the pass held the event loop to its end (docs/rules/storage.md#one-school-a-turn).
        await new Promise((resolve) => setImmediate(resolve));
        try {
          await collectTenant(tenantId, report);
        } catch (e) {
          rt.log({ level: "error", event: "files.collect-failed", tenantId, error: (e as Error).message });
        }
      }
      const stats = rt.fileCollection;
      stats.lastRunAt = now();
      stats.removedFiles += report.removedFiles;
      stats.removedBytes += report.removedBytes;
      stats.waiting = report.waiting;
      return report;
    },
  };
}

/** How often the server's collector runs: hourly, first a minute after start. */
const EVERY_MS = 3_600_000;
const FIRST_MS = 60_000;

type Running = {
  collector: ReturnType<typeof createFileCollector>;
  timer: ReturnType<typeof setTimeout> | null;
  pass: Promise<unknown> | null;
};
const running = new WeakMap<Runtime, Running>();

/** The server's collector (docs/rules/storage.md#file-collector): one pass an hour, never two at once. */
export function startFileCollector(rt: Runtime) {
  const r: Running = { collector: createFileCollector(rt), timer: null, pass: null };
  running.set(rt, r);
  const tick = (delay: number) => {
    r.timer = setTimeout(() => {
      collectFilesNow(rt)
        .catch((e) => rt.log({ level: "error", event: "files.collect-failed", error: (e as Error).message }))
        .finally(() => {
          if (r.timer) tick(EVERY_MS);
        });
    }, delay);
    r.timer.unref?.();
  };
  tick(FIRST_MS);
}

/** Runs a pass of the server's collector now (after the one under way, if any). */
export async function collectFilesNow(rt: Runtime): Promise<CollectorReport> {
  const r = running.get(rt);
  if (!r) throw new Error("the file collector is not started");
  while (r.pass) await r.pass.catch(() => {});
  const pass = r.collector.run();
  r.pass = pass;
  try {
    return await pass;
  } finally {
    if (r.pass === pass) r.pass = null;
  }
}

/** Stops the timer and waits for a pass under way. */
export async function stopFileCollector(rt: Runtime) {
  const r = running.get(rt);
  if (!r) return;
  if (r.timer) clearTimeout(r.timer);
  r.timer = null;
  await r.pass?.catch(() => {});
  running.delete(rt);
}
