// Many tenants with real traffic (issue 11): touches 1,000 tenants with reads and writes and reports
// the server's RSS after 100 / 300 / 1,000 of them, then the p50/p99 of a tenant read (GET /tenant on
// one tenant, closed loop) and of a spread read (GET /spaces across the last 300 tenants touched).
// Env of this process (e.g. LEARNSPACE_MEMORY_MB) reaches the server.
// --probe DIR runs the source with bench/heap-probe.ts preloaded (the JS heap at each new RSS high-water mark).
// --binary PATH runs another build (an A/B against a copy of the previous binary).
// --trace FILE writes the server's RSS, RssAnon and RssFile every 20 ms with the phase (tab-separated), and
// /proc/PID/smaps at idle, after the visits, at the end and at each new high (FILE.smaps-idle|visits|end|peak;
// `bun bench/heap-probe.ts smaps FILE…` sums one by mapping).
// Usage: bun bench/tenants.ts [--tenants 1000] [--seconds 3] [--concurrency 16] [--source] [--probe DIR] [--binary PATH] [--trace FILE]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, percentile, round, rssMiB, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const count = Math.min(arg("tenants", 1000), 5000);
const seconds = arg("seconds", 3);
const concurrency = arg("concurrency", 16);
const bun = process.execPath;
const root = join(import.meta.dir, "..");
const port = arg("port", 31201);
const base = `http://127.0.0.1:${port}/api/v1`;

const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-tenants-"));
const seed = Bun.spawnSync([bun, join(import.meta.dir, "seed-tenants.ts"), dataDir, String(count)], { stderr: "inherit" });
if (seed.exitCode !== 0) throw new Error("seeding failed");
const tokens: string[] = JSON.parse(readFileSync(join(dataDir, "bench-tokens.json"), "utf8"));

// The built binary when there is one (what ships: no transpiler, ~9 MiB less idle RSS than the source), else the source.
// The seeding runs from source: a binary older than the tenant schema refuses the files (500), so build first (npm run bench does).
const binary = process.argv.includes("--binary")
  ? (process.argv[process.argv.indexOf("--binary") + 1] as string)
  : join(root, "dist", "learnspace");
const probe = process.argv.includes("--probe") ? (process.argv[process.argv.indexOf("--probe") + 1] as string) : null;
const source = probe !== null || process.argv.includes("--source") || !existsSync(binary);
const preload = probe ? ["--preload", join(import.meta.dir, "heap-probe.ts")] : [];
const server = Bun.spawn(
  [...(source ? [bun, ...preload, join(root, "src", "main.ts")] : [binary]), "serve", "--port", String(port), "--data-dir", dataDir],
  {
    cwd: root,
    env: { ...process.env, LEARNSPACE_QUIET: "1", ...(probe ? { HEAP_PROBE_OUT: probe } : {}) },
    stdout: "ignore",
    stderr: "inherit",
  },
);

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The server's RSS sampled every 20 ms, its peak per phase (MiB): where the high-water mark is reached. */
let phase = "start";
const traceFile = process.argv.includes("--trace") ? (process.argv[process.argv.indexOf("--trace") + 1] as string) : null;
/** --trace: the samples (ms since the server started, phase, RSS, RssAnon, RssFile in MiB), written at the end. */
const trace: string[] = ["ms\tphase\trss\tanon\tfile"];
const traceT0 = performance.now();
let smapsPeakKb = 0;
const smapsAt = (name: string) => {
  if (traceFile) writeFileSync(`${traceFile}.smaps-${name}`, readFileSync(`/proc/${server.pid}/smaps`, "utf8"));
};
const peakByPhase: Record<string, number> = {};
const sampler = setInterval(() => {
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peakByPhase[phase] = Math.max(peakByPhase[phase] ?? 0, round(kb / 1024));
    if (traceFile) {
      const f = (k: string) => round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
      trace.push(`${Math.round(performance.now() - traceT0)}\t${phase}\t${f("VmRSS")}\t${f("RssAnon")}\t${f("RssFile")}`);
      if (kb > smapsPeakKb + 1024) {
        smapsPeakKb = kb;
        smapsAt("peak");
      }
    }
  } catch {}
}, 20);

/** The process's RSS high-water mark so far (VmHWM), MiB. */
const highWaterMiB = (pid: number) => round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

// What one school does in a visit: reads of the tenant, members, roles and spaces; two writes.
async function visit(token: string, i: number) {
  await call(token, "GET", "/tenant");
  await call(token, "GET", "/members");
  await call(token, "GET", "/roles");
  const space = (await call(token, "POST", "/spaces", { name: `Space ${i}` })) as { id: string };
  await call(token, "POST", "/posts", { spaceId: space.id, title: `Hello ${i}`, content: `Hello from ${i}` });
  await call(token, "GET", "/spaces");
  await call(token, "PATCH", "/tenant", { name: `Bench school ${i}` });
}

const results: Record<string, unknown> = {
  tenants: count,
  memoryMb: process.env.LEARNSPACE_MEMORY_MB ?? "default",
  server: source ? "source" : "binary",
};
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  results.rssIdleMiB = rssMiB(server.pid);
  smapsAt("idle");
  const visitMs: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 100 === 0) phase = `visits ${i + 1}-${Math.min(i + 100, count)}`;
    const t0 = performance.now();
    await visit(tokens[i] as string, i);
    visitMs.push(performance.now() - t0);
    if (i + 1 === 100 || i + 1 === 300 || i + 1 === count) results[`rssAfter${i + 1}MiB`] = rssMiB(server.pid);
  }
  results.rssHighWaterAfterVisitsMiB = highWaterMiB(server.pid);
  smapsAt("visits");
  visitMs.sort((a, b) => a - b);
  results.visitMs = { p50: round(percentile(visitMs, 0.5)), p99: round(percentile(visitMs, 0.99)) };
  phase = "tenant read";
  results.tenantRead = await load(`${base}/tenant`, { seconds, concurrency, headers: { authorization: `Bearer ${tokens[0]}` } });
  // Spread: each request a different tenant among the last 300 touched (open handles or reopened ones).
  phase = "spread read";
  const spread: number[] = [];
  const end = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && spread.length < 200_000) {
        const t = tokens[count - 1 - (n++ % Math.min(300, count))] as string;
        const t0 = performance.now();
        await call(t, "GET", "/spaces");
        spread.push(performance.now() - t0);
      }
    }),
  );
  spread.sort((a, b) => a - b);
  results.spreadRead = { requests: spread.length, p50: round(percentile(spread, 0.5)), p99: round(percentile(spread, 0.99)) };
  results.rssEndMiB = rssMiB(server.pid);
  smapsAt("end");
  results.rssHighWaterMiB = highWaterMiB(server.pid);
  results.rssPeakByPhaseMiB = peakByPhase;
} finally {
  clearInterval(sampler);
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
  if (traceFile) writeFileSync(traceFile, `${trace.join("\n")}\n`);
}
console.log(JSON.stringify(results, null, 2));
