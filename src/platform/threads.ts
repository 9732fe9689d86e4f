// Helpers for the server's Worker threads (the similarity check, password hashing).
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/**
 * The module of a Worker, named by its path under src/: from source, that file; in the compiled binary,
 * the extra entrypoint scripts/build.ts embeds, which the binary names relative to src/.
 */
export const workerModule = (fromSrc: string) =>
  import.meta.url.includes("$bunfs") ? `./${fromSrc}` : new URL(`../${fromSrc}`, import.meta.url).href;

/**
 * Lowers the calling thread alone to `nice` (Linux: a thread is its own task, and setpriority takes its
 * id): on a small server whose cores are all busy, the scheduler serves the request threads first, so
 * the thread's work takes the idle time instead of adding to request latency
 * (docs/rules/performance.md#background-threads). Best effort: false where it cannot (not Linux, not
 * permitted), and the thread keeps the server's priority.
 */
export function lowerThisThread(nice: number): boolean {
  try {
    setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), nice);
    return true;
  } catch {
    return false;
  }
}
