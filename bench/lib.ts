// Shared pieces of the benchmarks: a bounded closed-loop load generator, percentiles, a tenant.
import { insertMember } from "../src/modules/members/create";
import { roleByKey } from "../src/modules/roles/builtin";
import { provisionTenant } from "../src/modules/tenant/provision";
import { openMemberSession, openSession, PERSONAL_SESSION_MS } from "../src/platform/auth/sessions";
import { replaceTenantIndex } from "../src/platform/db/registry";
import { write } from "../src/platform/db/types";
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
 * A school `key` with `members` students (`student<i>@bench.test`), inserted through the real insert
 * code in one transaction and indexed in the platform's e-mail directory, and its owner's session.
 */
export async function seedSchool(rt: Runtime, key: string, members: number) {
  const tenant = provisionTenant(rt, {
    key,
    name: "School",
    owner: { email: "owner@bench.test", displayName: "Owner", passwordHash: null },
  });
  const session = await openMemberSession(rt, {
    email: "owner@bench.test",
    tenantId: tenant.tenantId,
    tenantKey: key,
    memberId: tenant.memberId,
  });
  const emails = rt.tenants.use(tenant.tenantId, (h) =>
    write(h.db, (tx) => {
      const role = roleByKey(tx, "member");
      if (!role) throw new Error("member role missing");
      const out: { email: string; memberId: string }[] = [];
      for (let i = 0; i < members; i++) {
        const email = `student${i}@bench.test`;
        out.push({ email, memberId: insertMember(tx, { displayName: `Student ${i}`, email, userId: `s${i}`, roleId: role.id }).id });
      }
      return out;
    }),
  );
  write(rt.platform.db, (tx) =>
    replaceTenantIndex(tx, tenant.tenantId, [{ email: "owner@bench.test", memberId: tenant.memberId }, ...emails]),
  );
  return { tenant, session };
}
