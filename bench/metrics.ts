// The cost of /metrics' per-request series (issue 8): tenant-read throughput (GET /api/v1/tenant,
// the full stack as in bench/run.ts) of the compiled binary with LEARNSPACE_METRICS=0 and with
// metrics on, alternating servers over several rounds so that machine noise hits both alike.
// Usage: bun bench/metrics.ts [--seconds 3] [--concurrency 16] [--rounds 4]   (build first: npm run build)
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, round, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const seconds = arg("seconds", 3);
const concurrency = arg("concurrency", 16);
const rounds = arg("rounds", 4);
const binary = join(import.meta.dir, "..", "dist", "learnspace");
if (!existsSync(binary)) throw new Error("build the binary first: npm run build");

const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-metrics-"));
const seed = Bun.spawnSync([process.execPath, join(import.meta.dir, "seed-tenants.ts"), dataDir, "1"], { stderr: "inherit" });
if (seed.exitCode !== 0) throw new Error("seeding failed");
const [token] = JSON.parse(readFileSync(join(dataDir, "bench-tokens.json"), "utf8")) as string[];
const headers = { authorization: `Bearer ${token}` };

async function measure(metrics: boolean, port: number) {
  const server = Bun.spawn([binary, "serve", "--port", String(port), "--data-dir", dataDir], {
    env: { ...process.env, LEARNSPACE_QUIET: "1", LEARNSPACE_METRICS: metrics ? "1" : "0" },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`);
    await load(`http://127.0.0.1:${port}/api/v1/tenant`, { seconds: 1, concurrency, headers }); // warm-up
    const r = await load(`http://127.0.0.1:${port}/api/v1/tenant`, { seconds, concurrency, headers });
    if (r.errors) throw new Error(`${r.errors} errors`);
    if (metrics && (await fetch(`http://127.0.0.1:${port}/metrics`)).status !== 200) throw new Error("metrics not served");
    return r;
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
}

const off: number[] = [];
const on: number[] = [];
for (let i = 0; i < rounds; i++) {
  off.push((await measure(false, 31400 + i * 2)).rps);
  on.push((await measure(true, 31401 + i * 2)).rps);
}
rmSync(dataDir, { recursive: true, force: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const cost = 1 - median(on) / median(off);
console.log(
  JSON.stringify({ rounds: { off, on }, medianOff: median(off), medianOn: median(on), metricsCost: `${round(cost * 100)} %` }, null, 2),
);
