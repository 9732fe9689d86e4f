import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Subprocess } from "bun";
import { cannotRaise, createLagFloor, FLOOR_SLACK, type Priority, setPriority } from "./floor";
import {
  fileRpoMs,
  litestreamConfig,
  litestreamEnv,
  litestreamTimings,
  platformReplicaName,
  type ReplicatedFile,
  requireLitestream,
  tenantReplicaName,
} from "./litestream";

type Env = Record<string, string | undefined>;

/** One replicated file as `serve` sees it (docs/rules/replication.md#lag). */
export type ReplicaFileStatus = {
  /** `platform.sqlite` or `tenants/<id>.sqlite`. */
  name: string;
  /** When Litestream last wrote this file's snapshot or WAL segment to the replica (ms), null before the first. */
  lastSyncAt: number | null;
  /** WAL bytes written locally and not yet in the replica (from Litestream's own counters). */
  behindBytes: number;
  /** Seconds since the last sync while the file is behind; 0 when the replica has everything. */
  lagSeconds: number;
  /** Written lately: checked every S/2 (docs/rules/replication.md#tiers); else with the cold files. */
  hot: boolean;
  /** The RPO the file gets with the running configuration: S when hot, more when cold; null while it waits for its first snapshot. */
  rpoSeconds: number | null;
  /** The last sign of work on the file (ms) that its tier is decided on; kept across restarts (docs/rules/replication.md#tiers). */
  workedAt: number;
};

export type Replication = {
  /** Per file, read from Litestream's metrics on demand. */
  status(): Promise<ReplicaFileStatus[]>;
  /** Litestream's pid while it runs. */
  pid(): number | null;
  restarts(): number;
  /**
   * This process began a write transaction on the file at `path` (docs/rules/replication.md#scheduling):
   * the CPU floor watches its oldest unsynced write.
   */
  wrote(path: string): void;
  /** Litestream's scheduling now (idle: SCHED_IDLE; normal: SCHED_OTHER) and how many times the floor raised it. */
  priority(): { level: Priority; raises: number };
  /** Stops Litestream (SIGTERM: it syncs what it has, then exits) and the file scan. */
  stop(): Promise<void>;
};

/**
 * A file SQLite has initialised in WAL mode (header bytes 18–19 are 2): a file being created is left
 * for the next scan, or Litestream would initialise it first (with its own page size).
 */
function inWalMode(path: string): boolean {
  try {
    const fd = openSync(path, "r");
    try {
      const header = Buffer.alloc(20);
      return (
        readSync(fd, header, 0, 20, 0) === 20 &&
        header.toString("latin1", 0, 15) === "SQLite format 3" &&
        header[18] === 2 &&
        header[19] === 2
      );
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * The files of a data dir that are replicated: the platform file and every tenant file SQLite has
 * initialised. `inWal`: the paths already seen in WAL mode, whose header is not read again (a file
 * stays in WAL mode): the scan every second opened every file, 79 ms at 1,000 files on the loaded test
 * machine, on the event loop (docs/rules/replication.md#supervision).
 */
export function replicatedFiles(dataDir: string, inWal = new Set<string>()): ReplicatedFile[] {
  const files: ReplicatedFile[] = [{ path: join(dataDir, "platform.sqlite"), name: platformReplicaName }];
  const dir = join(dataDir, "tenants");
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => /^[0-9a-f-]{36}\.sqlite$/.test(n)) : [];
  const present = new Set<string>();
  for (const n of names.sort()) {
    const path = join(dir, n);
    present.add(path);
    const tenantId = n.slice(0, -".sqlite".length);
    if (!inWal.has(path) && !inWalMode(path)) continue;
    inWal.add(path);
    files.push({ path, name: tenantReplicaName(tenantId), tenantId });
  }
  // A file removed is forgotten: one created again under its name is checked anew.
  for (const path of inWal) if (!present.has(path)) inWal.delete(path);
  return files;
}

/** A file written within this long is hot (docs/rules/replication.md#tiers). */
export const HOT_MS = 10 * 60_000;
/**
 * A cold file written since Litestream started is promoted by a restart, at most once in this long,
 * or 100 ms per replicated file when longer (1,000 files: 100 s): a restart re-opens every file.
 */
export const PROMOTE_MS = 30_000;
const promoteAfterMs = (files: number) => Math.max(PROMOTE_MS, files * 100);

/**
 * When a file was last changed on disk (it or its WAL): what `serve` knows of a file before its first
 * write when the previous `serve` left no record of it. Read once per file, when it is first listed:
 * later changes include Litestream's own writes (its checkpoints), which are no sign of a school at work.
 */
function changedAt(path: string): number {
  return Math.max(
    statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0,
    statSync(`${path}-wal`, { throwIfNoEntry: false })?.mtimeMs ?? 0,
  );
}

/**
 * The work on each file as the previous `serve` recorded it in its status file (`workedAt` by replica
 * name) and when it wrote that record, or null (docs/rules/replication.md#tiers).
 */
function previousWork(statusFile: string): { at: number; workedAt: Map<string, number> } | null {
  try {
    const s = JSON.parse(readFileSync(statusFile, "utf8")) as { at: number; files: { name: string; workedAt?: number }[] };
    const workedAt = new Map<string, number>();
    for (const f of s.files) if (typeof f.workedAt === "number") workedAt.set(f.name, f.workedAt);
    return typeof s.at === "number" ? { at: s.at, workedAt } : null;
  } catch {
    return null; // none yet, or unreadable: the files' times on disk instead
  }
}

/** How long a restart lets Litestream stop by itself before it is killed (docs/rules/replication.md#restarts). */
export const RESTART_GRACE_MS = 1000;

/**
 * Files taking their first snapshot in one Litestream run (docs/rules/replication.md#first-start):
 * each snapshot holds ~5–13 MiB of upload buffers while it runs, and 1,000 at once took 5 GiB.
 */
export const FIRST_SNAPSHOTS_AT_ONCE = 50;

/**
 * The cold files' check interval at least, while other files wait for their first snapshot
 * (docs/rules/replication.md#first-start): a run of the ramp ends (its batch snapshotted) before they
 * are opened, each open costing its replica's LISTs and a GET; their RPO says so meanwhile.
 */
export const RAMP_COLD_MS = 60_000;

/** Litestream has started a generation for the file (its local meta folder, `.<file>-litestream/generation`). */
function hasGeneration(path: string): boolean {
  return existsSync(join(dirname(path), `.${basename(path)}-litestream`, "generation"));
}

/**
 * How Litestream is started so that requests come first on busy cores (docs/rules/replication.md#scheduling):
 * under SCHED_IDLE with `chrt` (it runs on what the server leaves and never preempts a request
 * thread when it wakes), which execs Litestream in its place: the pid is Litestream's, and a kill
 * reaches it. Only where the CPU floor can raise it again; else as it is.
 */
export function lowPriority(command: string[], chrt: string | null): string[] {
  return chrt ? [chrt, "--idle", "0", ...command] : command;
}

/** A free loopback port for Litestream's metrics listener. */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * A Litestream left running by a server killed with SIGKILL: stopped before a new one starts on the
 * same files (and by scripts/cluster-check.ts after its nodes are killed).
 */
export function stopOrphan(pidFile: string) {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("litestream")) return;
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already (or no /proc: nothing to check it against).
  }
}

/** `name{labels} value` lines of Prometheus text, for the series asked for. */
function series(text: string, names: string[]) {
  const out: { name: string; db: string; value: number }[] = [];
  for (const line of text.split("\n")) {
    const m = /^(\w+)\{[^}]*db="([^"]*)"[^}]*\} (\S+)$/.exec(line);
    if (m && names.includes(m[1] as string)) out.push({ name: m[1] as string, db: m[2] as string, value: Number(m[3]) });
  }
  return out;
}

/**
 * `serve`'s Litestream (docs/rules/replication.md#supervision): the platform binary started as a
 * child with a generated configuration naming the platform file and every tenant file, restarted
 * with a new configuration when a tenant file appears or goes (checked every `scanMs`), and
 * restarted after a crash (backoff up to 30 s). A new tenant's first snapshot holds every write made
 * before Litestream picked it up, so none is lost to the replica.
 */
export function startReplication(opts: {
  dataDir: string;
  replicaUrl: string;
  syncMs: number;
  log: (line: object) => void;
  env?: Env;
  scanMs?: number;
  /** When this process last wrote the file (ms), null if it has not since it started. */
  lastWriteAt?: (file: ReplicatedFile) => number | null;
  now?: () => number;
  /** FIRST_SNAPSHOTS_AT_ONCE unless given. */
  firstSnapshotsAtOnce?: number;
  /** Why Litestream may not be raised from SCHED_IDLE again (cannotRaise unless given; tests). */
  cannotRaise?: string | null;
  /** FLOOR_HOLD_MS unless given (tests). */
  floorHoldMs?: number;
}): Replication {
  const now = opts.now ?? Date.now;
  const startedAt = Date.now();
  const env = opts.env ?? process.env;
  const bin = requireLitestream(env);
  const childEnv = litestreamEnv(opts.replicaUrl, env);
  const configPath = join(opts.dataDir, "litestream.yml");
  const pidFile = join(opts.dataDir, "litestream.pid");
  stopOrphan(pidFile);
  const lastSync = new Map<string, number>();
  // The CPU floor (docs/rules/replication.md#scheduling): SCHED_IDLE only where Litestream can be raised again.
  const chrt = Bun.which("chrt");
  const cannot = chrt ? (opts.cannotRaise !== undefined ? opts.cannotRaise : cannotRaise()) : "no chrt on the PATH";
  const floorChrt = cannot ? null : chrt;
  if (cannot)
    opts.log({
      event: "replica.priority",
      priority: "normal",
      reason: `${cannot}: Litestream runs at normal priority, so that its RPO holds on busy cores; for SCHED_IDLE with a CPU floor grant CAP_SYS_NICE (systemd AmbientCapabilities=CAP_SYS_NICE) or LimitNICE=40 (docs/operating.md)`,
    });
  /** Per file: the RPO of the running configuration (a waiting or new file: S), and its replica name. */
  const rpoOf = new Map<string, number>();
  const nameOf = new Map<string, string>();
  const floor = createLagFloor({
    shipMs: litestreamTimings(opts.syncMs).shipMs,
    lastSyncAt: (path) => lastSync.get(path) ?? null,
    raiseAfterMs: (path) => (rpoOf.get(path) ?? opts.syncMs) - FLOOR_SLACK * opts.syncMs,
    exists: existsSync,
    level: floorChrt ? "idle" : "normal",
    holdMs: opts.floorHoldMs,
  });
  /** Tenant files seen in WAL mode: the scan reads only new files' headers. */
  const inWal = new Set<string>();
  let files: ReplicatedFile[] = [];
  /** Files listed but left for a later run, and the new files admitted to this one (docs/rules/replication.md#first-start). */
  let waiting: ReplicatedFile[] = [];
  let admitted: string[] = [];
  /** RAMP_COLD_MS while files wait, else 0. */
  let coldMinMs = 0;
  const atOnce = opts.firstSnapshotsAtOnce ?? FIRST_SNAPSHOTS_AT_ONCE;
  let child: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  let metricsAddr = "";
  let stopping = false;
  let restarts = 0;
  let backoff = 1000;
  let respawn: Timer | null = null;
  let spawnedAt = 0;
  /** When the last restart began, until the next Litestream's first sync (docs/rules/replication.md#restarts). */
  let pausedSince: number | null = null;
  const statusFile = join(opts.dataDir, "replica-status.json");
  const previous = previousWork(statusFile);
  const firstSeen = new Map<string, number>();
  /**
   * What is known of a file when it is first listed: the work the previous `serve` recorded, unless the
   * file changed on disk after that record (a server killed before its next report, another program);
   * else its last change on disk. A restart never takes Litestream's own writes for a school at work.
   */
  const knownWork = (f: ReplicatedFile) => {
    const changed = changedAt(f.path);
    const recorded = previous?.workedAt.get(f.name);
    return previous && recorded !== undefined && changed <= previous.at ? recorded : changed;
  };
  /** The last sign of work on a file: this process's last write to it, else what was known when it was first listed. */
  const workedAt = (f: ReplicatedFile) => {
    if (!firstSeen.has(f.path)) firstSeen.set(f.path, knownWork(f));
    return Math.max(opts.lastWriteAt?.(f) ?? 0, firstSeen.get(f.path) ?? 0);
  };
  /** Hot: the platform file, or a file worked on within HOT_MS. */
  const classify = (list: ReplicatedFile[]): ReplicatedFile[] => {
    const t = now();
    return list.map((f) => ({ ...f, hot: f.name === platformReplicaName || t - workedAt(f) < HOT_MS }));
  };

  const readLog = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const db = /\bdb=(\S+)/.exec(line)?.[1];
        if (db && /msg="(wal segment|snapshot) written"/.test(line)) {
          lastSync.set(db, Date.now());
          backoff = 1000;
          if (pausedSince !== null) opts.log({ event: "replica.resumed", afterMs: Math.round(performance.now() - pausedSince) });
          pausedSince = null;
        } else if (/level=(ERROR|WARN)/.test(line)) {
          opts.log({ level: "error", event: "replica.litestream", line });
        }
      }
    }
  };

  const spawn = () => {
    const listed = classify(replicatedFiles(opts.dataDir, inWal));
    // New files (no generation yet) join at most `atOnce` per run, hot ones first.
    const fresh = listed.filter((f) => !lastSync.has(f.path) && !hasGeneration(f.path));
    admitted = [...fresh.filter((f) => f.hot), ...fresh.filter((f) => !f.hot)].slice(0, atOnce).map((f) => f.path);
    const left = new Set(fresh.map((f) => f.path).filter((p) => !admitted.includes(p)));
    files = listed.filter((f) => !left.has(f.path));
    waiting = listed.filter((f) => left.has(f.path));
    coldMinMs = waiting.length > 0 ? RAMP_COLD_MS : 0;
    spawnedAt = now();
    const coldFiles = files.filter((f) => !f.hot).length;
    rpoOf.clear();
    for (const f of files) rpoOf.set(f.path, fileRpoMs(opts.syncMs, f.hot !== false, coldFiles, coldMinMs));
    for (const f of listed) nameOf.set(f.path, f.name);
    metricsAddr = `127.0.0.1:${freePort()}`;
    writeFileSync(
      configPath,
      JSON.stringify(
        litestreamConfig(
          {
            replicaUrl: opts.replicaUrl,
            // While others wait, the admitted files are checked at S/2, not at their tier's interval:
            // the batch is done (and the next run starts) before the cold files already in are even
            // opened. The last batch keeps its tier: nothing would restart it onto its interval.
            files: files.map((f) => (waiting.length > 0 && admitted.includes(f.path) ? { ...f, firstSnapshot: true } : f)),
            syncMs: opts.syncMs,
            metricsAddr,
            coldMinMs,
          },
          env,
        ),
      ),
      {
        mode: 0o600,
      },
    );
    const command = [bin, "replicate", "-config", configPath, "-no-expand-env"];
    // While the CPU floor holds Litestream raised (busy cores), the next one starts at normal priority too.
    const proc = Bun.spawn(lowPriority(command, floor.level() === "idle" ? floorChrt : null), {
      env: childEnv,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    child = proc;
    writeFileSync(pidFile, `${proc.pid}\n`, { mode: 0o600 });
    void readLog(proc.stdout);
    void readLog(proc.stderr);
    const hot = files.filter((f) => f.hot).length;
    opts.log({ event: "replica.started", pid: proc.pid, files: files.length, hot, waiting: waiting.length, bin, priority: floor.level() });
    void proc.exited.then((code) => {
      if (child !== proc || stopping) return;
      child = null;
      opts.log({ level: "error", event: "replica.exited", code, retryInMs: backoff });
      respawn = setTimeout(() => {
        respawn = null;
        restarts++;
        if (!stopping) spawn();
      }, backoff);
      backoff = Math.min(backoff * 2, 30_000);
    });
  };

  /**
   * Stops Litestream with SIGTERM, then SIGKILL after `graceMs` (docs/rules/replication.md#restarts):
   * its SIGTERM closes the files one after another in the configuration's order (hot files first), each
   * with a last sync, ~60 ms a file here (a minute at 1,000 files, nothing shipped meanwhile). A
   * restart gives it `RESTART_GRACE_MS`: the hot files' last frames ship, then it is killed, and the
   * next Litestream resumes the rest from the shadow WALs on disk, as after any crash. Shutdown gives
   * it 10 s. Returns whether it had to be killed.
   */
  const halt = async (graceMs: number) => {
    const proc = child;
    child = null;
    if (!proc) return false;
    // Its close-time syncs hold SQLite's locks: under SCHED_IDLE on busy cores a write would wait on them.
    if (floorChrt && floor.level() === "idle") await setPriority(floorChrt, proc.pid, "normal");
    proc.kill("SIGTERM");
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      proc.kill("SIGKILL");
    }, graceMs);
    await proc.exited;
    clearTimeout(timer);
    return killed;
  };

  /**
   * Why Litestream needs the new configuration, or null: a tenant file created (or imported, restored,
   * deleted) since the last start, as Litestream 0.3 reads its list of files once; the new files of
   * this run all have their first snapshot and others wait for theirs (`batch`); a cold file this
   * process wrote since then (promotion, at most every PROMOTE_MS); a hot file idle for HOT_MS
   * (demotion, at most every HOT_MS). docs/rules/replication.md#tiers
   */
  const restartReason = (): string | null => {
    const list = replicatedFiles(opts.dataDir, inWal);
    const known = new Set([...files, ...waiting].map((f) => f.path));
    if (list.length !== known.size || list.some((f) => !known.has(f.path))) return "files";
    if (waiting.length > 0 && admitted.every((p) => lastSync.has(p))) return "batch";
    const t = now();
    const writtenAt = (f: ReplicatedFile) => opts.lastWriteAt?.(f) ?? null;
    if (t - spawnedAt >= promoteAfterMs(files.length) && files.some((f) => !f.hot && (writtenAt(f) ?? 0) > spawnedAt)) return "promote";
    const idle = (f: ReplicatedFile) => f.hot && f.name !== platformReplicaName && t - workedAt(f) >= HOT_MS;
    if (t - spawnedAt >= HOT_MS && files.some(idle)) return "demote";
    return null;
  };

  /**
   * The floor's check, every S/20 (docs/rules/replication.md#scheduling): the dirty files only, so a
   * thousand idle files cost nothing; raises or lowers every thread of Litestream with `chrt -a`.
   */
  let restarting = false;
  let prioritizing = false;
  const floorCheck = floorChrt
    ? setInterval(
        async () => {
          if (stopping || restarting || prioritizing || !child) return;
          const d = floor.check(Date.now());
          if (!d) return;
          prioritizing = true;
          try {
            const ok = await setPriority(floorChrt, child.pid, d.to);
            opts.log(
              d.to === "normal"
                ? {
                    event: "replica.priority",
                    priority: "normal",
                    reason: "lag",
                    file: nameOf.get(d.path) ?? basename(d.path),
                    oldestUnsyncedMs: Math.round(d.ageMs),
                    raises: floor.raises(),
                    ...(ok ? {} : { level: "error", error: "chrt did not reach every thread" }),
                  }
                : {
                    event: "replica.priority",
                    priority: "idle",
                    reason: "caught up",
                    raisedMs: Math.round(d.raisedMs),
                    ...(ok ? {} : { level: "error", error: "chrt did not reach every thread" }),
                  },
            );
          } finally {
            prioritizing = false;
          }
        },
        Math.max(20, Math.round(opts.syncMs / 20)),
      )
    : null;

  const scan = setInterval(async () => {
    if (stopping || restarting || !child) return;
    const reason = restartReason();
    if (!reason) return;
    restarting = true;
    try {
      const t0 = performance.now();
      const killed = await halt(RESTART_GRACE_MS);
      // The pause: until the next Litestream ships anything (`replica.resumed`, readLog).
      pausedSince = t0;
      opts.log({ event: "replica.restart", reason, stopMs: Math.round(performance.now() - t0), killed });
      restarts++;
      if (!stopping) spawn();
    } finally {
      restarting = false;
    }
  }, opts.scanMs ?? 1000);

  spawn();

  let cached: { at: number; value: Promise<ReplicaFileStatus[]> } | null = null;
  const status = () => {
    // One reading of Litestream's counters serves every gauge of a scrape.
    if (!cached || Date.now() - cached.at > 500) cached = { at: Date.now(), value: readStatus() };
    return cached.value;
  };
  // For `doctor`, which runs in another process, and the next `serve` (each file's workedAt): the
  // same status, every 5 s and once more when Litestream has stopped.
  const writeStatus = (files: ReplicaFileStatus[]) =>
    writeFileSync(
      statusFile,
      JSON.stringify({ at: Date.now(), litestream: child?.pid ?? null, priority: floor.level(), raises: floor.raises(), files }),
      { mode: 0o600 },
    );
  const report = setInterval(async () => {
    const files = await status();
    if (!stopping) writeStatus(files);
  }, 5000);

  async function readStatus(): Promise<ReplicaFileStatus[]> {
    const behind = new Map<string, number>();
    if (child) {
      try {
        const text = await (await fetch(`http://${metricsAddr}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
        const got = series(text, [
          "litestream_shadow_wal_index",
          "litestream_shadow_wal_size",
          "litestream_replica_wal_index",
          "litestream_replica_wal_offset",
        ]);
        const pos = new Map<string, { shadow: [number, number]; replica: [number, number] }>();
        for (const s of got) {
          const p = pos.get(s.db) ?? { shadow: [0, 0], replica: [0, 0] };
          if (s.name === "litestream_shadow_wal_index") p.shadow[0] = s.value;
          if (s.name === "litestream_shadow_wal_size") p.shadow[1] = s.value;
          if (s.name === "litestream_replica_wal_index") p.replica[0] = s.value;
          if (s.name === "litestream_replica_wal_offset") p.replica[1] = s.value;
          pos.set(s.db, p);
        }
        for (const [db, p] of pos) {
          // A later WAL index starts from 0: what is behind is then at least the new index's bytes.
          behind.set(db, p.shadow[0] > p.replica[0] ? Math.max(1, p.shadow[1]) : Math.max(0, p.shadow[1] - p.replica[1]));
        }
      } catch {
        // Litestream is starting or restarting: every file counts as behind until it answers.
      }
    }
    const t = Date.now();
    const cold = files.filter((f) => !f.hot).length;
    const notYet = waiting.map((f) => ({
      name: f.name,
      lastSyncAt: null,
      behindBytes: statSync(f.path, { throwIfNoEntry: false })?.size ?? 0,
      lagSeconds: (t - startedAt) / 1000,
      hot: f.hot !== false,
      rpoSeconds: null,
      workedAt: workedAt(f),
    }));
    const replicated = files.map((f) => {
      const at = lastSync.get(f.path) ?? null;
      const bytes = behind.get(f.path) ?? (existsSync(`${f.path}-wal`) ? statSync(`${f.path}-wal`).size : 0);
      return {
        name: f.name,
        lastSyncAt: at,
        behindBytes: bytes,
        lagSeconds: bytes > 0 ? (t - (at ?? startedAt)) / 1000 : 0,
        hot: f.hot !== false,
        rpoSeconds: fileRpoMs(opts.syncMs, f.hot !== false, cold, coldMinMs) / 1000,
        workedAt: workedAt(f),
      };
    });
    return [...replicated, ...notYet];
  }

  return {
    status,
    pid: () => child?.pid ?? null,
    restarts: () => restarts,
    wrote(path) {
      if (floorChrt) floor.wrote(path, Date.now());
    },
    priority: () => ({ level: floor.level(), raises: floor.raises() }),
    async stop() {
      stopping = true;
      clearInterval(scan);
      if (floorCheck) clearInterval(floorCheck);
      clearInterval(report);
      if (respawn) clearTimeout(respawn);
      await halt(10_000);
      rmSync(pidFile, { force: true });
      // After Litestream's last checkpoints: a file changed later was worked on by someone else.
      writeStatus(await readStatus());
    },
  };
}
