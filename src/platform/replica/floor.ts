import { readdirSync, readFileSync } from "node:fs";

/**
 * Litestream's CPU floor (docs/rules/replication.md#scheduling): Litestream runs under SCHED_IDLE while
 * it keeps up, and is raised to SCHED_OTHER at nice 0 (every thread) as soon as a replicated file's
 * oldest unsynced write is older than its RPO less `FLOOR_SLACK` × S; lowered again once no file has
 * been that far behind for the hold time.
 */
export type Priority = "idle" | "normal";

/**
 * The part of the sync interval S left, once Litestream is raised, to copy and ship the late write
 * before its RPO passes: a file is raised at RPO − S/4 (a hot file at 0.75 S). Litestream's own
 * pipeline takes up to S/2 + S/10 plus the upload (docs/rules/replication.md#rpo), so a file that
 * keeps up stays below it.
 */
export const FLOOR_SLACK = 0.25;
/** Caught up this long (no file past its threshold), Litestream goes back to SCHED_IDLE. */
export const FLOOR_HOLD_MS = 5000;
/** Raised again within this long of going back, the hold doubles (up to this long): cores that stay busy keep it raised. */
export const FLOOR_MAX_HOLD_MS = 60_000;

export type FloorDecision = { to: "normal"; path: string; ageMs: number } | { to: "idle"; raisedMs: number };

/**
 * The lag decision, pure (times are passed in). `wrote(path, at)`: this process wrote the file (its
 * write transaction began at `at`); the file is dirty from its first write after its last shipment.
 * `check(t)` looks at the dirty files only: a file is shipped up to its last sync (`lastSyncAt`, from
 * Litestream's log) less `shipMs` (a sync ships what was copied before its ship tick), clean once its
 * last write is older than that, else its oldest unsynced write is the later of its first dirty write
 * and that point. Returns a change of priority, or null.
 */
export function createLagFloor(opts: {
  shipMs: number;
  lastSyncAt: (path: string) => number | null;
  /** How old a file's oldest unsynced write may get before Litestream is raised. */
  raiseAfterMs: (path: string) => number;
  /** Whether a dirty file is still there (asked only before raising for it): a removed school's file is forgotten. */
  exists?: (path: string) => boolean;
  level?: Priority;
  holdMs?: number;
}) {
  const dirtySince = new Map<string, number>();
  const lastWrite = new Map<string, number>();
  let level: Priority = opts.level ?? "idle";
  let hold = opts.holdMs ?? FLOOR_HOLD_MS;
  let raisedAt = 0;
  let loweredAt = Number.NEGATIVE_INFINITY;
  let calmSince: number | null = null;
  let raises = 0;
  return {
    wrote(path: string, at: number) {
      if (!dirtySince.has(path)) dirtySince.set(path, at);
      lastWrite.set(path, at);
    },
    level: () => level,
    raises: () => raises,
    /** The oldest unsynced write of each dirty file (ms), as of `t`. */
    behind(t: number): { path: string; ageMs: number }[] {
      return [...dirtySince].map(([path, since]) => ({ path, ageMs: t - since }));
    },
    check(t: number): FloorDecision | null {
      let over: { path: string; ageMs: number } | null = null;
      for (const [path, since] of dirtySince) {
        const synced = opts.lastSyncAt(path);
        const shipped = synced === null ? Number.NEGATIVE_INFINITY : synced - opts.shipMs;
        if ((lastWrite.get(path) ?? 0) <= shipped) {
          dirtySince.delete(path);
          lastWrite.delete(path);
          continue;
        }
        const oldest = Math.max(since, shipped);
        dirtySince.set(path, oldest);
        if (t - oldest > opts.raiseAfterMs(path) && (!over || t - oldest > over.ageMs)) over = { path, ageMs: t - oldest };
      }
      if (over && opts.exists && !opts.exists(over.path)) {
        dirtySince.delete(over.path);
        lastWrite.delete(over.path);
        return null;
      }
      if (level === "idle") {
        if (!over) return null;
        // Raised again soon after going back: the cores stay busy, so it stays raised longer.
        hold = t - loweredAt < FLOOR_MAX_HOLD_MS ? Math.min(hold * 2, FLOOR_MAX_HOLD_MS) : (opts.holdMs ?? FLOOR_HOLD_MS);
        level = "normal";
        raisedAt = t;
        calmSince = null;
        raises++;
        return { to: "normal", ...over };
      }
      if (over) {
        calmSince = null;
        return null;
      }
      calmSince ??= t;
      if (t - calmSince < hold) return null;
      level = "idle";
      loweredAt = t;
      return { to: "idle", raisedMs: t - raisedAt };
    },
  };
}
export type LagFloor = ReturnType<typeof createLagFloor>;

/**
 * Why this process may not take a SCHED_IDLE child back to SCHED_OTHER at nice 0, or null when it may
 * (Linux `can_nice`): root, CAP_SYS_NICE in its effective set (bit 23), or a soft RLIMIT_NICE of at
 * least 20 (nice 0 = 20 − the limit). docs/operating.md#continuous-replication-litestream
 */
export function cannotRaise(
  read: (path: string) => string = (p) => readFileSync(p, "utf8"),
  uid = process.getuid?.() ?? -1,
): string | null {
  if (uid === 0) return null;
  try {
    const capEff = /^CapEff:\s*([0-9a-f]+)$/m.exec(read("/proc/self/status"))?.[1];
    if (capEff && (BigInt(`0x${capEff}`) >> 23n) & 1n) return null;
    const soft = /^Max nice priority\s+(\S+)/m.exec(read("/proc/self/limits"))?.[1];
    if (soft === "unlimited" || Number(soft) >= 20) return null;
    return `no CAP_SYS_NICE and RLIMIT_NICE ${soft ?? "unknown"} < 20`;
  } catch {
    return "no /proc to check CAP_SYS_NICE and RLIMIT_NICE";
  }
}

/**
 * Sets every thread of `pid` to SCHED_IDLE or SCHED_OTHER at nice 0 with `chrt -a`, and checks that it
 * took: a thread started while `chrt` went through the list may have missed it, so once more then.
 * Whether every thread has it.
 */
export async function setPriority(chrt: string, pid: number, to: Priority): Promise<boolean> {
  const want = to === "idle" ? 5 : 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    const proc = Bun.spawn([chrt, "-a", to === "idle" ? "-i" : "-o", "-p", "0", String(pid)], {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    });
    if ((await proc.exited) !== 0) return false;
    try {
      if (threadPolicies(pid).every((p) => p === want)) return true;
    } catch {
      return false; // gone
    }
  }
  return false;
}

/** The scheduling policy of each thread of `pid` (/proc/PID/task/TID/sched: 0 SCHED_OTHER, 5 SCHED_IDLE). */
export function threadPolicies(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const text = readFileSync(`/proc/${pid}/task/${tid}/sched`, "utf8");
    return Number(/^policy\s*:\s*(\d+)/m.exec(text)?.[1] ?? -1);
  });
}
