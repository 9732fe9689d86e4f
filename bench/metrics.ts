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

/** The server's CPU time (user + system): per request it is steadier than req/s on a shared machine. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function measure(metrics: boolean, port: number) {
  const server = Bun.spawn([binary, "serve", "--port", String(port), "--data-dir", dataDir], {
    env: { ...process.env, LEARNSPACE_QUIET: "1", LEARNSPACE_METRICS: metrics ? "1" : "0" },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`);
    await load(`http://127.0.0.1:${port}/api/v1/tenant`, { seconds: 1, concurrency, headers }); // warm-up
    const cpu0 = cpuSeconds(server.pid);
    const r = await load(`http://127.0.0.1:${port}/api/v1/tenant`, { seconds, concurrency, headers });
    const cpuMicrosPerRequest = round(((cpuSeconds(server.pid) - cpu0) / r.requests) * 1e6);
    if (r.errors) throw new Error(`${r.errors} errors`);
    if (metrics && (await fetch(`http://127.0.0.1:${port}/metrics`)).status !== 200) throw new Error("metrics not served");
    return { rps: r.rps, cpuMicrosPerRequest };
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
}

type Run = Awaited<ReturnType<typeof measure>>;
const off: Run[] = [];
const on: Run[] = [];
for (let i = 0; i < rounds; i++) {
  off.push(await measure(false, 31400 + i * 2));
  on.push(await measure(true, 31401 + i * 2));
}
rmSync(dataDir, { recursive: true, force: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const summary = (runs: Run[]) => ({
  rps: runs.map((r) => r.rps),
  medianRps: median(runs.map((r) => r.rps)),
  medianCpuMicrosPerRequest: median(runs.map((r) => r.cpuMicrosPerRequest)),
});
const [a, b] = [summary(off), summary(on)];
console.log(
  JSON.stringify(
    {
      off: a,
      on: b,
      throughputCost: `${round((1 - b.medianRps / a.medianRps) * 100)} %`,
      cpuPerRequestCost: `${round((b.medianCpuMicrosPerRequest / a.medianCpuMicrosPerRequest - 1) * 100)} %`,
    },
    null,
    2,
  ),
);
