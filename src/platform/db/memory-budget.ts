/** What the server holds before any tenant file is open (Bun, the code, the platform file), MiB. */
const RUNTIME_MIB = 72;
/** An open tenant handle's parsed schema (~70 tables) and compiled statements, KiB (bench/tenants.ts). */
const HANDLE_FIXED_KIB = 700;
/** Compiled statements kept per tenant handle (LRU): a request mix's hot set, not every operation. */
const STATEMENTS_PER_HANDLE = 100;

export type TenantBudget = {
  /** Open tenant handles (LRU). */
  handles: number;
  /** SQLite page cache per handle, KiB (`PRAGMA cache_size = -N`); other pages come from the OS page cache. */
  cacheKiB: number;
  /** Compiled statements kept per handle. */
  statements: number;
};

/**
 * Splits the memory budget (LEARNSPACE_MEMORY_MB) between tenant handles: the page cache per handle
 * grows with the budget (1 KiB per MiB, 128 KiB..2 MiB), and the handle cap is what is left after the
 * runtime divided by what one open handle holds.
 */
export function tenantBudget(memoryMb: number, handlesOverride: number | null = null): TenantBudget {
  const cacheKiB = Math.min(2048, Math.max(128, memoryMb));
  const handles = handlesOverride ?? Math.max(4, Math.floor(((memoryMb - RUNTIME_MIB) * 1024) / (HANDLE_FIXED_KIB + cacheKiB)));
  return { handles, cacheKiB, statements: STATEMENTS_PER_HANDLE };
}
