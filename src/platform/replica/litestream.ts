import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseS3Url } from "../files/s3-url";

type Env = Record<string, string | undefined>;

/** Where the npm package `@flydotio/litestream` puts the binary (one optional dependency per platform). */
const PACKAGE_BINARY = join("node_modules", "@flydotio", `litestream-${process.platform}-${process.arch}`, "litestream");

/**
 * The Litestream executable (docs/rules/replication.md#finding-litestream): `LEARNSPACE_LITESTREAM_BIN`,
 * else the npm package's binary in a `node_modules` beside the learnspace executable, the working
 * directory or the source tree (or any of their parents), else `litestream` on the PATH. The platform
 * binary itself, never the package's node shim: a signal must reach the process that holds the files.
 */
export function findLitestream(env: Env = process.env): string | null {
  const given = env.LEARNSPACE_LITESTREAM_BIN;
  if (given) return existsSync(given) ? resolve(given) : null;
  for (const start of [dirname(process.execPath), process.cwd(), import.meta.dir]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const candidate = join(dir, PACKAGE_BINARY);
      if (existsSync(candidate)) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  return Bun.which("litestream");
}

/** The Litestream binary, or an error that says where it was looked for. */
export function requireLitestream(env: Env = process.env): string {
  const bin = findLitestream(env);
  if (bin) return bin;
  throw new Error(
    env.LEARNSPACE_LITESTREAM_BIN
      ? `LEARNSPACE_LITESTREAM_BIN=${env.LEARNSPACE_LITESTREAM_BIN} does not exist`
      : "Litestream not found: set LEARNSPACE_LITESTREAM_BIN, install @flydotio/litestream beside the binary, or put litestream on the PATH",
  );
}

/**
 * A replicated file: its path on disk, its path in the replica (below the URL's prefix), and whether
 * it was written lately (`hot`: checked every S/2; else with the cold files, docs/rules/replication.md#tiers).
 * `firstSnapshot`: it takes its first snapshot in this run, so it is checked every S/2 whatever its
 * tier (docs/rules/replication.md#first-start).
 */
export type ReplicatedFile = { path: string; name: string; tenantId?: string; hot?: boolean; firstSnapshot?: boolean };

/**
 * One file's Litestream replica entry for an `s3://bucket[/prefix]?endpoint=…` URL
 * (docs/rules/replication.md#layout): `<prefix>/platform.sqlite`, `<prefix>/tenants/<id>.sqlite`.
 */
function replicaOf(replicaUrl: string, name: string, shipMs: number, env: Env) {
  const loc = parseS3Url(replicaUrl, env);
  return {
    type: "s3",
    bucket: loc.bucket,
    path: `${loc.prefix}${name}`,
    region: loc.options.region,
    ...(loc.options.endpoint ? { endpoint: loc.options.endpoint } : {}),
    "force-path-style": !loc.options.virtualHostedStyle,
    "sync-interval": `${shipMs}ms`,
  };
}

/**
 * Checks a second that Litestream may spend on the files not written lately, all together
 * (docs/rules/replication.md#tiers): each check of a file costs ~0.5–0.7 ms of CPU (measured), so 50
 * are 3–4 % of a core whatever the number of files; the cold interval grows with the files instead.
 */
export const COLD_CHECKS_PER_SECOND = 50;

/**
 * Litestream's intervals for a sync interval S and `coldFiles` files not written lately
 * (docs/rules/replication.md#rpo): a hot file's new WAL frames are copied every `monitorMs` (S/2)
 * and shipped at the first replica tick after that (`shipMs`, S/10), leaving 0.4 S for the upload; a
 * cold file is checked every `coldMonitorMs`, at least S/2, more as cold files add up.
 */
export function litestreamTimings(syncMs: number, coldFiles = 0, coldMinMs = 0) {
  const monitorMs = Math.max(10, Math.round(syncMs / 2));
  const shipMs = Math.max(10, Math.round(syncMs / 10));
  const coldMonitorMs = Math.max(monitorMs, Math.ceil((coldFiles / COLD_CHECKS_PER_SECOND) * 1000), coldMinMs);
  return { monitorMs, shipMs, coldMonitorMs };
}

/**
 * The RPO a file gets with these timings: S when hot; its check interval plus S/2 when cold
 * (docs/rules/replication.md#tiers). `coldMinMs`: the cold files' interval during a ramp of first
 * snapshots (docs/rules/replication.md#first-start).
 */
export function fileRpoMs(syncMs: number, hot: boolean, coldFiles: number, coldMinMs = 0): number {
  const t = litestreamTimings(syncMs, coldFiles, coldMinMs);
  return hot ? syncMs : t.coldMonitorMs + Math.round(syncMs / 2);
}

/**
 * How much shorter than its tier's interval a file's check interval may be: file i is checked every
 * interval × (1 − STAGGER × frac(i × φ)) (docs/rules/replication.md#staggering). Litestream 0.3 starts
 * one ticker per file, all in the same millisecond: with one interval for all, every file was checked
 * (and, after a start, opened and its replica position LISTed) in the same instant, a burst each
 * interval; distinct intervals spread the first checks over a quarter of the interval and drift apart
 * after. Never longer than the tier's interval, so no RPO grows; ~15 % more checks on average.
 */
export const STAGGER = 0.25;
const GOLDEN = (Math.sqrt(5) - 1) / 2;
export const staggered = (ms: number, i: number) => Math.max(10, Math.round(ms * (1 - STAGGER * ((i * GOLDEN) % 1))));

/**
 * Litestream's configuration for these files (JSON is YAML; read with -no-expand-env so that no `$`
 * in a path is expanded). Credentials are not in it: Litestream reads them from its environment.
 */
export function litestreamConfig(
  opts: { replicaUrl: string; files: ReplicatedFile[]; syncMs: number; metricsAddr?: string; coldMinMs?: number },
  env: Env = process.env,
) {
  // A file taking its first snapshot is checked as a hot one for this run (docs/rules/replication.md#first-start).
  const checkedCold = (f: ReplicatedFile) => f.hot === false && !f.firstSnapshot;
  const cold = opts.files.filter(checkedCold).length;
  const t = litestreamTimings(opts.syncMs, cold, opts.coldMinMs);
  // Hot files first: Litestream stops (a restart's SIGTERM) in this order (docs/rules/replication.md#restarts).
  const files = [...opts.files.filter((f) => !checkedCold(f)), ...opts.files.filter(checkedCold)];
  return {
    ...(opts.metricsAddr ? { addr: opts.metricsAddr } : {}),
    // Litestream looks for new WAL frames every monitor-interval (its default 1 s) before a replica
    // can ship them; a file not marked cold is hot (docs/rules/replication.md#rpo), and each
    // file's interval is staggered (docs/rules/replication.md#staggering).
    dbs: files.map((f, i) => ({
      path: f.path,
      "monitor-interval": `${staggered(checkedCold(f) ? t.coldMonitorMs : t.monitorMs, i)}ms`,
      replicas: [replicaOf(opts.replicaUrl, f.name, t.shipMs, env)],
    })),
  };
}

/** Litestream's environment: the S3 credentials of the URL's variables (AWS_* or S3_*) and nothing of ours. */
export function litestreamEnv(replicaUrl: string, env: Env = process.env): Record<string, string> {
  const { options } = parseS3Url(replicaUrl, env);
  const out: Record<string, string> = { PATH: env.PATH ?? "/usr/bin:/bin", HOME: env.HOME ?? "/" };
  if (options.accessKeyId) out.LITESTREAM_ACCESS_KEY_ID = options.accessKeyId;
  if (options.secretAccessKey) out.LITESTREAM_SECRET_ACCESS_KEY = options.secretAccessKey;
  if (options.sessionToken) out.AWS_SESSION_TOKEN = options.sessionToken;
  return out;
}

/** The replica name of a data-dir file: `platform.sqlite` or `tenants/<id>.sqlite`. */
export const platformReplicaName = "platform.sqlite";
export const tenantReplicaName = (tenantId: string) => `tenants/${tenantId}.sqlite`;
