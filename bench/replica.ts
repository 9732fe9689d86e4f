// Replication with Litestream (docs/rules/replication.md), against an S3-compatible store
// (LEARNSPACE_TEST_S3_ENDPOINT: Swift from scripts/swift-s3.sh, credentials test:tester/testing):
//   1. stall: the close-time checkpoint while Litestream holds its read lock, TRUNCATE vs PASSIVE;
//   2. rpo: writes paced at 50 and 500/s into a file Litestream replicates (the configuration `serve`
//      generates for the default 1 s), Litestream killed with SIGKILL at a random moment (3 kills per
//      rate), the replica restored: writes lost, of the last second's, and the age of the oldest lost;
//   3. tenants: `serve` (from source) with LEARNSPACE_REPLICA_URL on 1, 100 and 1,000 tenant files
//      made by bench/seed-tenants.ts (the app's own tenant creation; its time is printed), at a sync
//      interval each (`--tenants 1@1s,100@1s,100@10s,1000@10s`), a tenth of the schools active and the
//      others idle for an hour (file times set back: serve checks them as cold files), hot/cold counts
//      and their RPO from serve's status: time to every file's first snapshot, Litestream's RSS and
//      CPU idle (15 s) and while 10 writes/s go to the active schools in turn (15 s),
//      then tenant-read p50/p99 with replication on vs off (servers alternated, 2 rounds each; a closed
//      loop of 16 concurrent for 5 s, then an open loop at half the first closed loop's rate for 5 s). A run stops when Litestream passes `--rss-limit` MiB (default 8,192);
//   4. restore: a school of 10,000 members (bench/seed-members.ts seedSchool) replicated by `serve`, then
//      `restore --from-replica` of everything into an empty data dir (platform file, the school, doctor).
//   5. sched: where the read cost comes from: one `serve` on 100 files, Litestream's scheduling changed in
//      place between phases (nice 5, SIGSTOP, nice 19, SCHED_BATCH, SCHED_IDLE) against a `serve`
//      without replication, each phase a closed loop and an open loop at half the capacity
//      (`--sched-files 100 --sched-sync 1s --sched-rounds 3`).
//   6. rpo-sched: the RPO at 50 writes/s (group commit) with Litestream at nice 5 and under SCHED_IDLE,
//      kills alternated (`--kills 4` each).
//   7. floor: Litestream's CPU floor (docs/rules/replication.md#scheduling): the RPO at 50 writes/s
//      (group commit) with every core busy (`--busy-per-core 1` nice-0 busy loops per core), the floor on vs off, kills
//      alternated (`--kills 4` each, `--floor-seconds 10` of writes each), its raises and raised time;
//      then the floor on cores left as they are (`--quiet-seconds 30`): does it stay idle.
//   bun bench/replica.ts [--only stall,rpo,tenants,restore,sched,rpo-sched,floor] [--tenants 1@1s,100@1s,100@10s,1000@10s] [--rss-limit 8192]
import { Database } from "bun:sqlite";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { closeSqlite, openSqlite, walAutocheckpoint } from "../src/platform/db/sqlite";
import { litestreamConfig, requireLitestream } from "../src/platform/replica/litestream";
import { restoreReplicaFile } from "../src/platform/replica/restore";
import { startReplication } from "../src/platform/replica/supervisor";
import { createRuntime } from "../src/platform/runtime";
import { type LoadResult, load, openLoad, percentile, round, waitReady } from "./lib";
import { seedSchool } from "./seed-members";

const endpoint = process.env.LEARNSPACE_TEST_S3_ENDPOINT;
if (!endpoint) {
  console.error("set LEARNSPACE_TEST_S3_ENDPOINT (bash scripts/swift-s3.sh start DIR PORT)");
  process.exit(2);
}
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = (arg("only") ?? "stall,rpo,tenants,restore").split(",");
const creds = { AWS_ACCESS_KEY_ID: "test:tester", AWS_SECRET_ACCESS_KEY: "testing", AWS_REGION: "us-east-1" };
const env = { ...process.env, ...creds };
const bin = requireLitestream(env);
const root = join(import.meta.dir, "..");
const bun = process.execPath;
const work = mkdtempSync(join(tmpdir(), "learnspace-bench-replica-"));
const table: [string, string][] = [];
/** Litestream's RSS above which a run stops (a shared machine): `--rss-limit` MiB, default 8,192. */
const rssLimit = Number(arg("rss-limit") ?? 8192);
const row = (measure: string, result: string) => {
  table.push([measure, result]);
  console.log(`${measure}: ${result}`);
};

async function bucket() {
  const auth = await fetch(`${endpoint}/auth/v1.0`, { headers: { "x-auth-user": "test:tester", "x-auth-key": "testing" } });
  const name = `bench-${crypto.randomUUID().slice(0, 8)}`;
  await fetch(`${endpoint}/v1/AUTH_test/${name}`, { method: "PUT", headers: { "x-auth-token": auth.headers.get("x-auth-token") ?? "" } });
  return `s3://${name}/appliance?endpoint=${encodeURIComponent(endpoint as string)}&region=us-east-1`;
}

/** Litestream replicating `paths` with the configuration `serve` generates for a 1 s sync interval. */
async function litestream(replicaUrl: string, paths: string[], prefix: string[] = []) {
  const config = join(work, `litestream-${crypto.randomUUID()}.yml`);
  const files = paths.map((p, i) => ({ path: p, name: `f${i}.sqlite` }));
  writeFileSync(config, JSON.stringify(litestreamConfig({ replicaUrl, files, syncMs: 1000 }, env)));
  const proc = Bun.spawn([...prefix, bin, "replicate", "-config", config, "-no-expand-env"], {
    env: { PATH: process.env.PATH ?? "", LITESTREAM_ACCESS_KEY_ID: "test:tester", LITESTREAM_SECRET_ACCESS_KEY: "testing" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const synced = new Set<string>();
  const errors: string[] = [];
  const watch = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      const lines = (rest + new TextDecoder().decode(chunk)).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) {
        if (/msg="(snapshot|wal segment) written"/.test(l)) synced.add(/db=(\S+)/.exec(l)?.[1] ?? "");
        if (/level=ERROR/.test(l)) errors.push(l);
      }
    }
  };
  void watch(proc.stdout);
  void watch(proc.stderr);
  return {
    proc,
    errors,
    async firstSync(timeoutMs = 600_000) {
      const t0 = Date.now();
      while (synced.size < paths.length && Date.now() - t0 < timeoutMs) await Bun.sleep(100);
      return synced.size;
    },
  };
}

/** CPU seconds (user + system) of a process so far; /proc counts clock ticks of 10 ms. */
const cpuOf = (pid: number) => {
  if (!existsSync(`/proc/${pid}/stat`)) return Number.NaN; // exited (a restart): the sample is dropped
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(f[11]) + Number(f[12])) / 100;
};
/** RSS in MiB; 0 once the process is gone (a restart between reading the pid file and /proc). */
const rssOf = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};
const fmt = (n: number) => n.toLocaleString("en-US");

/** A file as `serve` opens it under replication: Litestream owns its checkpoints. */
function seed(path: string, rows = 200) {
  const db = openSqlite(path, undefined, walAutocheckpoint(true));
  db.exec("CREATE TABLE IF NOT EXISTS w (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL)");
  const ins = db.prepare("INSERT INTO w (at, body) VALUES (?, ?)");
  for (let i = 0; i < rows; i++) ins.run(Date.now(), "x".repeat(200));
  return db;
}

async function stall() {
  const url = await bucket();
  const path = join(work, "stall.sqlite");
  seed(path).close();
  const ls = await litestream(url, [path]);
  await ls.firstSync();
  const out: Record<string, number[]> = { TRUNCATE: [], PASSIVE: [] };
  for (let round = 0; round < 3; round++) {
    for (const mode of ["TRUNCATE", "PASSIVE"] as const) {
      const db = seed(path, 100);
      await Bun.sleep(1500); // Litestream has shipped the frames and holds its read lock again
      const t0 = performance.now();
      try {
        db.exec(`PRAGMA wal_checkpoint(${mode})`);
      } catch {
        // SQLITE_BUSY after busy_timeout: the stall is what is measured
      }
      out[mode]?.push(performance.now() - t0);
      if (mode === "PASSIVE") closeSqlite(db);
      else db.close();
    }
  }
  ls.proc.kill("SIGKILL");
  for (const [mode, ms] of Object.entries(out))
    row(`close-time wal_checkpoint(${mode}) under Litestream`, `${ms.map((m) => m.toFixed(0)).join(", ")} ms`);
}

/**
 * Writes at `rate`/s into `db`'s table w for `runMs`, paced: every 10 ms the writes due by then.
 * `grouped`: each tick's writes share one commit, acknowledged when it returns (as serve's group
 * commit does, db/group-commit.ts); else each write commits alone (a script, a CLI). `began`: called
 * as each write transaction begins (serve's tenant store tells the replication supervisor).
 */
async function pacedInserts(db: Database, rate: number, grouped: boolean, runMs: number, began = () => {}) {
  const ins = db.prepare("INSERT INTO w (at, body) VALUES (?, ?) RETURNING id");
  const acked: { id: number; at: number }[] = [];
  const t0 = Date.now();
  while (Date.now() - t0 < runMs) {
    const due = Math.floor(((Date.now() - t0) / 1000) * rate);
    if (grouped) {
      if (acked.length < due) {
        began();
        const ids: number[] = [];
        db.exec("BEGIN IMMEDIATE");
        while (acked.length + ids.length < due) ids.push((ins.get(Date.now(), "x".repeat(200)) as { id: number }).id);
        db.exec("COMMIT");
        const at = Date.now();
        for (const id of ids) acked.push({ id, at });
      }
    } else {
      while (acked.length < due) {
        began();
        acked.push({ id: (ins.get(Date.now(), "x".repeat(200)) as { id: number }).id, at: Date.now() });
      }
    }
    await Bun.sleep(10);
  }
  return { acked, rate: acked.length / ((Date.now() - t0) / 1000) };
}

/** What a restored copy (`out`) lacks of the acknowledged writes: all of them, those older than 1 s before the kill, the last second's, the oldest lost. */
function losses(acked: { id: number; at: number }[], out: string, killedAt: number) {
  const r = new Database(out, { readonly: true });
  const present = new Set((r.query("SELECT id FROM w").all() as { id: number }[]).map((x) => x.id));
  r.close();
  const lost = acked.filter((w) => !present.has(w.id));
  return {
    acked: acked.length,
    lost: lost.length,
    lostOld: lost.filter((w) => w.at < killedAt - 1000).length,
    lastSecond: acked.filter((w) => w.at >= killedAt - 1000).length,
    oldestLostMs: lost.length ? killedAt - Math.min(...lost.map((w) => w.at)) : 0,
  };
}

/**
 * One kill: writes at `rate`/s for 6 s plus a random part of a second, Litestream killed, the replica
 * restored.
 */
async function rpoOnce(rate: number, grouped: boolean, prefix: string[] = []) {
  const url = await bucket();
  const path = join(work, `rpo-${rate}-${crypto.randomUUID()}.sqlite`);
  const db = seed(path, 10);
  const ls = await litestream(url, [path], prefix);
  await ls.firstSync();
  // The kill falls anywhere in Litestream's sync cycle, not at a fixed phase of it.
  const written = await pacedInserts(db, rate, grouped, 6000 + Math.random() * 1000);
  const killedAt = Date.now();
  ls.proc.kill("SIGKILL");
  await ls.proc.exited;
  db.close();
  const out = join(work, `rpo-${rate}-restored-${crypto.randomUUID()}.sqlite`);
  const t1 = performance.now();
  await restoreReplicaFile({ replicaUrl: url, name: "f0.sqlite", out, env });
  const restoreMs = performance.now() - t1;
  return { ...losses(written.acked, out, killedAt), restoreMs, rate: written.rate, errors: ls.errors };
}

async function rpo(rate: number, grouped: boolean) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await rpoOnce(rate, grouped));
  const errors = runs.flatMap((r) => r.errors);
  row(
    `RPO at ${rate} writes/s, ${grouped ? "a commit per 10 ms (group commit, as serve)" : "a commit per write"} (3 SIGKILLs of Litestream at random moments)`,
    `${runs.map((r) => `${r.lost} of the last second's ${r.lastSecond} lost (oldest ${r.oldestLostMs} ms before the kill)`).join("; ")}; ` +
      `${runs.map((r) => r.rate.toFixed(0)).join(", ")} writes/s reached; restore of the file ${runs.map((r) => r.restoreMs.toFixed(0)).join(", ")} ms; ` +
      `Litestream errors: ${errors.length}${errors.length ? ` (${/error="([^"]*)"/.exec(errors[0] as string)?.[1] ?? errors[0]})` : ""}`,
  );
}

/** Servers still running: stopped (with their Litestream) before the work dir goes, even after an error. */
const running = new Set<ReturnType<typeof Bun.spawn>>();

/** `serve` from source on `dataDir`, replicating to `replicaUrl` unless null; `port` fixed. */
async function serve(dataDir: string, port: number, replicaUrl: string | null, sync = "1s") {
  const proc = Bun.spawn([bun, join(root, "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir], {
    cwd: root,
    env: {
      ...env,
      LEARNSPACE_QUIET: process.env.BENCH_SERVE_LOG ? "" : "1",
      LEARNSPACE_REPLICA_URL: replicaUrl ?? "",
      LEARNSPACE_REPLICA_SYNC: sync,
      LEARNSPACE_COMMUNITY_RATE_LIMIT: "0",
    },
    // BENCH_SERVE_LOG=FILE: serve's log lines (replica.started, replica.restart …) appended there (a
    // Bun.file truncated it: each server of the on/off rounds wiped the one before's lines).
    stdout: process.env.BENCH_SERVE_LOG ? openSync(process.env.BENCH_SERVE_LOG, "a") : "ignore",
    stderr: "inherit",
  });
  running.add(proc);
  await waitReady(`http://127.0.0.1:${port}/readyz`, 60_000);
  const litestreamPid = () => (replicaUrl ? Number(readFileSync(join(dataDir, "litestream.pid"), "utf8")) : 0);
  return {
    proc,
    litestreamPid,
    /** Until every replicated file has had its first snapshot (serve's status file, written every 5 s). */
    async replicated(files: number, timeoutMs = 900_000) {
      const t0 = performance.now();
      const statusFile = join(dataDir, "replica-status.json");
      while (performance.now() - t0 < timeoutMs) {
        if (existsSync(statusFile)) {
          const s = JSON.parse(readFileSync(statusFile, "utf8")) as { files: { lastSyncAt: number | null }[] };
          if (s.files.length >= files && s.files.every((f) => f.lastSyncAt !== null)) return (performance.now() - t0) / 1000;
        }
        if (rssOf(litestreamPid()) > rssLimit) throw new Error(`Litestream passed ${rssLimit} MiB before every file was replicated`);
        await Bun.sleep(500);
      }
      throw new Error("files not replicated in time");
    },
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      running.delete(proc);
    },
  };
}

/**
 * Until the running Litestream is past its start (s waited): every file checked once (its
 * `litestream_sync_count` above 0) and no store request for 2 s (`litestream_replica_operation_total`
 * unchanged: each file's first sync LISTs its replica's position, ~4 requests a file, and Swift runs on the
 * same cores). The reads with replication on measure the steady state, not a start's burst; `capMs` at most.
 */
async function pastStart(dataDir: string, files: number, capMs = 120_000) {
  const t0 = performance.now();
  let ops = -1;
  let quietSince = performance.now();
  while (performance.now() - t0 < capMs) {
    await Bun.sleep(500);
    try {
      const { addr } = JSON.parse(readFileSync(join(dataDir, "litestream.yml"), "utf8")) as { addr: string };
      const text = await (await fetch(`http://${addr}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
      // A file's series exists from its open on; its count moves at its first check.
      const checked = [...text.matchAll(/^litestream_sync_count\{[^}]*\} (\S+)$/gm)].filter((m) => Number(m[1]) > 0).length;
      const now = [...text.matchAll(/^litestream_replica_operation_total\{[^}]*\} (\S+)$/gm)].reduce((a, m) => a + Number(m[1]), 0);
      if (now !== ops) [ops, quietSince] = [now, performance.now()];
      if (checked >= files && performance.now() - quietSince >= 2000) break;
    } catch {
      // Litestream not answering yet
    }
  }
  return round((performance.now() - t0) / 1000);
}

/** Litestream's CPU (% of one core) and peak RSS over `seconds`, `tick` called every 100 ms. */
async function sample(pid: number, seconds: number, tick: (i: number) => Promise<void> | void = () => {}) {
  const cpu0 = cpuOf(pid);
  const t0 = performance.now();
  let peak = 0;
  for (let i = 0; performance.now() - t0 < seconds * 1000; i++) {
    await tick(i);
    peak = Math.max(peak, rssOf(pid));
    await Bun.sleep(100);
  }
  return { cpu: ((cpuOf(pid) - cpu0) / ((performance.now() - t0) / 1000)) * 100, rss: peak };
}

/** The open loop's rate: `--open-rate`, else half the first closed loop's req/s (then the same for every server). */
let openRate = Number(arg("open-rate") ?? 0);

/** Tenant reads: a closed loop (16 concurrent: the queue of a saturated server), then an open loop at `openRate` (what a school feels). */
async function readP99(port: number, token: string, label = "") {
  const url = `http://127.0.0.1:${port}/api/v1/tenant`;
  const headers = { authorization: `Bearer ${token}` };
  await load(url, { seconds: 1, concurrency: 16, headers });
  // When each loop ran (stderr), to set beside a per-second CPU record of Litestream and the store.
  const mark = (what: string) => console.error(`${new Date().toISOString()} ${label} ${what}`);
  mark("closed loop");
  const closed = await load(url, { seconds: 5, concurrency: 16, headers });
  if (!openRate) openRate = Math.max(1, Math.round(closed.rps / 2));
  mark("open loop");
  const open = await openLoad(url, { rate: openRate, seconds: 5, headers });
  mark(`end: closed p99 ${closed.p99} ms, open p99 ${open.p99} ms`);
  return { closed, open };
}

/** Seeds `n` schools through bench/seed-tenants.ts (the app's own tenant creation) once per size. */
const seeded = new Map<number, { dataDir: string; tokens: string[] }>();
function seedTenants(n: number) {
  const known = seeded.get(n);
  if (known) return known;
  const dataDir = join(work, `tenants-${n}`);
  // BENCH_SEEDED=DIR: a copy of DIR/tenants-<n> seeded before (bench/seed-tenants.ts DIR/tenants-<n> <n>), tokens made anew.
  const before = process.env.BENCH_SEEDED && join(process.env.BENCH_SEEDED, `tenants-${n}`);
  if (before && existsSync(before)) {
    Bun.spawnSync(["cp", "-a", before, dataDir]);
    const out = { dataDir, tokens: newTokens(dataDir, n) };
    seeded.set(n, out);
    return out;
  }
  mkdirSync(dataDir);
  const t0 = performance.now();
  const run = Bun.spawnSync([bun, join(import.meta.dir, "seed-tenants.ts"), dataDir, String(n)], { stderr: "inherit" });
  if (run.exitCode !== 0) throw new Error("seeding failed");
  const s = (performance.now() - t0) / 1000;
  row(
    `creating ${fmt(n)} schools (bench/seed-tenants.ts: provisionTenant + an owner session each)`,
    `${s.toFixed(1)} s, ${((s * 1000) / n).toFixed(0)} ms per school`,
  );
  const out = { dataDir, tokens: JSON.parse(readFileSync(join(dataDir, "bench-tokens.json"), "utf8")) as string[] };
  seeded.set(n, out);
  return out;
}

/** Fresh access tokens (they live 15 minutes) for the first `n` schools seeded in `dataDir`. */
function newTokens(dataDir: string, n: number): string[] {
  const run = Bun.spawnSync([bun, join(import.meta.dir, "seed-tenants.ts"), dataDir, String(n), "--tokens"], { stderr: "inherit" });
  if (run.exitCode !== 0) throw new Error("tokens failed");
  return JSON.parse(readFileSync(join(dataDir, "bench-tokens.json"), "utf8")) as string[];
}

/** The machine's load average over the last minute (the machine is shared). */
const load1 = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];

/**
 * Schools as a running appliance has them: the first tenth (at least one) written lately, the others
 * idle for an hour (their files' times set back), so that `serve` checks those as cold files
 * (docs/rules/replication.md#tiers). Returns the tokens of the active schools.
 */
function ageSchools(dataDir: string, tokens: string[]) {
  const active = Math.max(1, Math.ceil(tokens.length / 10));
  const db = new Database(join(dataDir, "platform.sqlite"), { readonly: true });
  const rows = db.query("SELECT id, key FROM tenants WHERE key LIKE 'bench-%'").all() as { id: string; key: string }[];
  db.close();
  const hourAgo = new Date(Date.now() - 3_600_000);
  const now = new Date();
  // bench-<i> is the school of tokens[i] (bench/seed-tenants.ts). The active ones changed now: a data
  // dir seeded before (BENCH_SEEDED) is older than serve's 10 minutes, and every school was cold.
  for (const r of rows) {
    const at = Number(r.key.slice("bench-".length)) < active ? now : hourAgo;
    const f = join(dataDir, "tenants", `${r.id}.sqlite`);
    for (const p of [f, `${f}-wal`]) if (existsSync(p)) utimesSync(p, at, at);
  }
  return active;
}

/** Hot and cold files and their RPO as `serve` last reported them. */
function tiers(dataDir: string) {
  const s = JSON.parse(readFileSync(join(dataDir, "replica-status.json"), "utf8")) as { files: { hot: boolean; rpoSeconds: number }[] };
  const hot = s.files.filter((f) => f.hot);
  const cold = s.files.filter((f) => !f.hot);
  return `${hot.length} hot (RPO ${hot[0]?.rpoSeconds ?? "-"} s), ${cold.length} cold (RPO ${cold[0]?.rpoSeconds ?? "-"} s)`;
}

async function tenants(n: number, sync: string, port: number) {
  const { dataDir, tokens } = seedTenants(n);
  const active = ageSchools(dataDir, tokens);
  const url = await bucket();
  const app = await serve(dataDir, port, url, sync);
  try {
    await measureTenants(n, sync, port, app, dataDir, active, url);
  } catch (e) {
    row(`${fmt(n)} tenant files (+ platform), sync ${sync}`, `stopped: ${(e as Error).message}`);
    await app.stop();
  }
}

/** POST /spaces as the school of `token` (a write transaction in its file); 0 when no answer came in `timeoutMs`. */
const writeSpace = async (port: number, token: string, i: number, timeoutMs = 60_000) => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/spaces`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `Space ${i}` }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
};

/**
 * Writes asked on a schedule (`rate`/s, each sent when due whatever the earlier ones do: an open loop),
 * the school of each taken in turn from `tokens`. `stop()` ends the asking and waits up to `graceMs`
 * for the answers; the writes asked, acknowledged (201), failed (another status or no answer in
 * 60 s) and still unanswered then, the acknowledged ones' latency from when each was due, the slowest
 * and when it was asked (s into the phase). Before, each write waited for the last one's answer: a
 * write stuck for 30 s made "10 writes/s" one write, and its latency was never printed.
 */
function pacedWrites(port: number, tokens: string[], rate: number) {
  const t0 = performance.now();
  const done: { at: number; ms: number; status: number }[] = [];
  const pending = new Set<Promise<void>>();
  let asked = 0;
  let stopped = false;
  const pace = (async () => {
    while (!stopped) {
      for (; asked < Math.floor(((performance.now() - t0) / 1000) * rate) + 1; asked++) {
        const due = performance.now();
        const i = asked;
        const p = writeSpace(port, tokens[i % tokens.length] as string, i).then((status) => {
          done.push({ at: (due - t0) / 1000, ms: performance.now() - due, status });
          pending.delete(p);
        });
        pending.add(p);
      }
      await Bun.sleep(20);
    }
  })();
  return {
    async stop(graceMs = 30_000) {
      stopped = true;
      await pace;
      await Promise.race([Promise.all(pending), Bun.sleep(graceMs)]);
      const ok = done.filter((d) => d.status === 201);
      const ms = ok.map((d) => d.ms).sort((a, b) => a - b);
      const slowest = [...done].sort((a, b) => b.ms - a.ms)[0];
      return {
        asked,
        acked: ok.length,
        failed: done.length - ok.length,
        unanswered: asked - done.length,
        p50: round(percentile(ms, 0.5)),
        p99: round(percentile(ms, 0.99)),
        slowest: slowest ? { ms: Math.round(slowest.ms), at: round(slowest.at) } : null,
      };
    },
  };
}
type WriteReport = Awaited<ReturnType<ReturnType<typeof pacedWrites>["stop"]>>;
const writesLine = (w: WriteReport) =>
  `writes asked ${w.asked}, acknowledged ${w.acked}, failed ${w.failed}, unanswered ${w.unanswered}; ` +
  `latency p50 ${w.p50} ms, p99 ${w.p99} ms${w.slowest ? `, slowest ${fmt(w.slowest.ms)} ms (asked at ${w.slowest.at} s)` : ""}`;

/** serve's log lines (BENCH_SERVE_LOG) of `event` written after `since` (ms). */
function logged(event: string, since: number): Record<string, unknown>[] {
  const file = process.env.BENCH_SERVE_LOG;
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.includes(`"event":"${event}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => Date.parse(l.time as string) >= since);
}

/** Rounds of reads with replication on vs off (`--rounds`, default 2 each), alternated. */
const readRounds = Number(arg("rounds") ?? 2);

async function measureTenants(
  n: number,
  sync: string,
  port: number,
  app: Awaited<ReturnType<typeof serve>>,
  dataDir: string,
  active: number,
  url: string,
) {
  // The first snapshots come 50 files a run (docs/rules/replication.md#first-start): 1,000 files took
  // 13 min for 650 at load ~18, so the wait grows with the files.
  const firstS = await app.replicated(n + 1, Math.max(900_000, n * 2_400));
  // Tokens anew: a 1,000-file run outlives the seeding's (15 minutes); the last is a cold school's.
  const all = newTokens(dataDir, Math.min(n, active + 1));
  const tokens = all.slice(0, active);
  const pid = app.litestreamPid();
  const guard = () => {
    if (rssOf(pid) > rssLimit) throw new Error(`Litestream over ${rssLimit} MiB`);
  };
  const idle = await sample(pid, 15, guard);
  const writing = pacedWrites(port, tokens, 10);
  const light = await sample(pid, 15, guard);
  const written = await writing.stop();
  row(
    `${fmt(n)} tenant files (+ platform), sync ${sync}`,
    `all first snapshots within ${firstS.toFixed(0)} s; ${tiers(dataDir)}; Litestream idle ${idle.rss.toFixed(0)} MiB, ${idle.cpu.toFixed(1)} % of a core; ` +
      `10 writes/s across the ${fmt(tokens.length)} active schools ${light.rss.toFixed(0)} MiB, ${light.cpu.toFixed(1)} % (${writesLine(written)}); load ${load1()}`,
  );
  // A promotion (docs/rules/replication.md#restarts): a cold school written, 10 writes/s to the active
  // ones meanwhile, until serve has restarted Litestream and the next one shipped (BENCH_SERVE_LOG).
  const cold = all[active];
  if (process.env.BENCH_SERVE_LOG && cold && n > active) {
    const since = Date.now();
    const coldStatus = await writeSpace(port, cold, 0);
    const until = since + Math.max(30_000, (n + 1) * 100) + 90_000;
    const writing = pacedWrites(port, tokens, 10);
    // The first upload after this restart: a `replica.resumed` of an earlier restart may come after the write.
    const restarted = () => logged("replica.restart", since)[0];
    const resumedAfter = (r = restarted()) => (r ? logged("replica.resumed", Date.parse(r.time as string))[0] : undefined);
    while (Date.now() < until && !resumedAfter()) await Bun.sleep(100);
    const written = await writing.stop();
    const restart = restarted();
    const resumed = resumedAfter(restart);
    row(
      `promotion of a cold school, ${fmt(n)} tenant files, sync ${sync}`,
      (restart
        ? `restart (${restart.reason}) ${Math.round((Date.parse(restart.time as string) - since) / 1000)} s after its write (${coldStatus}); old Litestream stopped in ${restart.stopMs} ms (SIGKILL); ` +
          `first sync of the next one ${resumed ? `${resumed.afterMs} ms` : "not seen"} after the restart began`
        : `no restart seen (the cold write: ${coldStatus})`) +
        `; meanwhile 10 writes/s to the active schools: ${writesLine(written)}; load ${load1()}`,
    );
  }
  // Tenant-read latency with replication on vs off, on the same files, servers alternated (up to 100
  // files: with 1,000, each restart re-reads every file and takes minutes). Litestream's CPU per round.
  const reader = tokens[0] as string;
  const onCpu: number[] = [];
  const measureOn = async (lsPid: number) => {
    const c0 = cpuOf(lsPid);
    const t0 = performance.now();
    const r = await readP99(port, reader, "on");
    onCpu.push(((cpuOf(lsPid) - c0) / ((performance.now() - t0) / 1000)) * 100);
    return r;
  };
  const loads = [load1()];
  const waits = [await pastStart(dataDir, n + 1)];
  // Litestream was restarted by the promotion: its pid now, not the idle phase's.
  const on = [await measureOn(app.litestreamPid())];
  await app.stop();
  if (n > 100) {
    row(
      `tenant read, ${fmt(n)} tenant files, sync ${sync}, replication on (one round)`,
      `closed p99 ${on[0]?.closed.p99} ms; open p99 ${on[0]?.open.p99} ms (after the promoted Litestream's start, ${waits[0]} s); Litestream ${onCpu[0]?.toFixed(1)} % of a core; load ${load1()}`,
    );
    return;
  }
  const off = [];
  for (let round = 0; round < readRounds; round++) {
    const plain = await serve(dataDir, port, null, sync);
    off.push(await readP99(port, reader, "off"));
    await plain.stop();
    loads.push(load1());
    if (round === readRounds - 1) break;
    const again = await serve(dataDir, port, url, sync);
    // Every file has its generation: an idle one logs no sync to wait for. Litestream opens each file
    // at its first check and asks the store for its replica's position: the reads start after that
    // (a fixed S/2 + 2 s before: the first checks' ~400 requests to Swift, on the same cores, fell in the reads).
    waits.push(await pastStart(dataDir, n + 1));
    on.push(await measureOn(again.litestreamPid()));
    await again.stop();
  }
  const list = (xs: LoadResult[], k: "p99" | "p50" | "rps") => xs.map((x) => fmt(x[k])).join(", ");
  const mean = (xs: LoadResult[]) => xs.reduce((a, x) => a + x.p99, 0) / xs.length;
  const median = (xs: LoadResult[]) => {
    const v = xs.map((x) => x.p99).sort((a, b) => a - b);
    return v.length % 2 ? (v[(v.length - 1) / 2] as number) : ((v[v.length / 2 - 1] as number) + (v[v.length / 2] as number)) / 2;
  };
  const pct = (a: number, b: number) => `${a >= b ? "+" : ""}${round(((a - b) / b) * 100)} %`;
  for (const loop of ["closed", "open"] as const) {
    const [a, b] = [on.map((x) => x[loop]), off.map((x) => x[loop])];
    row(
      `tenant read (GET /tenant, 5 s, ${loop === "closed" ? "closed loop, 16 concurrent" : `open loop, ${fmt(openRate)} req/s`}), ${fmt(n)} tenant files, sync ${sync}: replication on vs off`,
      `on: p99 ${list(a, "p99")} ms, p50 ${list(a, "p50")} ms, ${list(a, "rps")} req/s; off: p99 ${list(b, "p99")} ms, p50 ${list(b, "p50")} ms, ${list(b, "rps")} req/s; ` +
        `p99 mean ${pct(mean(a), mean(b))}, median ${pct(median(a), median(b))} with replication; Litestream ${onCpu.map((c) => c.toFixed(1)).join(", ")} % of a core in the on rounds ` +
        `(each after its start's store work, ${waits.join(", ")} s); load ${loads.join(", ")}`,
    );
  }
}

/** Litestream's scheduling, set in place on every thread of `pid` (root: a nice may go down again). */
function schedule(pid: number, how: { policy: "other" | "batch" | "idle"; nice: number }) {
  Bun.spawnSync(["chrt", "-a", { other: "-o", batch: "-b", idle: "-i" }[how.policy], "-p", "0", String(pid)]);
  for (const tid of readdirSync(`/proc/${pid}/task`)) Bun.spawnSync(["renice", "-n", String(how.nice), "-p", tid]);
}

/**
 * Where the tenant-read cost of replication comes from (issue 23, session 9): one `serve` on `n` files
 * (a tenth active), Litestream's scheduling switched in place between phases run back to back in
 * rounds (the order rotated): nice 5 (as `serve` starts it), SIGSTOP (no CPU, but its read
 * transactions and memory stay: what is left is the cost of its locks), nice 19, SCHED_BATCH,
 * SCHED_IDLE; then a `serve` without replication on the same files. Each phase: a closed loop (16
 * concurrent, 5 s: the queue at saturation) and an open loop at half the capacity measured with
 * Litestream stopped (5 s: what a school feels), Litestream's CPU over the phase.
 */
async function sched(n: number, sync: string, port: number, rounds = Number(arg("sched-rounds") ?? 3)) {
  const { dataDir, tokens } = seedTenants(n);
  const active = ageSchools(dataDir, tokens);
  const url = await bucket();
  const target = `http://127.0.0.1:${port}/api/v1/tenant`;
  const headers = { authorization: `Bearer ${tokens[0]}` };
  type Phase = { name: string; apply: (pid: number) => void };
  const resume = (pid: number) => process.kill(pid, "SIGCONT");
  const phases: Phase[] = [
    { name: "nice 5", apply: (pid) => schedule(pid, { policy: "other", nice: 5 }) },
    { name: "SIGSTOP", apply: (pid) => process.kill(pid, "SIGSTOP") },
    { name: "nice 19", apply: (pid) => schedule(pid, { policy: "other", nice: 19 }) },
    { name: "SCHED_BATCH nice 5", apply: (pid) => schedule(pid, { policy: "batch", nice: 5 }) },
    { name: "SCHED_IDLE", apply: (pid) => schedule(pid, { policy: "idle", nice: 5 }) },
  ];
  const results = new Map<string, { closed: LoadResult[]; open: LoadResult[]; cpu: number[] }>();
  const note = (name: string, closed: LoadResult, open: LoadResult, cpu: number) => {
    const r = results.get(name) ?? { closed: [], open: [], cpu: [] };
    r.closed.push(closed);
    r.open.push(open);
    r.cpu.push(cpu);
    results.set(name, r);
  };
  let rate = 0;
  for (let r = 0; r < rounds; r++) {
    const app = await serve(dataDir, port, url, sync);
    // Later rounds: every file has its generation and an idle one logs no sync (nothing to wait for).
    if (r === 0) await app.replicated(n + 1);
    else await Bun.sleep(5000);
    await load(target, { seconds: 1, concurrency: 16, headers });
    let pid = app.litestreamPid();
    if (!rate) {
      process.kill(pid, "SIGSTOP");
      rate = Math.round((await load(target, { seconds: 5, concurrency: 16, headers })).rps / 2);
      resume(pid);
      row(
        `open-loop rate (half the closed-loop req/s with Litestream stopped), ${fmt(n)} files (${active} active), sync ${sync}`,
        `${fmt(rate)} req/s`,
      );
    }
    for (let i = 0; i < phases.length; i++) {
      const phase = phases[(i + r) % phases.length] as Phase;
      pid = app.litestreamPid();
      phase.apply(pid);
      await Bun.sleep(500);
      const cpu0 = cpuOf(pid);
      const t0 = performance.now();
      const closed = await load(target, { seconds: 5, concurrency: 16, headers });
      const open = await openLoad(target, { rate, seconds: 5, headers });
      const cpu = ((cpuOf(pid) - cpu0) / ((performance.now() - t0) / 1000)) * 100;
      if (Number.isNaN(cpu) || app.litestreamPid() !== pid) {
        console.log(`  round ${r + 1}, ${phase.name}: dropped (Litestream restarted during the phase)`);
        continue;
      }
      note(phase.name, closed, open, cpu);
      console.log(
        `  round ${r + 1}, ${phase.name} (${tiers(dataDir)}): closed p99 ${closed.p99} ms ${closed.rps}/s; open p99 ${open.p99} p50 ${open.p50} ms; Litestream ${cpu.toFixed(1)} %`,
      );
      resume(pid);
      schedule(pid, { policy: "other", nice: 5 });
    }
    await app.stop();
    const plain = await serve(dataDir, port, null, sync);
    await load(target, { seconds: 1, concurrency: 16, headers });
    const [closed, open] = [
      await load(target, { seconds: 5, concurrency: 16, headers }),
      await openLoad(target, { rate, seconds: 5, headers }),
    ];
    note("no replication", closed, open, 0);
    console.log(`  round ${r + 1}, no replication: closed p99 ${closed.p99} ms ${closed.rps}/s; open p99 ${open.p99} p50 ${open.p50} ms`);
    await plain.stop();
  }
  const mean = (xs: LoadResult[], k: "p99" | "p50" | "rps") => xs.reduce((a, x) => a + x[k], 0) / xs.length;
  const base = results.get("no replication") as { closed: LoadResult[]; open: LoadResult[] };
  const vs = (xs: LoadResult[], of: LoadResult[]) => {
    const d = ((mean(xs, "p99") - mean(of, "p99")) / mean(of, "p99")) * 100;
    return `${d >= 0 ? "+" : ""}${d.toFixed(0)} %`;
  };
  for (const [name, r] of results)
    row(
      `tenant read, ${fmt(n)} files, sync ${sync}, Litestream ${name} (${rounds} rounds)`,
      `closed (16 concurrent): p99 ${r.closed.map((x) => x.p99).join(", ")} ms, ${r.closed.map((x) => fmt(x.rps)).join(", ")} req/s (p99 ${vs(r.closed, base.closed)}); ` +
        `open (${fmt(rate)}/s): p99 ${r.open.map((x) => x.p99).join(", ")} ms, p50 ${r.open.map((x) => x.p50).join(", ")} ms (p99 ${vs(r.open, base.open)}); ` +
        `Litestream ${r.cpu.map((c) => c.toFixed(1)).join(", ")} % of a core`,
    );
}

/**
 * The RPO as Litestream's scheduling changes it on a machine whose cores are busy: 50 writes/s with
 * group commit, Litestream at nice 5 and under SCHED_IDLE (`chrt -i 0`), kills alternated.
 */
async function rpoSched(kills = 4) {
  const policies: [string, string[]][] = [
    ["nice 5", ["nice", "-n", "5"]],
    ["SCHED_IDLE", ["chrt", "-i", "0"]],
  ];
  const out = new Map<string, Awaited<ReturnType<typeof rpoOnce>>[]>();
  for (let i = 0; i < kills; i++)
    for (const [name, prefix] of i % 2 ? [...policies].reverse() : policies) {
      const r = await rpoOnce(50, true, prefix);
      out.set(name, [...(out.get(name) ?? []), r]);
      console.log(`  ${name}: ${r.lost} of the last second's ${r.lastSecond} lost, oldest ${r.oldestLostMs} ms`);
    }
  for (const [name, runs] of out)
    row(
      `RPO at 50 writes/s (group commit), Litestream ${name}, busy machine (${kills} SIGKILLs)`,
      `${runs.map((r) => `${r.lost} of ${r.lastSecond} (oldest ${r.oldestLostMs} ms)`).join("; ")}; errors ${runs.flatMap((r) => r.errors).length}`,
    );
}

/**
 * Busy loops at nice 0, `--busy-per-core` (default 1) per core (a parallel test run, a saturated
 * server): no idle CPU left for SCHED_IDLE.
 */
const busyLoops = () =>
  Array.from({ length: navigator.hardwareConcurrency * Number(arg("busy-per-core") ?? 1) }, () =>
    Bun.spawn([bun, "-e", "for (;;) {}"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }),
  );

/**
 * One kill under Litestream's CPU floor (docs/rules/replication.md#scheduling): a data dir of a platform
 * file and one school file replicated by the supervisor `serve` runs (startReplication, in this
 * process), 50 writes/s with group commit into the school's file for `seconds` plus a random part of
 * a second, every core busy (`busy`), Litestream SIGKILLed, the school's replica restored. `floor`:
 * each write transaction tells the supervisor, as serve's tenant store does; without, the floor sees no
 * write and Litestream stays under SCHED_IDLE (as before the floor). Also: the floor's raises and how
 * long Litestream was raised, Litestream's CPU over the writes.
 */
async function floorOnce(floor: boolean, busy: boolean, seconds: number) {
  const url = await bucket();
  const dataDir = join(work, `floor-${crypto.randomUUID()}`);
  mkdirSync(join(dataDir, "tenants"), { recursive: true });
  seed(join(dataDir, "platform.sqlite"), 1).close();
  const tenantId = crypto.randomUUID();
  const path = join(dataDir, "tenants", `${tenantId}.sqlite`);
  const db = seed(path, 10);
  const logs: Record<string, unknown>[] = [];
  const rep = startReplication({ dataDir, replicaUrl: url, syncMs: 1000, env, log: (l) => logs.push({ ...l, at: Date.now() }) });
  while ((await rep.status()).some((f) => f.lastSyncAt === null)) await Bun.sleep(100);
  const pid = rep.pid() as number;
  const loops = busy ? busyLoops() : [];
  const t0 = Date.now();
  const cpu0 = cpuOf(pid);
  const load0 = loadAverage();
  // The school file's lag (seconds since its last sync while it is behind) sampled every 250 ms.
  let maxLag = 0;
  let writing = true;
  const sampling = (async () => {
    while (writing) {
      const f = (await rep.status()).find((x) => x.name === `tenants/${tenantId}.sqlite`);
      maxLag = Math.max(maxLag, f?.lagSeconds ?? 0);
      await Bun.sleep(250);
    }
  })();
  const written = await pacedInserts(db, 50, true, seconds * 1000 + Math.random() * 1000, () => {
    if (floor) rep.wrote(path);
  });
  writing = false;
  await sampling;
  const cpu = cpuOf(pid) - cpu0;
  const killedAt = Date.now();
  process.kill(pid, "SIGKILL");
  for (const l of loops) l.kill("SIGKILL");
  await rep.stop();
  db.close();
  const out = join(work, `floor-restored-${crypto.randomUUID()}.sqlite`);
  await restoreReplicaFile({ replicaUrl: url, name: `tenants/${tenantId}.sqlite`, out, env });
  const raised = logs.filter((l) => l.event === "replica.priority" && l.reason === "lag");
  const lowered = logs.filter((l) => l.event === "replica.priority" && l.reason === "caught up");
  const last = raised.at(-1);
  // Raised time: every raise to its lowering, the last one to the kill when it was still raised.
  const raisedMs =
    lowered.reduce((a, l) => a + (l.raisedMs as number), 0) + (last && raised.length > lowered.length ? killedAt - (last.at as number) : 0);
  return {
    ...losses(written.acked, out, killedAt),
    maxLag,
    raises: raised.length,
    raisedMs,
    firstRaiseS: raised[0] ? ((raised[0].at as number) - t0) / 1000 : null,
    oldestUnsyncedMs: raised.map((l) => l.oldestUnsyncedMs as number),
    cpuPct: (cpu / ((killedAt - t0) / 1000)) * 100,
    load: `${load0}→${loadAverage()}`,
  };
}

/** The 1-minute load average. */
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];

/**
 * Litestream's CPU floor: the RPO on saturated cores with the floor and without (`--kills` each,
 * alternated, `--floor-seconds` of writes each, default 10), then with the floor on cores left as they
 * are for `--quiet-seconds` (default 30): whether it stays under SCHED_IDLE.
 */
async function floorBench(kills: number, seconds: number, quietSeconds: number) {
  const out = new Map<string, Awaited<ReturnType<typeof floorOnce>>[]>();
  for (let i = 0; i < kills; i++)
    for (const floor of i % 2 ? [false, true] : [true, false]) {
      const r = await floorOnce(floor, true, seconds);
      const name = floor ? "with the floor" : "without the floor";
      out.set(name, [...(out.get(name) ?? []), r]);
      console.log(
        `  ${name}, saturated: ${r.lostOld} older than 1 s lost, ${r.lost} lost in all (last second ${r.lastSecond}, oldest ${r.oldestLostMs} ms); max lag ${r.maxLag.toFixed(2)} s; ` +
          `raised ${r.raises}× (${r.raisedMs} ms, first after ${r.firstRaiseS ?? "-"} s, oldest unsynced ${r.oldestUnsyncedMs.join(", ")} ms); Litestream ${r.cpuPct.toFixed(1)} %; load ${r.load}`,
      );
    }
  for (const [name, runs] of out)
    row(
      `RPO at 50 writes/s (group commit), every core busy (${arg("busy-per-core") ?? 1} nice-0 busy loop(s) per core), Litestream ${name} (${kills} SIGKILLs, ${seconds}–${seconds + 1} s of writes each)`,
      `lost older than S (1 s): ${runs.map((r) => r.lostOld).join(", ")}; oldest lost ${runs.map((r) => r.oldestLostMs).join(", ")} ms before the kill; ` +
        `max lag ${runs.map((r) => r.maxLag.toFixed(2)).join(", ")} s; ` +
        `raised ${runs.map((r) => r.raises).join(", ")} times, for ${runs.map((r) => (r.raisedMs / 1000).toFixed(1)).join(", ")} s; ` +
        `Litestream ${runs.map((r) => r.cpuPct.toFixed(1)).join(", ")} % of a core; load ${runs.map((r) => r.load).join(", ")}`,
    );
  const q = await floorOnce(true, false, quietSeconds);
  row(
    `Litestream's CPU floor on cores left as they are, 50 writes/s for ${quietSeconds} s`,
    `raised ${q.raises} times (${(q.raisedMs / 1000).toFixed(1)} s${q.raises ? `, oldest unsynced ${q.oldestUnsyncedMs.join(", ")} ms` : ""}); lost older than 1 s ${q.lostOld}, oldest lost ${q.oldestLostMs} ms; max lag ${q.maxLag.toFixed(2)} s; Litestream ${q.cpuPct.toFixed(1)} %; load ${q.load}`,
  );
}

async function restore(port: number) {
  const dataDir = join(work, "school");
  const rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true }), resolveMember);
  const school = await seedSchool(rt, "school", { members: 10_000 });
  rt.close();
  const file = join(dataDir, "tenants", `${school.tenantId}.sqlite`);
  const bytes = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
  const url = await bucket();
  const app = await serve(dataDir, port, url);
  await app.replicated(2);
  await app.stop();
  const fresh = join(work, "school-restored");
  const t0 = performance.now();
  const r = Bun.spawnSync([bun, join(root, "src", "main.ts"), "restore", "--from-replica", url, "--data-dir", fresh], {
    cwd: root,
    env: { ...env, LEARNSPACE_QUIET: "1" },
  });
  const ms = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`restore failed: ${r.stderr.toString()}`);
  row(
    "restore --from-replica of a 10,000-member school into an empty data dir (platform + school + doctor, CLI from source)",
    `${(ms / 1000).toFixed(2)} s for a ${(bytes / 1024 / 1024).toFixed(1)} MiB tenant file`,
  );
}

try {
  if (only.includes("stall")) await stall();
  if (only.includes("rpo"))
    for (const [rate, grouped] of [
      [50, false],
      [500, false],
      [500, true],
    ] as const)
      await rpo(rate, grouped);
  if (only.includes("tenants"))
    for (const [i, run] of (arg("tenants") ?? "1@1s,100@1s,100@10s,1000@10s").split(",").entries()) {
      const [n, sync] = run.split("@");
      await tenants(Number(n), sync ?? "1s", 19410 + i);
    }
  if (only.includes("rpo-sched")) await rpoSched(Number(arg("kills") ?? 4));
  if (only.includes("floor"))
    await floorBench(Number(arg("kills") ?? 4), Number(arg("floor-seconds") ?? 10), Number(arg("quiet-seconds") ?? 30));
  if (only.includes("sched")) await sched(Number(arg("sched-files") ?? 100), arg("sched-sync") ?? "1s", 19430);
  if (only.includes("restore")) await restore(19420);
} finally {
  for (const proc of running) proc.kill("SIGTERM");
  await Promise.all([...running].map((p) => p.exited));
  rmSync(work, { recursive: true, force: true });
}
console.log("\n| measure | result |\n|---|---|");
for (const [m, r] of table) console.log(`| ${m} | ${r} |`);
console.log("(one run on a shared 2-core machine: other engineers' builds and tests ran meanwhile)");
