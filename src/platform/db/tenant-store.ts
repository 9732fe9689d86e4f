import type { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { enableGroupCommit, noteTouched } from "./group-commit";
import { outsideHeapMiB, type TenantBudget } from "./memory-budget";
import { applyMigrations } from "./migrate";
import { tenantMigrations } from "./migrations.gen";
import { closeSqlite, drizzleOf, openSqlite } from "./sqlite";
import { type Db, writeGuards } from "./types";

/** An open tenant file. `users` counts the requests holding it; it is closed only when idle. */
export type TenantHandle = {
  tenantId: string;
  sqlite: Database;
  db: Db;
  users: number;
  evicted: boolean;
  /** Values built once per open handle (guarded read caches), by name (see `cachedPerHandle`); never statements. */
  cache: Map<string, unknown>;
};

export type TenantStore = {
  /** Opens (migrating on first open) and holds the tenant's file; pair with release(). */
  acquire(tenantId: string, opts?: { create?: boolean }): TenantHandle;
  release(handle: TenantHandle): void;
  /** Runs fn with the tenant's handle held, for code outside a request (CLI, provisioning). */
  use<T>(tenantId: string, fn: (handle: TenantHandle) => T, opts?: { create?: boolean }): T;
  fileOf(tenantId: string): string;
  /** Closes the tenant's handle if it is open and idle (before its file is removed). */
  drop(tenantId: string): void;
  openCount(): number;
  closeAll(): void;
  /** When this process last wrote the tenant's file (ms), null if not since it started (replication tiers). */
  lastWriteAt(tenantId: string): number | null;
  /** Set when replicating: called before every write to a tenant file (Litestream's CPU floor, docs/rules/replication.md#scheduling). */
  written: ((tenantId: string) => void) | null;
  /** Set in cluster mode: called before every write to a tenant file; throws to refuse it (docs/rules/cluster.md#fencing). */
  guard: ((tenantId: string) => void) | null;
};

export class TenantFileMissingError extends Error {}

/**
 * A full garbage collection after this many closed handles (docs/rules/performance.md#memory): a closed
 * handle's statements and caches are garbage the collector otherwise keeps until the heap doubles, ~30 MiB
 * of RSS with 300 schools cycling through 32 handles; one collection (~10–20 ms) per 32 reopens (~6 ms each).
 */
const GC_AFTER_CLOSES = 32;

/**
 * The memory watch (docs/rules/performance.md#memory): every 25 ms (~3 µs a check) the store compares
 * the process's RSS with the budget's collection mark. A request's garbage is kept until the JS heap
 * doubles too: +30 MiB of RSS over 27,000 reads of one school, no handle closed (bench/README.md).
 * RSS grows by up to 2 MiB per 20 ms between collections (a school's first visit, a read burst): at
 * 100 ms it passed the mark by 5–13 MiB before a check saw it (bench/README.md, session 14).
 */
const WATCH_MS = 25;
/** RSS growth since the last collection that asks for another, MiB; without growth, one per 10 s at most (a live set above the mark). */
const WATCH_GROWTH_MIB = 2;
const WATCH_IDLE_MS = 10_000;

/** Whether the memory watch asks for a collection now: RSS above the mark and grown since the last one, or that one 10 s old. */
export function collectionDue(rssMiB: number, collectAboveMiB: number, last: { rssMiB: number; msAgo: number }): boolean {
  return rssMiB > collectAboveMiB && (rssMiB >= last.rssMiB + WATCH_GROWTH_MIB || last.msAgo >= WATCH_IDLE_MS);
}

/**
 * Requests in flight up to which the memory watch's collection may be a full one: a full collection
 * stops the event loop for as long as it marks and sweeps the heap, and the heap grows with the
 * requests being answered (10–20 ms with a few, 108–454 ms in an exam of 5,000 students, where every
 * request in flight, another school's read too, sat through it). 16: bench/tenants.ts's closed loop,
 * whose RSS high-water mark (the 1,000-school bound) the full collections keep as it was.
 */
const FULL_COLLECTION_MAX_IN_FLIGHT = 16;

/**
 * What the memory watch asks for at a check (docs/rules/performance.md#memory): a full collection with
 * at most 16 requests in flight, or above the budget + 20 % (the bound is + 25 %); with more, JSC's
 * concurrent one (`Bun.gc(false)`: ~1 ms on the event loop, the marking on the collector's threads),
 * and a full one is owed until the first check with 16 or fewer in flight and RSS still above the
 * mark. null: nothing to ask.
 */
export function watchCollection(
  rssMiB: number,
  budget: Pick<TenantBudget, "collectAboveMiB" | "collectFullAboveMiB">,
  last: { rssMiB: number; msAgo: number; owed: boolean },
  inFlight: number,
): "full" | "concurrent" | null {
  const due = collectionDue(rssMiB, budget.collectAboveMiB, last);
  if (inFlight <= FULL_COLLECTION_MAX_IN_FLIGHT) return due || (last.owed && rssMiB > budget.collectAboveMiB) ? "full" : null;
  if (!due) return null;
  return rssMiB > budget.collectFullAboveMiB ? "full" : "concurrent";
}

/**
 * What the memory watch knows of its last collection: when it started (ms), the RSS it started at and
 * the lowest RSS seen since (MiB), whether a full one is owed.
 */
export type WatchState = { at: number; rssMiB: number; lowMiB: number; owed: boolean };

/**
 * One check of the memory watch: what it asks for (`watchCollection`), growth counted from the RSS
 * the last collection started at. Besides, once RSS has fallen under the mark since the last
 * collection and grown 2 MiB from that low back over it, a concurrent collection ("early"): after a
 * collection at 139 MiB that brought RSS to 125, the next was due only at 141, and a read burst
 * passed the mark by 8–24 MiB before it (bench/README.md, session 14). Concurrent, and no full one
 * owed for it: a live set near the mark (an exam's) dips under it at each collection and passes it
 * again soon after, and a full collection at each crossing stopped the event loop 20–40 ms a time
 * (twelve in an exam of 5,000: the other schools' reads p99 6–10 → 13–19 ms).
 */
export function watchCheck(
  state: WatchState,
  rssMiB: number,
  now: number,
  budget: Pick<TenantBudget, "collectAboveMiB" | "collectFullAboveMiB">,
  inFlight: number,
): "full" | "concurrent" | "early" | null {
  state.lowMiB = Math.min(state.lowMiB, rssMiB);
  const msAgo = now - state.at;
  const kind = watchCollection(rssMiB, budget, { rssMiB: state.rssMiB, msAgo, owed: state.owed }, inFlight);
  if (kind) return kind;
  return state.lowMiB < budget.collectAboveMiB && collectionDue(rssMiB, budget.collectAboveMiB, { rssMiB: state.lowMiB, msAgo })
    ? "early"
    : null;
}

/** The RSS the memory watch compares with its mark, MiB: without what is held outside the JS heap for a while (hashes' argon2 memory). */
export const collectableRssMiB = () => process.memoryUsage.rss() / 1048576 - outsideHeapMiB();

/** An LRU of open tenant handles, bounded by the budget's idle handles; each handle's caches are bounded too. */
export function createTenantStore(
  dataDir: string,
  budget: TenantBudget,
  {
    groupCommit = false,
    autocheckpoint,
    inFlight = () => 0,
  }: {
    groupCommit?: boolean;
    autocheckpoint?: number;
    /** Requests being answered now: the memory watch's choice between a full and a concurrent collection. */
    inFlight?: () => number;
  } = {},
): TenantStore {
  const max = budget.handles;
  const open = new Map<string, TenantHandle>();
  const lastWrite = new Map<string, number>();

  const fileOf = (tenantId: string) => {
    if (!/^[0-9a-f-]{36}$/.test(tenantId)) throw new Error("invalid tenant id");
    return join(dataDir, "tenants", `${tenantId}.sqlite`);
  };

  /** Connections that wrote (or were migrated) since they opened: only their close refreshes the statistics. */
  const wrote = new WeakSet<Database>();

  let closedSinceGc = 0;
  let gcPending = false;
  const lastGc: WatchState = { at: 0, rssMiB: 0, lowMiB: 0, owed: false };
  const rssMiB = collectableRssMiB;
  /** `early`: concurrent, and no full one owed for it (`watchCheck`). */
  const collect = (rss = rssMiB(), full = true, early = false) => {
    lastGc.at = performance.now();
    lastGc.rssMiB = rss;
    lastGc.lowMiB = rss;
    if (!early) lastGc.owed = !full;
    Bun.gc(full);
  };
  const close = (h: TenantHandle) => {
    h.cache.clear();
    closeSqlite(h.sqlite, { optimize: wrote.has(h.sqlite) });
    if (++closedSinceGc < GC_AFTER_CLOSES) return;
    closedSinceGc = 0;
    // A loop that never yields to the event loop (the file collector's pass over every school) collects in place.
    if (gcPending) return collect();
    // Otherwise after the request that closed it has answered, not in it.
    gcPending = true;
    setTimeout(() => {
      gcPending = false;
      collect();
    }, 0).unref();
  };
  // Between requests, never in one: RSS over the budget's mark asks for a collection, a full one only
  // with few requests waiting for it (docs/rules/performance.md#memory).
  const watch = setInterval(() => {
    const rss = rssMiB();
    const kind = watchCheck(lastGc, rss, performance.now(), budget, inFlight());
    if (kind) collect(rss, kind === "full", kind === "early");
  }, WATCH_MS);
  watch.unref();

  const evictIdle = () => {
    if (open.size <= max) return;
    // Map iteration order is least recently used first.
    for (const [id, h] of open) {
      if (open.size <= max) break;
      if (h.users > 0) continue;
      open.delete(id);
      h.evicted = true;
      close(h);
    }
  };

  const acquire: TenantStore["acquire"] = (tenantId, opts) => {
    let h = open.get(tenantId);
    if (h) {
      open.delete(tenantId);
      open.set(tenantId, h);
    } else {
      const path = fileOf(tenantId);
      if (!opts?.create && !existsSync(path)) throw new TenantFileMissingError(`tenant file missing: ${path}`);
      const sqlite = openSqlite(path, budget, autocheckpoint);
      try {
        if (applyMigrations(sqlite, tenantMigrations, `tenant ${tenantId}`) > 0) wrote.add(sqlite);
      } catch (e) {
        sqlite.close();
        throw e;
      }
      if (groupCommit) enableGroupCommit(sqlite);
      // Every write notes its time (docs/rules/replication.md#tiers), then the cluster's fence, if any, may refuse it.
      writeGuards.set(sqlite, () => {
        wrote.add(sqlite);
        lastWrite.set(tenantId, Date.now());
        store.written?.(tenantId);
        store.guard?.(tenantId);
      });
      h = { tenantId, sqlite, db: drizzleOf(sqlite, budget.statements), users: 0, evicted: false, cache: new Map() };
      open.set(tenantId, h);
    }
    h.users++;
    // The request's answer waits for this file's pending commits: it may read what they wrote.
    noteTouched(h.sqlite);
    evictIdle();
    return h;
  };

  const release: TenantStore["release"] = (h) => {
    h.users--;
    if (h.users === 0 && h.evicted) close(h);
    else evictIdle();
  };

  const store: TenantStore = {
    guard: null,
    written: null,
    acquire,
    release,
    use(tenantId, fn, opts) {
      const h = acquire(tenantId, opts);
      try {
        return fn(h);
      } finally {
        release(h);
      }
    },
    fileOf,
    lastWriteAt: (tenantId) => lastWrite.get(tenantId) ?? null,
    drop(tenantId) {
      const h = open.get(tenantId);
      if (h && h.users === 0) {
        open.delete(tenantId);
        close(h);
      }
    },
    openCount: () => open.size,
    closeAll() {
      clearInterval(watch);
      for (const h of open.values()) close(h);
      open.clear();
    },
  };
  return store;
}

/**
 * A value (a guarded read cache, never a statement) built once per open handle and reused on every
 * request. Compiled statements are `preparedQuery`'s (src/platform/db/sqlite.ts), which keeps them out
 * of the statement LRU that finalizes what it drops; a statement kept here could be finalized under it.
 */
export function cachedPerHandle<T>(handle: { cache: Map<string, unknown> }, name: string, build: () => T): T {
  let p = handle.cache.get(name) as T | undefined;
  if (p === undefined) {
    p = build();
    handle.cache.set(name, p);
  }
  return p;
}
