/**
 * What the server holds with no tenant file open, after traffic, MiB (docs/rules/performance.md#memory):
 * the binary idles at ~80 MiB after ready, and the code compiled and the heap grown by traffic add ~10
 * whatever the number of open files (bench/tenants.ts with 10 and with 61 open handles).
 */
const RUNTIME_MIB = 90;
/**
 * An open tenant handle after traffic, page cache aside, KiB: SQLite's parsed schema of ~250 tables and
 * indexes, ~44 compiled statements (~7 KiB each), the Drizzle handle and per-handle caches, and the
 * garbage its requests leave until the next collection: RSS grew ~1 MiB per open handle at a 128 KiB
 * cache (bench/tenants.ts, 30 vs 69 handles; ~0.6 MiB once collected).
 */
const HANDLE_FIXED_KIB = 870;
/** Compiled statements kept per tenant handle (LRU, finalized when dropped): a request mix's hot set (a school visit uses ~44), not every operation. */
const STATEMENTS_PER_HANDLE = 64;

export type TenantBudget = {
  /** Open tenant handles (LRU). */
  handles: number;
  /** SQLite page cache per handle, KiB (`PRAGMA cache_size = -N`); other pages come from the OS page cache. */
  cacheKiB: number;
  /** Compiled statements kept per handle. */
  statements: number;
  /** RSS above which the tenant store asks for a collection, MiB: the budget + 10 % (docs/rules/performance.md#memory). */
  collectAboveMiB: number;
  /** RSS above which that collection is a full one even while requests are answered, MiB: the budget + 20 % (the bound is + 25 %). */
  collectFullAboveMiB: number;
};

/**
 * Splits the memory budget (LEARNSPACE_MEMORY_MB, megabytes) between tenant handles: the page cache per
 * handle grows with the budget (1 KiB per MB, 128 KiB..2 MiB), and the handle cap is what is left of the
 * budget after the runtime divided by what one open handle holds, so that RSS stays within the budget
 * and its high-water mark within budget + 25 % (docs/rules/performance.md#memory).
 */
export function tenantBudget(memoryMb: number, handlesOverride: number | null = null): TenantBudget {
  const cacheKiB = Math.min(2048, Math.max(128, memoryMb));
  const budgetMiB = (memoryMb * 1e6) / 1048576;
  const handles = handlesOverride ?? Math.max(4, Math.floor(((budgetMiB - RUNTIME_MIB) * 1024) / (HANDLE_FIXED_KIB + cacheKiB)));
  return {
    handles,
    cacheKiB,
    statements: STATEMENTS_PER_HANDLE,
    collectAboveMiB: Math.round(budgetMiB * 1.1),
    collectFullAboveMiB: Math.round(budgetMiB * 1.2),
  };
}

/** Holders of memory outside the JS heap for a while (the password hashes' argon2 memory), MiB each. */
const outsideHeap = new Set<() => number>();

/**
 * Registers memory a part of the server holds outside the JS heap while it works (an argon2id hash holds
 * 19 MiB on its thread): RSS no collection can lower, which the memory watch leaves out, or a sign-in
 * storm's hashes set off a full collection (~15–180 ms on the event loop) every second or so
 * (docs/rules/performance.md#memory).
 */
export function holdsOutsideHeap(mib: () => number) {
  outsideHeap.add(mib);
}

/** What the holders hold now, MiB. */
export function outsideHeapMiB(): number {
  let sum = 0;
  for (const mib of outsideHeap) sum += mib();
  return sum;
}
