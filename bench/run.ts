// The platform benchmark (issue 2): req/s and p50/p99 of a bare Elysia route, /healthz and a
// tenant-file primary-key read through the full stack (token verify + tenant handle); the binary's
// cold start to the first /readyz; RSS with 1,000 tenant files known and 200 opened.
// Usage: bun bench/run.ts [--seconds 3] [--concurrency 16]   (build the binary first: npm run build)
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, round, rssMiB, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const seconds = arg("seconds", 3);
const concurrency = arg("concurrency", 16);
const root = join(import.meta.dir, "..");
const binary = join(root, "dist", "learnspace");
if (!existsSync(binary)) throw new Error("build the binary first: npm run build");
const bun = process.execPath;

function spawnServer(cmd: string[], cwd: string, env: Record<string, string>) {
  return Bun.spawn(cmd, { cwd, env: { ...process.env, LEARNSPACE_QUIET: "1", ...env }, stdout: "ignore", stderr: "inherit" });
}

const results: Record<string, unknown> = {};

// 1. Cold start of the binary on an empty directory, to the first 200 from /readyz (median of 5).
const starts: number[] = [];
for (let i = 0; i < 5; i++) {
  const dir = mkdtempSync(join(tmpdir(), "ls-bench-cold-"));
  const port = 31000 + i;
  const t0 = performance.now();
  const p = spawnServer([binary, "serve", "--port", String(port), "--data-dir", join(dir, "data")], dir, {});
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  starts.push(performance.now() - t0);
  p.kill();
  await p.exited;
  rmSync(dir, { recursive: true, force: true });
}
starts.sort((a, b) => a - b);
results.coldStartMs = { median: round(starts[2] as number), min: round(starts[0] as number), max: round(starts[4] as number) };

// 2. Seed 1,000 tenant files.
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-data-"));
const seedStart = performance.now();
const seed = Bun.spawnSync([bun, join(import.meta.dir, "seed-tenants.ts"), dataDir, "1000"], { stderr: "inherit" });
if (seed.exitCode !== 0) throw new Error("seeding failed");
results.seed1000TenantsMs = round(performance.now() - seedStart);
const tokens: string[] = JSON.parse(readFileSync(join(dataDir, "bench-tokens.json"), "utf8"));

// 3. Throughput: bare Elysia vs /healthz vs full-stack tenant read (one server process each).
const bare = spawnServer([bun, join(import.meta.dir, "bare-server.ts")], root, { PORT: "31101" });
await waitReady("http://127.0.0.1:31101/bare");
results.bareElysia = await load("http://127.0.0.1:31101/bare", { seconds, concurrency });
bare.kill();
await bare.exited;

const server = spawnServer([binary, "serve", "--port", "31102", "--data-dir", dataDir], root, { LEARNSPACE_TENANT_HANDLES: "256" });
await waitReady("http://127.0.0.1:31102/readyz");

// 4. RSS of the freshly started server with 1,000 tenant files known, then with 200 of them opened.
results.rssIdleMiB = rssMiB(server.pid);
for (let i = 0; i < 200; i++) {
  const res = await fetch("http://127.0.0.1:31102/api/v1/tenant", { headers: { authorization: `Bearer ${tokens[i]}` } });
  if (!res.ok) throw new Error(`tenant ${i}: ${res.status}`);
}
results.rss200OpenMiB = rssMiB(server.pid);

results.healthz = await load("http://127.0.0.1:31102/healthz", { seconds, concurrency });
results.tenantRead = await load("http://127.0.0.1:31102/api/v1/tenant", {
  seconds,
  concurrency,
  headers: { authorization: `Bearer ${tokens[0]}` },
});
// After the load runs the allocator keeps what it grew to; reported for completeness.
results.rssAfterLoadMiB = rssMiB(server.pid);
server.kill();
await server.exited;
rmSync(dataDir, { recursive: true, force: true });

const ratio = (results.tenantRead as { rps: number }).rps / (results.bareElysia as { rps: number }).rps;
results.tenantReadVsBare = `${Math.round(ratio * 100)} %`;
console.log(JSON.stringify(results, null, 2));
