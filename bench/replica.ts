// Replication with Litestream (docs/rules/replication.md), against an S3-compatible store
// (LEARNSPACE_TEST_S3_ENDPOINT: Swift from scripts/swift-s3.sh, credentials test:tester/testing):
//   1. the close-time checkpoint's stall while Litestream holds its read lock: TRUNCATE vs PASSIVE;
//   2. RPO at 50 and 500 writes/s: writes paced into a file Litestream replicates, Litestream killed
//      with SIGKILL, the replica restored: how many writes were lost and how old the oldest lost one was;
//   3. Litestream's memory (RSS) and CPU with 1, 100 and 1,000 replicated files, one of them written.
//   bun bench/replica.ts [--only stall|rpo|files] [--files 1,100,1000]
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeSqlite, openSqlite } from "../src/platform/db/sqlite";
import { litestreamConfig, requireLitestream } from "../src/platform/replica/litestream";
import { restoreReplicaFile } from "../src/platform/replica/restore";

const endpoint = process.env.LEARNSPACE_TEST_S3_ENDPOINT;
if (!endpoint) {
  console.error("set LEARNSPACE_TEST_S3_ENDPOINT (bash scripts/swift-s3.sh start DIR PORT)");
  process.exit(2);
}
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = arg("only");
const env = { ...process.env, AWS_ACCESS_KEY_ID: "test:tester", AWS_SECRET_ACCESS_KEY: "testing" };
const bin = requireLitestream(env);
const work = mkdtempSync(join(tmpdir(), "learnspace-bench-replica-"));

async function bucket() {
  const auth = await fetch(`${endpoint}/auth/v1.0`, { headers: { "x-auth-user": "test:tester", "x-auth-key": "testing" } });
  const name = `bench-${crypto.randomUUID().slice(0, 8)}`;
  await fetch(`${endpoint}/v1/AUTH_test/${name}`, { method: "PUT", headers: { "x-auth-token": auth.headers.get("x-auth-token") ?? "" } });
  return `s3://${name}?endpoint=${encodeURIComponent(endpoint as string)}&region=us-east-1`;
}

/** Litestream replicating `paths`, its log watched for the first sync of each. */
async function litestream(replicaUrl: string, paths: string[]) {
  const config = join(work, `litestream-${crypto.randomUUID()}.yml`);
  const files = paths.map((p, i) => ({ path: p, name: `f${i}.sqlite` }));
  writeFileSync(config, JSON.stringify(litestreamConfig({ replicaUrl, files, syncMs: 1000 }, env)));
  const proc = Bun.spawn([bin, "replicate", "-config", config, "-no-expand-env"], {
    env: { PATH: process.env.PATH ?? "", LITESTREAM_ACCESS_KEY_ID: "test:tester", LITESTREAM_SECRET_ACCESS_KEY: "testing" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const synced = new Set<string>();
  const watch = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      const lines = (rest + new TextDecoder().decode(chunk)).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) if (/msg="(snapshot|wal segment) written"/.test(l)) synced.add(/db=(\S+)/.exec(l)?.[1] ?? "");
    }
  };
  void watch(proc.stdout);
  void watch(proc.stderr);
  return {
    proc,
    files,
    async firstSync(timeoutMs = 600_000) {
      const t0 = Date.now();
      while (synced.size < paths.length && Date.now() - t0 < timeoutMs) await Bun.sleep(100);
      return synced.size;
    },
  };
}

const cpuOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, clock ticks of 10 ms
};
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

function seed(path: string, rows = 200) {
  const db = openSqlite(path);
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
    console.log(`stall: wal_checkpoint(${mode}) under Litestream: ${ms.map((m) => m.toFixed(0)).join(", ")} ms`);
}

async function rpo(rate: number) {
  const url = await bucket();
  const path = join(work, `rpo-${rate}.sqlite`);
  const db = seed(path, 10);
  const ls = await litestream(url, [path]);
  await ls.firstSync();
  const ins = db.prepare("INSERT INTO w (at, body) VALUES (?, ?) RETURNING id");
  const acked: { id: number; at: number }[] = [];
  const t0 = Date.now();
  // Paced: every 10 ms the writes due by then, each its own transaction (synchronous = FULL).
  while (Date.now() - t0 < 8000) {
    const due = Math.floor(((Date.now() - t0) / 1000) * rate);
    while (acked.length < due) acked.push({ id: (ins.get(Date.now(), "x".repeat(200)) as { id: number }).id, at: Date.now() });
    await Bun.sleep(10);
  }
  const killedAt = Date.now();
  ls.proc.kill("SIGKILL");
  await ls.proc.exited;
  db.close();
  const out = join(work, `rpo-${rate}-restored.sqlite`);
  const t1 = performance.now();
  await restoreReplicaFile({ replicaUrl: url, name: "f0.sqlite", out, env });
  const restoreMs = performance.now() - t1;
  const r = new Database(out, { readonly: true });
  const present = new Set((r.query("SELECT id FROM w").all() as { id: number }[]).map((x) => x.id));
  r.close();
  const lost = acked.filter((w) => !present.has(w.id));
  const oldest = lost.length ? killedAt - Math.min(...lost.map((w) => w.at)) : 0;
  const lastSecond = acked.filter((w) => w.at >= killedAt - 1000).length;
  console.log(
    `rpo at ${rate} writes/s: ${acked.length} acknowledged, ${lost.length} lost (of the last second's ${lastSecond}); the oldest lost was acknowledged ${oldest} ms before the kill; restore ${restoreMs.toFixed(0)} ms`,
  );
}

async function files(n: number) {
  const url = await bucket();
  const dir = join(work, `files-${n}`);
  mkdirSync(dir);
  const template = join(dir, "template.sqlite");
  seed(template, 5).close();
  const paths = Array.from({ length: n }, (_, i) => join(dir, `t${i}.sqlite`));
  for (const p of paths) copyFileSync(template, p);
  // Every file in WAL mode with a WAL of its own, as an open tenant file is.
  for (const p of paths) seed(p, 1).close();
  const ls = await litestream(url, paths);
  const started = performance.now();
  const synced = await ls.firstSync();
  const firstSyncS = (performance.now() - started) / 1000;
  // Then 30 s of steady state: one file written 10 times a second, the others idle.
  const db = seed(paths[0] as string, 1);
  const ins = db.prepare("INSERT INTO w (at, body) VALUES (?, ?)");
  const cpu0 = cpuOf(ls.proc.pid);
  const t0 = performance.now();
  let peak = 0;
  while (performance.now() - t0 < 30_000) {
    ins.run(Date.now(), "x".repeat(200));
    peak = Math.max(peak, rssOf(ls.proc.pid));
    await Bun.sleep(100);
  }
  const cpu = (cpuOf(ls.proc.pid) - cpu0) / ((performance.now() - t0) / 1000);
  db.close();
  ls.proc.kill("SIGKILL");
  console.log(
    `files ${n}: first sync of ${synced}/${n} in ${firstSyncS.toFixed(1)} s; steady state RSS ${peak.toFixed(0)} MiB, CPU ${(cpu * 100).toFixed(1)} % of a core`,
  );
}

try {
  if (!only || only === "stall") await stall();
  if (!only || only === "rpo") for (const rate of [50, 500]) await rpo(rate);
  if (!only || only === "files") for (const n of (arg("files") ?? "1,100,1000").split(",").map(Number)) await files(n);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log("(shared 2-core machine: other engineers' builds and tests ran meanwhile)");
