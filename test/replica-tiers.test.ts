// The Litestream configuration `serve` generates as files add up (docs/rules/replication.md#tiers):
// hot and cold check intervals, the RPO each file is told, promotion of a cold file written since
// Litestream started (a restart on the new configuration, at most every PROMOTE_MS by an injected
// clock), new files taking their first snapshots a batch at a time, and SQLite's automatic checkpoint off when Litestream owns checkpoints
// (docs/rules/replication.md#checkpoints). Litestream itself is a stand-in script here: no S3 needed.

import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeSqlite, openSqlite, walAutocheckpoint } from "../src/platform/db/sqlite";
import { cannotRaise, createLagFloor, threadPolicies } from "../src/platform/replica/floor";
import { COLD_CHECKS_PER_SECOND, fileRpoMs, litestreamConfig, litestreamTimings } from "../src/platform/replica/litestream";
import {
  lowPriority,
  PROMOTE_MS,
  RAMP_COLD_MS,
  RESTART_GRACE_MS,
  type ReplicaFileStatus,
  replicatedFiles,
  startReplication,
} from "../src/platform/replica/supervisor";
import { removeDir, tempDir } from "./helpers/binary";
import { eventually } from "./helpers/server";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});
const URL = "s3://bucket/school?endpoint=http%3A%2F%2F127.0.0.1%3A1&region=us-east-1";
const ENV = { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" };

/** The supervisor at a 1 s sync, scanning every 20 ms, with Litestream a stand-in shell script (`script`, its body) in `dir`. */
function replicateWith(
  dir: string,
  script: string,
  options: Omit<Parameters<typeof startReplication>[0], "replicaUrl" | "syncMs" | "env" | "scanMs">,
) {
  const bin = join(dir, "litestream");
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return startReplication({
    replicaUrl: URL,
    syncMs: 1000,
    env: { ...ENV, LEARNSPACE_LITESTREAM_BIN: bin, PATH: process.env.PATH },
    scanMs: 20,
    ...options,
  });
}

/** A temp dir holding `data/` with a platform file and `schools` school files (WAL, one table each), and the schools' ids. */
function dataDirWith(schools: number) {
  const dir = tempDir("learnspace-tiers-");
  dirs.push(dir);
  const dataDir = join(dir, "data");
  mkdirSync(join(dataDir, "tenants"), { recursive: true });
  const ids = Array.from({ length: schools }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`);
  for (const f of ["platform.sqlite", ...ids.map((id) => `tenants/${id}.sqlite`)]) {
    const db = new Database(join(dataDir, f), { create: true });
    db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
    db.close();
  }
  return { dir, dataDir, ids };
}

describe("Litestream configuration by activity", () => {
  test("hot files are checked every S/2 and shipped at S/10; cold files share COLD_CHECKS_PER_SECOND, and their RPO says so; intervals staggered", () => {
    expect(litestreamTimings(1000)).toEqual({ monitorMs: 500, shipMs: 100, coldMonitorMs: 500 });
    // 1,000 cold files at 50 checks a second: each checked every 20 s.
    expect(litestreamTimings(1000, 1000).coldMonitorMs).toBe((1000 / COLD_CHECKS_PER_SECOND) * 1000);
    expect(fileRpoMs(1000, true, 1000)).toBe(1000);
    expect(fileRpoMs(1000, false, 1000)).toBe(20_500);
    // Few cold files: never checked more often than the hot ones.
    expect(fileRpoMs(10_000, false, 3)).toBe(10_000);

    const files = [
      { path: "/d/platform.sqlite", name: "platform.sqlite" },
      { path: "/d/tenants/a.sqlite", name: "tenants/a.sqlite", hot: true },
      ...Array.from({ length: 200 }, (_, i) => ({ path: `/d/tenants/c${i}.sqlite`, name: `tenants/c${i}.sqlite`, hot: false })),
    ];
    const config = litestreamConfig({ replicaUrl: URL, files, syncMs: 1000 }, ENV);
    const monitor = config.dbs.map((d) => Number.parseInt(d["monitor-interval"] as string, 10));
    expect(monitor[0]).toBe(500);
    // Staggered (docs/rules/replication.md#staggering): never longer than the tier's interval, at most
    // a quarter shorter, and spread over that quarter rather than all in one instant.
    expect(monitor[1]).toBeLessThan(500);
    expect(monitor[1]).toBeGreaterThanOrEqual(375);
    const coldIntervals = monitor.slice(2);
    expect(Math.max(...coldIntervals)).toBeLessThanOrEqual(4000);
    expect(Math.min(...coldIntervals)).toBeGreaterThanOrEqual(3000);
    expect(new Set(coldIntervals).size).toBeGreaterThan(150);
    // Every eighth of the spread holds some of the 200 first checks (none bunched in one instant).
    const eighths = new Set(coldIntervals.map((ms) => Math.min(7, Math.floor(((4000 - ms) / 1000) * 8))));
    expect(eighths.size).toBe(8);
    expect(new Set(config.dbs.map((d) => d.replicas[0]?.["sync-interval"]))).toEqual(new Set(["100ms"]));
    // A cold file taking its first snapshot in a ramp is checked as a hot one, and not counted with the cold.
    const ramp = litestreamConfig(
      { replicaUrl: URL, files: files.map((f, i) => (i === 150 ? { ...f, firstSnapshot: true } : f)), syncMs: 1000 },
      ENV,
    );
    const first = ramp.dbs.find((d) => d.path === "/d/tenants/c148.sqlite");
    expect(Number.parseInt(first?.["monitor-interval"] as string, 10)).toBeLessThanOrEqual(500);
    expect(ramp.dbs.findIndex((d) => d.path === "/d/tenants/c148.sqlite")).toBe(2);
    // 199 cold files now: each checked every 3.98 s at most (200: 4 s).
    expect(Math.max(...ramp.dbs.slice(3).map((d) => Number.parseInt(d["monitor-interval"] as string, 10)))).toBeLessThanOrEqual(3980);
  });

  test("serve's automatic checkpoint is off under replication and SQLite's default without", () => {
    const dir = tempDir("learnspace-tiers-");
    dirs.push(dir);
    const pages = (p: number | undefined) => {
      const db = openSqlite(join(dir, `f${p}.sqlite`), undefined, p);
      const v = (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
      db.close();
      return v;
    };
    expect(pages(walAutocheckpoint(true))).toBe(0);
    expect(pages(walAutocheckpoint(false))).toBe(1000);
    expect(pages(walAutocheckpoint(false, 500))).toBe(500);
    expect(pages(walAutocheckpoint(true, 500))).toBe(0);
  });

  test("under replication the WAL stays when the last connection closes (a restarted Litestream goes on, no new generation); without, it goes", () => {
    const dir = tempDir("learnspace-tiers-");
    dirs.push(dir);
    const walLeft = (replicated: boolean) => {
      const path = join(dir, `persist-${replicated}.sqlite`);
      const db = openSqlite(path, undefined, walAutocheckpoint(replicated));
      db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
      closeSqlite(db);
      return existsSync(`${path}-wal`) && statSync(`${path}-wal`).size >= 32;
    };
    expect(walLeft(true)).toBe(true);
    expect(walLeft(false)).toBe(false);
  });

  test("the scan reads the header of new files only, and of a file created again under a removed one's name", () => {
    const { dataDir, ids } = dataDirWith(2);
    const inWal = new Set<string>();
    const names = () => replicatedFiles(dataDir, inWal).map((f) => f.name);
    const all = ["platform.sqlite", ...ids.map((id) => `tenants/${id}.sqlite`)];
    expect(names()).toEqual(all);
    // The first file's header no longer says WAL: a known file is not read again (nor opened).
    const first = join(dataDir, "tenants", `${ids[0]}.sqlite`);
    const header = readFileSync(first);
    header[18] = 1;
    writeFileSync(first, header);
    expect(names()).toEqual(all);
    // Removed, then created again (not yet in WAL mode): read anew, left out until SQLite has initialised it.
    rmSync(first);
    expect(names()).toEqual([all[0], all[2]] as string[]);
    writeFileSync(first, header);
    expect(names()).toEqual([all[0], all[2]] as string[]);
  });

  test("a cold file written since Litestream started is promoted by a restart, not before PROMOTE_MS", async () => {
    const { dir, dataDir, ids } = dataDirWith(2);
    // The second school last changed an hour ago.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(dataDir, "tenants", `${ids[1]}.sqlite`), hourAgo, hourAgo);
    // A stand-in that stays up like Litestream (its name is how an orphan is recognised).
    let clock = Date.now();
    const writes = new Map<string, number>();
    const logs: { event?: string; reason?: string }[] = [];
    const rep = replicateWith(dir, "exec sleep 600", {
      dataDir,
      log: (l) => logs.push(l),
      lastWriteAt: (f) => (f.tenantId ? (writes.get(f.tenantId) ?? null) : null),
      now: () => clock,
    });
    try {
      const tier = async () => Object.fromEntries((await rep.status()).map((f) => [f.name, [f.hot, f.rpoSeconds]]));
      expect(await tier()).toEqual({
        "platform.sqlite": [true, 1],
        [`tenants/${ids[0]}.sqlite`]: [true, 1],
        [`tenants/${ids[1]}.sqlite`]: [false, 1],
      });
      const config = () => JSON.parse(readFileSync(join(dataDir, "litestream.yml"), "utf8")) as { dbs: unknown[] };
      expect(config().dbs).toHaveLength(3);
      const pid = rep.pid();
      // Written now, but Litestream started less than PROMOTE_MS ago: it stays as it is.
      clock += 1000;
      writes.set(ids[1] as string, clock);
      await Bun.sleep(200);
      expect(rep.pid()).toBe(pid);
      clock += PROMOTE_MS;
      for (let i = 0; rep.pid() === pid || rep.pid() === null; i++) {
        if (i > 200) throw new Error("not promoted");
        await Bun.sleep(20);
      }
      expect(logs.some((l) => l.event === "replica.restart" && l.reason === "promote")).toBe(true);
      await Bun.sleep(600); // the status cache (500 ms)
      expect((await tier())[`tenants/${ids[1]}.sqlite`]).toEqual([true, 1]);
    } finally {
      await rep.stop();
    }
  });

  test("a restarted serve takes each file's work from the previous status, not Litestream's writes; a file changed after that record is hot", async () => {
    const { dir, dataDir, ids } = dataDirWith(2);
    // Both files changed on disk just now (as Litestream's checkpoints leave them); the previous serve
    // recorded, after that, that no school worked on them for an hour.
    const hourAgo = Date.now() - 3_600_000;
    const at = Date.now() + 1000;
    const files = ids.map((id) => ({ name: `tenants/${id}.sqlite`, workedAt: hourAgo }));
    writeFileSync(join(dataDir, "replica-status.json"), JSON.stringify({ at, litestream: null, files }));
    // The second one changed after that record (its server was killed before the next report).
    const later = new Date(at + 5000);
    utimesSync(join(dataDir, "tenants", `${ids[1]}.sqlite`), later, later);
    const rep = replicateWith(dir, "exec sleep 600", { dataDir, log: () => {} });
    try {
      const tiers = Object.fromEntries((await rep.status()).map((f) => [f.name, f.hot]));
      expect(tiers).toEqual({ "platform.sqlite": true, [`tenants/${ids[0]}.sqlite`]: false, [`tenants/${ids[1]}.sqlite`]: true });
    } finally {
      await rep.stop();
    }
    // The stop leaves the record for the next serve.
    const left = JSON.parse(readFileSync(join(dataDir, "replica-status.json"), "utf8")) as { at: number; files: ReplicaFileStatus[] };
    expect(left.at).toBeGreaterThanOrEqual(Date.now() - 5000);
    expect(left.files.find((f) => f.name === `tenants/${ids[0]}.sqlite`)?.workedAt).toBe(hourAgo);
    expect(left.files.find((f) => f.name === `tenants/${ids[1]}.sqlite`)?.workedAt).toBe(later.getTime());
  });

  test("Litestream runs under SCHED_IDLE (chrt) where it can be raised again, else at normal priority, said once; the pid is Litestream's", async () => {
    const cmd = ["/bin/litestream", "replicate"];
    expect(lowPriority(cmd, "/usr/bin/chrt")).toEqual(["/usr/bin/chrt", "--idle", "0", ...cmd]);
    expect(lowPriority(cmd, null)).toEqual(cmd);
    if (!Bun.which("chrt")) return;
    for (const cannot of [null, "no CAP_SYS_NICE and RLIMIT_NICE 0 < 20"]) {
      const { dir, dataDir } = dataDirWith(0);
      const logs: Record<string, unknown>[] = [];
      // The stand-in notes its own pid and scheduling policy, then stays up.
      const rep = replicateWith(dir, `echo "$$ $(chrt -p $$)" > "${dir}/sched"; exec sleep 600`, {
        dataDir,
        log: (l) => logs.push(l as Record<string, unknown>),
        cannotRaise: cannot,
      });
      try {
        for (let i = 0; !existsSync(join(dir, "sched")) || !readFileSync(join(dir, "sched"), "utf8").includes("\n"); i++) {
          if (i > 150) throw new Error("the stand-in did not start");
          await Bun.sleep(20);
        }
        const [pid, ...policy] = readFileSync(join(dir, "sched"), "utf8").split(" ");
        expect(Number(pid)).toBe(rep.pid() as number);
        expect(policy.join(" ")).toContain(cannot ? "SCHED_OTHER" : "SCHED_IDLE");
        expect(rep.priority().level).toBe(cannot ? "normal" : "idle");
        const said = logs.filter((l) => l.event === "replica.priority");
        expect(said.length).toBe(cannot ? 1 : 0);
        if (cannot) expect(said[0]?.reason).toContain("AmbientCapabilities=CAP_SYS_NICE");
      } finally {
        await rep.stop();
      }
    }
  });

  test("new files join a batch at a time: the next batch once this one's first snapshots are written; the others wait, shown as such", async () => {
    const { dir, dataDir } = dataDirWith(3);
    // A stand-in that reports a first snapshot for every file of its configuration, like Litestream's log.
    const logs: { event?: string; reason?: string; files?: number; waiting?: number }[] = [];
    // The stand-in says each file's first snapshot is written, 0.3 s after it starts.
    const snapshots = `sleep 0.3\nfor p in $(grep -o '"path":"/[^"]*"' "$3" | cut -d'"' -f4); do echo "level=INFO msg=\\"snapshot written\\" db=$p"; done\nexec sleep 600`;
    const rep = replicateWith(dir, snapshots, {
      dataDir,
      log: (l) => logs.push(l),
      firstSnapshotsAtOnce: 2,
    });
    try {
      const first: ReplicaFileStatus[] = await rep.status();
      expect(first.map((f) => f.rpoSeconds === null)).toEqual([false, false, true, true]);
      expect(first[0]?.name).toBe("platform.sqlite");
      for (let i = 0; logs.filter((l) => l.event === "replica.started").length < 2; i++) {
        if (i > 150) throw new Error(`batches not taken: ${JSON.stringify(logs)}`);
        await Bun.sleep(20);
      }
      // Every file has its first snapshot: no further restart.
      await Bun.sleep(600);
      const started = logs.filter((l) => l.event === "replica.started").map((l) => [l.files, l.waiting]);
      expect(started).toEqual([
        [2, 2],
        [4, 0],
      ]);
      expect(logs.filter((l) => l.event === "replica.restart").map((l) => l.reason)).toEqual(["batch"]);
      expect((await rep.status()).map((f) => f.rpoSeconds)).toEqual([1, 1, 1, 1]);
    } finally {
      await rep.stop();
    }
  });

  test("while files wait for their first snapshot, the batch's files are checked at S/2 and the cold files in every RAMP_COLD_MS, so a run ends before those are opened", async () => {
    const { dir, dataDir, ids } = dataDirWith(42);
    // Every school idle for an hour; the platform file and 40 schools have their generation already.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const id of ids) utimesSync(join(dataDir, "tenants", `${id}.sqlite`), hourAgo, hourAgo);
    for (const f of ["platform.sqlite", ...ids.slice(0, 40).map((id) => `tenants/${id}.sqlite`)]) {
      const meta = join(dataDir, f.replace(/([^/]+)$/, ".$1-litestream"));
      mkdirSync(meta, { recursive: true });
      writeFileSync(join(meta, "generation"), "0123456789abcdef");
    }
    const rep = replicateWith(dir, "exec sleep 600", { dataDir, log: () => {}, firstSnapshotsAtOnce: 1 });
    try {
      const config = JSON.parse(readFileSync(join(dataDir, "litestream.yml"), "utf8")) as {
        dbs: { path: string; "monitor-interval": string }[];
      };
      const interval = (id: string) =>
        Number.parseInt(config.dbs.find((d) => d.path.endsWith(`${id}.sqlite`))?.["monitor-interval"] ?? "", 10);
      // The admitted one (the first of the two new): at S/2; the 40 cold ones in: RAMP_COLD_MS, staggered
      // (not 40 ÷ 50 checks/s = 0.8 s), and their RPO says so.
      expect(config.dbs).toHaveLength(42);
      expect(interval(ids[40] as string)).toBeLessThanOrEqual(500);
      expect(Math.min(...ids.slice(0, 40).map(interval))).toBeGreaterThanOrEqual(RAMP_COLD_MS * 0.75);
      const rpo = Object.fromEntries((await rep.status()).map((f) => [f.name, f.rpoSeconds]));
      expect(rpo[`tenants/${ids[0]}.sqlite`]).toBe(RAMP_COLD_MS / 1000 + 0.5);
      expect(rpo[`tenants/${ids[41]}.sqlite`]).toBe(null);
    } finally {
      await rep.stop();
    }
  });

  test("a restart gives Litestream RESTART_GRACE_MS to stop, then kills it (docs/rules/replication.md#restarts), and logs the pause; hot files come first in its configuration", async () => {
    const { dir, dataDir, ids } = dataDirWith(2);
    // The first school last changed an hour ago: cold, listed after the hot one.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(dataDir, "tenants", `${ids[0]}.sqlite`), hourAgo, hourAgo);
    // A stand-in that notes each SIGTERM and stays up (as Litestream closing 1,000 files one by one) unless
    // told to quit, says a WAL segment is written 0.2 s after it starts.
    const script = `trap 'echo TERM >> "$0.signals"; [ -e "$0.quit" ] && exit 0' TERM\ntouch "$0.ready"\nsleep 0.2\necho "level=INFO msg=\\"wal segment written\\" db=x"\nwhile :; do sleep 0.05; done`;
    const logs: { event?: string; reason?: string; stopMs?: number; afterMs?: number; killed?: boolean }[] = [];
    const rep = replicateWith(dir, script, { dataDir, log: (l) => logs.push(l) });
    const signals = () => (existsSync(join(dir, "litestream.signals")) ? readFileSync(join(dir, "litestream.signals"), "utf8") : "");
    try {
      const config = JSON.parse(readFileSync(join(dataDir, "litestream.yml"), "utf8")) as { dbs: { path: string }[] };
      expect(config.dbs.map((d) => d.path.split("/").pop())).toEqual(["platform.sqlite", `${ids[1]}.sqlite`, `${ids[0]}.sqlite`]);
      const first = rep.pid();
      // Its trap is set before the restart's SIGTERM (under SCHED_IDLE on busy cores it may not have run a line yet).
      for (let i = 0; !existsSync(join(dir, "litestream.ready")); i++) {
        if (i > 500) throw new Error("the stand-in did not start");
        await Bun.sleep(20);
      }
      // A new school's file: a restart on the new list.
      const db = new Database(join(dataDir, "tenants", "00000000-0000-4000-8000-000000000009.sqlite"));
      db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
      db.close();
      for (let i = 0; !logs.some((l) => l.event === "replica.resumed"); i++) {
        if (i > 200) throw new Error(`no restart: ${JSON.stringify(logs)}`);
        await Bun.sleep(20);
      }
      expect(rep.pid()).not.toBe(first);
      const restart = logs.find((l) => l.event === "replica.restart");
      expect(restart?.reason).toBe("files");
      // Asked first, killed when it had not stopped within the grace.
      expect(signals()).toBe("TERM\n");
      expect(restart?.killed).toBe(true);
      expect(restart?.stopMs).toBeGreaterThanOrEqual(RESTART_GRACE_MS - 50);
      expect(restart?.stopMs).toBeLessThan(RESTART_GRACE_MS + 2000);
      expect(logs.find((l) => l.event === "replica.resumed")?.afterMs).toBeGreaterThanOrEqual(RESTART_GRACE_MS);
    } finally {
      writeFileSync(join(dir, "litestream.quit"), "");
      await rep.stop();
    }
    expect(signals()).toBe("TERM\nTERM\n");
  });
});

describe("Litestream's CPU floor (docs/rules/replication.md#scheduling)", () => {
  test("the lag decision: raised when a file's oldest unsynced write passes its RPO less S/4, lowered once caught up for the hold, which doubles when raised again soon", () => {
    const syncs = new Map<string, number>();
    const floor = createLagFloor({
      shipMs: 100,
      lastSyncAt: (p) => syncs.get(p) ?? null,
      raiseAfterMs: (p) => (p === "cold" ? 2500 : 1000) - 250,
      holdMs: 5000,
    });
    expect(floor.level()).toBe("idle");
    expect(floor.check(0)).toBeNull();
    // A write shipped in time: Litestream's sync covers what was copied before its ship tick.
    floor.wrote("hot", 1000);
    expect(floor.check(1500)).toBeNull();
    syncs.set("hot", 1600);
    expect(floor.check(1700)).toBeNull();
    expect(floor.behind(1700)).toEqual([]);
    // Written without pause, shipped every S/2: never 0.75 S behind.
    for (let t = 2000; t < 6000; t += 20) {
      floor.wrote("hot", t);
      if (t % 500 === 0) syncs.set("hot", t);
      expect(floor.check(t + 10)).toBeNull();
    }
    // Then no sync for a while (starved): raised once the oldest unsynced write (after 5,500 − 100) is 750 ms old.
    for (let t = 6000; t < 6150; t += 20) floor.wrote("hot", t);
    expect(floor.check(6140)).toBeNull();
    expect(floor.check(6150)).toBeNull();
    expect(floor.check(6151)).toEqual({ to: "normal", path: "hot", ageMs: 751 });
    expect(floor.level()).toBe("normal");
    expect(floor.raises()).toBe(1);
    // Still behind: stays raised; caught up (shipped past its last write) for the hold: lowered.
    expect(floor.check(6500)).toBeNull();
    syncs.set("hot", 6600);
    expect(floor.check(6600)).toBeNull();
    expect(floor.check(11_599)).toBeNull();
    expect(floor.check(11_600)).toEqual({ to: "idle", raisedMs: 11_600 - 6151 });
    // A cold file gets its own RPO; raised again within a minute of going back: the hold doubles.
    floor.wrote("cold", 12_000);
    expect(floor.check(14_250)).toBeNull();
    expect(floor.check(14_251)).toEqual({ to: "normal", path: "cold", ageMs: 2251 });
    syncs.set("cold", 15_000);
    expect(floor.check(15_000)).toBeNull();
    expect(floor.check(24_999)).toBeNull();
    expect(floor.check(25_000)).toEqual({ to: "idle", raisedMs: 25_000 - 14_251 });
    // A file never synced (waiting for its first snapshot, or new) counts from its first write; a removed one is forgotten.
    const gone = createLagFloor({ shipMs: 100, lastSyncAt: () => null, raiseAfterMs: () => 750, exists: (p) => p !== "removed" });
    gone.wrote("removed", 0);
    expect(gone.check(1000)).toBeNull();
    expect(gone.behind(1000)).toEqual([]);
    gone.wrote("new", 0);
    expect(gone.check(1000)).toEqual({ to: "normal", path: "new", ageMs: 1000 });
  });

  test("the privilege to raise it: root, CAP_SYS_NICE or RLIMIT_NICE >= 20", () => {
    const proc = (capEff: string, nice: string) => (p: string) =>
      p.endsWith("status") ? `Name:\tbun\nCapEff:\t${capEff}\n` : `Max nice priority         ${nice}                    ${nice}\n`;
    expect(cannotRaise(proc("0000000000000000", "0"), 0)).toBeNull();
    expect(cannotRaise(proc("0000000000800000", "0"), 1000)).toBeNull();
    expect(cannotRaise(proc("0000000000000000", "40"), 1000)).toBeNull();
    expect(cannotRaise(proc("0000000000000000", "unlimited"), 1000)).toBeNull();
    expect(cannotRaise(proc("00000000007fffff", "19"), 1000)).toBe("no CAP_SYS_NICE and RLIMIT_NICE 19 < 20");
  });

  test("a lagging file raises every thread of Litestream to SCHED_OTHER, caught up it goes back to SCHED_IDLE, and a stop raises it before SIGTERM", async () => {
    if (!Bun.which("chrt") || cannotRaise()) return;
    const { dir, dataDir, ids } = dataDirWith(1);
    // A stand-in with several threads (bun): once `ship` exists it logs a sync of every file every 50 ms,
    // and at SIGTERM it writes its threads' policies.
    writeFileSync(
      join(dir, "stand-in.ts"),
      `import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
const config = JSON.parse(readFileSync(process.argv[process.argv.indexOf("-config") + 1], "utf8"));
const policies = () => readdirSync("/proc/self/task").map((t) => /^policy\\s*:\\s*(\\d+)/m.exec(readFileSync(\`/proc/self/task/\${t}/sched\`, "utf8"))?.[1]).join(",");
process.on("SIGTERM", () => { writeFileSync(${JSON.stringify(join(dir, "at-term"))}, policies()); process.exit(0); });
setInterval(() => {
  if (existsSync(${JSON.stringify(join(dir, "ship"))})) for (const d of config.dbs) console.log(\`level=INFO msg="wal segment written" db=\${d.path}\`);
}, 50);
`,
    );
    const logs: Record<string, unknown>[] = [];
    const rep = replicateWith(dir, `exec "${process.execPath}" "${dir}/stand-in.ts" "$@"`, {
      dataDir,
      log: (l) => logs.push(l as Record<string, unknown>),
      floorHoldMs: 300,
    });
    const policiesAre = async (policy: number) => {
      for (let i = 0; ; i++) {
        const pid = rep.pid() as number;
        const p = threadPolicies(pid);
        if (p.length > 1 && p.every((x) => x === policy)) return p;
        if (i > 250) throw new Error(`threads of ${pid}: ${p.join(",")}, not all ${policy}: ${JSON.stringify(logs)}`);
        await Bun.sleep(20);
      }
    };
    try {
      await policiesAre(5); // SCHED_IDLE
      const file = join(dataDir, "tenants", `${ids[0]}.sqlite`);
      const t0 = Date.now();
      rep.wrote(file);
      await policiesAre(0); // SCHED_OTHER, every thread
      expect(Date.now() - t0).toBeGreaterThanOrEqual(750);
      // Logged once chrt is done.
      await eventually(() => logs.some((l) => l.event === "replica.priority"));
      expect(rep.priority()).toEqual({ level: "normal", raises: 1 });
      const raised = logs.find((l) => l.event === "replica.priority");
      expect(raised).toMatchObject({ priority: "normal", reason: "lag", file: `tenants/${ids[0]}.sqlite` });
      expect(raised?.oldestUnsyncedMs).toBeGreaterThanOrEqual(750);
      writeFileSync(join(dir, "ship"), "");
      await policiesAre(5);
      expect(rep.priority()).toEqual({ level: "idle", raises: 1 });
      await eventually(() => logs.filter((l) => l.event === "replica.priority").length === 2);
      expect(logs.filter((l) => l.event === "replica.priority").map((l) => l.reason)).toEqual(["lag", "caught up"]);
    } finally {
      await rep.stop();
    }
    // For doctor: the status file says how many times it was raised.
    expect(JSON.parse(readFileSync(join(dataDir, "replica-status.json"), "utf8"))).toMatchObject({ raises: 1 });
    const atTerm = readFileSync(join(dir, "at-term"), "utf8").split(",");
    expect(atTerm.length).toBeGreaterThan(1);
    expect(new Set(atTerm)).toEqual(new Set(["0"]));
  });
});
