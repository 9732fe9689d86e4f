// The platform benchmark (issues 2 and 27), one run on one machine: req/s and p50/p99 of a bare Elysia
// route, /healthz (against the previous release's binary, built from --previous in a temp git
// worktree in the same run) and a tenant-file primary-key read through the full stack; the binary's
// cold start to the first /readyz; RSS with 1,000 tenant files known and 200 opened; then, each as
// its own bench script: the exam start (bench/exam.ts), the sign-in storm against the raw argon2id verify
// throughput measured in the same run, the 1,000-tenant run's RSS (bench/tenants.ts) and the notifications'
// fan-out and digest (bench/notifications.ts). --quick runs every part at a smaller scale.
// Usage: bun bench/run.ts [--quick] [--seconds 3] [--rounds 5] [--concurrency 16] [--previous 7cef64c] [--skip previous,exam,signin,tenants,notifications]
// (build the binary first: npm run build, or npm run bench)
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMs, type LoadResult, load, round, rssMiB, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const quick = process.argv.includes("--quick");
const seconds = arg("seconds", quick ? 2 : 3);
const previous = process.argv.includes("--previous") ? (process.argv[process.argv.indexOf("--previous") + 1] as string) : "7cef64c";
const skip = new Set(process.argv.includes("--skip") ? (process.argv[process.argv.indexOf("--skip") + 1] ?? "").split(",") : []);
const scale = quick
  ? { tenants: 100, students: 500, within: 10, signins: 200, signinWithin: 2, digest: 1000, posts: 5 }
  : { tenants: 1000, students: 5000, within: 30, signins: 2000, signinWithin: 10, digest: 10_000, posts: 20 };
const concurrency = arg("concurrency", 16);
const root = join(import.meta.dir, "..");
const binary = join(root, "dist", "learnspace");
if (!existsSync(binary)) throw new Error("build the binary first: npm run build");
const bun = process.execPath;

function spawnServer(cmd: string[], cwd: string, env: Record<string, string>) {
  return Bun.spawn(cmd, { cwd, env: { ...process.env, LEARNSPACE_QUIET: "1", ...env }, stdout: "ignore", stderr: "inherit" });
}

const results: Record<string, unknown> = {};

// 1. Cold start of the binary on an empty directory, to the first 200 from /readyz: median of 20 runs
// (10 with --quick), and the server's CPU time (user + sys) until then, which a busy machine moves less.
const starts: number[] = [];
const startCpu: number[] = [];
const coldRuns = quick ? 10 : 20;
for (let i = 0; i < coldRuns; i++) {
  const dir = mkdtempSync(join(tmpdir(), "ls-bench-cold-"));
  const port = 31000 + i;
  const t0 = performance.now();
  const p = spawnServer([binary, "serve", "--port", String(port), "--data-dir", join(dir, "data")], dir, {});
  await waitReady(`http://127.0.0.1:${port}/readyz`, 10_000, 1);
  starts.push(performance.now() - t0);
  startCpu.push(cpuMs(p.pid));
  p.kill();
  await p.exited;
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
results.coldStartMs = {
  median: round(median(starts)),
  min: round(Math.min(...starts)),
  max: round(Math.max(...starts)),
  cpuMedian: median(startCpu),
  runs: coldRuns,
};

// 2. Seed 1,000 tenant files.
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-data-"));
const seedStart = performance.now();
const seed = Bun.spawnSync([bun, join(import.meta.dir, "seed-tenants.ts"), dataDir, String(scale.tenants)], { stderr: "inherit" });
if (seed.exitCode !== 0) throw new Error("seeding failed");
results.seedTenantsMs = round(performance.now() - seedStart);
const tokens: string[] = JSON.parse(readFileSync(join(dataDir, "bench-tokens.json"), "utf8"));

// 3. Throughput: bare Elysia vs /healthz vs full-stack tenant read (one server process each, both up
// throughout). One 3 s closed loop per side swings ±10 % on two cores shared with the load generator
// (bench/README.md, session 13), so each side is measured `rounds` times, alternated (the order
// reversed every other round, so a drift weighs on every side alike), after a 1 s warm-up each; the
// figures are the medians, and the ratio is also given per round.
const rounds = arg("rounds", quick ? 3 : 5);
const bare = spawnServer([bun, join(import.meta.dir, "bare-server.ts")], root, { PORT: "31101" });
const server = spawnServer([binary, "serve", "--port", "31102", "--data-dir", dataDir], root, { LEARNSPACE_TENANT_HANDLES: "256" });
await waitReady("http://127.0.0.1:31101/bare");
await waitReady("http://127.0.0.1:31102/readyz");

// 4. RSS of the freshly started server with 1,000 tenant files known, then with 200 of them opened.
results.rssIdleMiB = rssMiB(server.pid);
for (let i = 0; i < Math.min(200, tokens.length); i++) {
  const res = await fetch("http://127.0.0.1:31102/api/v1/tenant", { headers: { authorization: `Bearer ${tokens[i]}` } });
  if (!res.ok) throw new Error(`tenant ${i}: ${res.status}`);
}
results.rss200OpenMiB = rssMiB(server.pid);

const sides = {
  bareElysia: { url: "http://127.0.0.1:31101/bare", headers: undefined },
  healthz: { url: "http://127.0.0.1:31102/healthz", headers: undefined },
  tenantRead: { url: "http://127.0.0.1:31102/api/v1/tenant", headers: { authorization: `Bearer ${tokens[0]}` } },
} as const;
type Side = keyof typeof sides;
const names = Object.keys(sides) as Side[];
const runs: Record<Side, LoadResult[]> = { bareElysia: [], healthz: [], tenantRead: [] };
for (const name of names) await load(sides[name].url, { seconds: 1, concurrency, headers: sides[name].headers });
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 ? [...names].reverse() : names)
    runs[name].push(await load(sides[name].url, { seconds, concurrency, headers: sides[name].headers }));
}
/** The round of median req/s, with every round's req/s beside it. */
const medianRun = (xs: LoadResult[]) => ({
  ...([...xs].sort((a, b) => a.rps - b.rps)[xs.length >> 1] as LoadResult),
  roundsRps: xs.map((x) => x.rps),
});
for (const name of names) results[name] = medianRun(runs[name]);
// After the load runs the allocator keeps what it grew to; reported for completeness.
results.rssAfterLoadMiB = rssMiB(server.pid);
for (const p of [bare, server]) p.kill();
await Promise.all([bare.exited, server.exited]);
rmSync(dataDir, { recursive: true, force: true });

const percentOf = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;
const perRound = runs.tenantRead.map((t, i) => t.rps / (runs.bareElysia[i] as LoadResult).rps).sort((a, b) => a - b);
results.tenantReadVsBare = {
  ofMedians: percentOf((results.tenantRead as LoadResult).rps, (results.bareElysia as LoadResult).rps),
  perRound: `min ${percentOf(perRound[0] as number, 1)}, median ${percentOf(median(perRound), 1)}, max ${percentOf(perRound.at(-1) as number, 1)}`,
  rounds,
};

/** Builds the binary of `commit` in a temp git worktree (node_modules shared); null when it cannot. */
function buildPrevious(commit: string): { binary: string; cleanup: () => void } | null {
  const dir = mkdtempSync(join(tmpdir(), "ls-bench-previous-"));
  const cleanup = () => {
    Bun.spawnSync(["git", "worktree", "remove", "--force", dir], { cwd: root });
    rmSync(dir, { recursive: true, force: true });
  };
  const add = Bun.spawnSync(["git", "worktree", "add", "--detach", dir, commit], { cwd: root, stderr: "inherit" });
  if (add.exitCode === 0) {
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
    const build = Bun.spawnSync([bun, "scripts/build.ts"], { cwd: dir, stdout: "ignore", stderr: "inherit" });
    if (build.exitCode === 0) return { binary: join(dir, "dist", "learnspace"), cleanup };
  }
  cleanup();
  return null;
}

// 5. /healthz of this binary against the previous release's, alternated (two rounds each), each on an empty dir.
if (!skip.has("previous")) {
  const prev = buildPrevious(previous);
  if (!prev) results.healthzVsPrevious = `could not build ${previous}`;
  else {
    const rps: Record<string, number[]> = { current: [], previous: [] };
    for (let round = 0; round < 2; round++) {
      for (const [name, bin] of [
        ["current", binary],
        ["previous", prev.binary],
      ] as const) {
        const dir = mkdtempSync(join(tmpdir(), "ls-bench-healthz-"));
        const p = spawnServer([bin, "serve", "--port", "31103", "--data-dir", join(dir, "data")], dir, {});
        await waitReady("http://127.0.0.1:31103/readyz");
        (rps[name] as number[]).push((await load("http://127.0.0.1:31103/healthz", { seconds, concurrency })).rps);
        p.kill();
        await p.exited;
        rmSync(dir, { recursive: true, force: true });
      }
    }
    prev.cleanup();
    const best = (xs: number[]) => Math.max(...xs);
    results.healthzVsPrevious = {
      previous,
      currentRps: rps.current,
      previousRps: rps.previous,
      ratio: `${Math.round((best(rps.current as number[]) / best(rps.previous as number[])) * 100)} %`,
    };
  }
}

/** Runs another bench script and returns its JSON output (its last JSON object on stdout). */
function script(name: string, args: string[], env: Record<string, string> = {}): unknown {
  const r = Bun.spawnSync([bun, join(import.meta.dir, name), ...args], { cwd: root, env: { ...process.env, ...env }, stderr: "inherit" });
  const out = r.stdout.toString();
  const start = out.indexOf("{\n");
  if (r.exitCode !== 0 || start < 0) return `failed (exit ${r.exitCode})`;
  return JSON.parse(out.slice(start));
}

// 6. Exam start: students of one school start, save three times and submit; others read meanwhile.
if (!skip.has("exam")) results.examStart = script("exam.ts", ["--students", String(scale.students), "--within", String(scale.within)]);

// 7. Sign-in storm: a class told "sign in now", 2,000 arriving within 10 s (200/s, several times what
// the cores can hash) while 20 other schools read; sign-ins only (exam.ts --signin-only). The target's
// figure: sign-ins per second while any is pending (first arrival to last signed in) against the raw
// argon2id verify rate that exam.ts measures just before, with the others' reads already running (the
// same background; bench/README.md, session 10). Also the raw rate of an idle machine, measured here
// as before session 10, and the session 9 figure (sign-ins over the whole run ÷ the idle raw rate).
if (!skip.has("signin")) {
  const hash = await Bun.password.hash("Passw0rd!", { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
  const parallel = navigator.hardwareConcurrency;
  const end = performance.now() + seconds * 2000;
  let verified = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < end) if (await Bun.password.verify("Passw0rd!", hash)) verified++;
    }),
  );
  const idleRaw = verified / ((performance.now() - t0) / 1000);
  const storm = script("exam.ts", [
    "--students",
    String(scale.signins),
    "--within",
    String(scale.signinWithin),
    "--signin-only",
    "--raw-seconds",
    String(seconds * 2),
  ]) as { signInStorm?: { signedInPerSecondWhilePending: number; signedInPerSecondWholeRun: number; pendingSeconds: number } };
  const s = storm?.signInStorm;
  const percent = (x: number) => `${Math.round((x / idleRaw) * 100)} %`;
  results.signInStorm = {
    rawVerifyPerSecondIdle: round(idleRaw),
    whilePendingOfIdleRaw: s ? percent(s.signedInPerSecondWhilePending) : null,
    allWithin60s: s ? s.pendingSeconds <= 60 : null,
    session9Measure: s ? { signedInPerSecond: s.signedInPerSecondWholeRun, ofRawVerify: percent(s.signedInPerSecondWholeRun) } : null,
    run: storm,
  };
}

// 8. Memory after traffic touching every tenant, at the default budget.
if (!skip.has("tenants")) {
  const memoryMb = process.env.LEARNSPACE_MEMORY_MB ?? "128";
  const t = script("tenants.ts", ["--tenants", String(scale.tenants), "--seconds", String(seconds)], {
    LEARNSPACE_MEMORY_MB: memoryMb,
  }) as {
    rssEndMiB?: number;
    rssHighWaterMiB?: number;
  };
  const budget = Number(memoryMb) * 1.25;
  results.tenantsRun = { ...(typeof t === "object" ? t : { result: t }), budgetPlus25PercentMiB: round((budget * 1e6) / 1048576) };
}

// 9. Notifications: fan-out to 10 vs 1,000, a digest of 10,000 members, pending due dates.
if (!skip.has("notifications")) {
  results.notifications = script("notifications.ts", ["--posts", String(scale.posts), "--digest", String(scale.digest), "--due", "2000"]);
}

results.quick = quick;
console.log(JSON.stringify(results, null, 2));
