// Shared pieces of the benchmarks: a bounded closed-loop load generator, percentiles, a tenant.
import { provisionTenant } from "../src/modules/tenant/provision";
import { openSession, PERSONAL_SESSION_MS } from "../src/platform/auth/sessions";
import type { Runtime } from "../src/platform/runtime";

export type LoadResult = { requests: number; rps: number; p50: number; p99: number; errors: number };

/**
 * Sends requests from `concurrency` loops for `seconds` (bounded in time and count) to loopback only;
 * `stop.stopped` ends it earlier (a phase that lasts until something else is done).
 */
export async function load(
  url: string,
  opts: {
    seconds?: number;
    concurrency?: number;
    headers?: Record<string, string>;
    maxRequests?: number;
    stop?: { stopped: boolean };
  } = {},
): Promise<LoadResult> {
  const seconds = opts.seconds ?? 3;
  const concurrency = opts.concurrency ?? 16;
  const max = opts.maxRequests ?? 500_000;
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error("benchmarks target loopback only");
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && latencies.length + errors < max && !opts.stop?.stopped) {
        const t0 = performance.now();
        const res = await fetch(url, { headers: opts.headers });
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: Math.round(latencies.length / elapsed),
    p50: round(percentile(latencies, 0.5)),
    p99: round(percentile(latencies, 0.99)),
    errors,
  };
}

/**
 * Open loop: `rate` requests a second for `seconds`, sent on schedule whatever the answers do, each
 * timed from when it was due (a late send counts against the server; no coordinated omission). What
 * a school feels at a load under the server's capacity, where `load` (closed loop, every loop busy)
 * measures the queue at saturation.
 */
export async function openLoad(
  url: string,
  opts: { rate: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error("benchmarks target loopback only");
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.round(opts.rate * opts.seconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  const one = async (due: number) => {
    try {
      const res = await fetch(url, { headers: opts.headers });
      await res.arrayBuffer();
      if (res.ok) latencies.push(performance.now() - due);
      else errors++;
    } catch {
      errors++;
    }
  };
  for (let sent = 0; sent < total; ) {
    const now = performance.now();
    // Every request due by now goes out (a timer fires late on a busy machine: they are still due then).
    for (let due = started + (sent * 1000) / opts.rate; sent < total && due <= now; due = started + (++sent * 1000) / opts.rate)
      pending.push(one(due));
    await Bun.sleep(1);
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: Math.round(latencies.length / elapsed),
    p50: round(percentile(latencies, 0.5)),
    p99: round(percentile(latencies, 0.99)),
    errors,
  };
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
export const round = (n: number) => Math.round(n * 100) / 100;

export async function waitReady(url: string, timeoutMs = 10_000, pollMs = 2): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return performance.now() - t0;
    } catch {}
    await Bun.sleep(pollMs);
  }
  throw new Error(`not ready: ${url}`);
}

/** CPU time (user + sys) a process has used so far, ms (Linux: /proc/<pid>/stat, 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = (require("node:fs").readFileSync(`/proc/${pid}/stat`, "utf8") as string).split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function rssMiB(pid: number): number {
  const status = require("node:fs").readFileSync(`/proc/${pid}/status`, "utf8") as string;
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return round(kb / 1024);
}

/** A tenant `bench` and its owner's session, through the same code as sign-up, in this process. */
export async function benchTenant(rt: Runtime) {
  const tenant = provisionTenant(rt, {
    key: "bench",
    name: "Bench",
    owner: { email: "owner@bench.test", displayName: "Owner", passwordHash: null },
  });
  const session = await openSession(rt, rt.platform.db, {
    accountId: null,
    email: "owner@bench.test",
    tenantId: tenant.tenantId,
    tenantKey: "bench",
    memberId: tenant.memberId,
    sessionType: "personal",
    confirmed: true,
    absoluteExpiresAt: Date.now() + PERSONAL_SESSION_MS,
  });
  return { tenant, session };
}

/**
 * An HTTP client on a thread of its own (a Worker): the time it measures is when the answer reached
 * the socket, even if the server's event loop (this thread) goes on to other work right after
 * answering, which an in-process `fetch` would wait for. `close()` ends the thread.
 */
export function workerClient() {
  const code = `self.onmessage = async (e) => {
    const t0 = performance.now();
    const res = await fetch(e.data.url, e.data.init);
    const body = await res.text();
    postMessage({ ms: performance.now() - t0, status: res.status, body });
  };`;
  const worker = new Worker(URL.createObjectURL(new Blob([code], { type: "application/javascript" })));
  let queue = Promise.resolve() as Promise<unknown>;
  const send = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    const next = queue.then(
      () =>
        new Promise<{ ms: number; status: number; body: string }>((resolve) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.postMessage({ url, init });
        }),
    );
    queue = next.catch(() => {});
    return next;
  };
  return { send, close: () => worker.terminate() };
}
