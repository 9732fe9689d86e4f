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

/** A replicated file: its path on disk and its path in the replica (below the URL's prefix). */
export type ReplicatedFile = { path: string; name: string };

/**
 * One file's Litestream replica entry for an `s3://bucket[/prefix]?endpoint=…` URL
 * (docs/rules/replication.md#layout): `<prefix>/platform.sqlite`, `<prefix>/tenants/<id>.sqlite`.
 */
function replicaOf(replicaUrl: string, name: string, syncMs: number, env: Env) {
  const loc = parseS3Url(replicaUrl, env);
  return {
    type: "s3",
    bucket: loc.bucket,
    path: `${loc.prefix}${name}`,
    region: loc.options.region,
    ...(loc.options.endpoint ? { endpoint: loc.options.endpoint } : {}),
    "force-path-style": !loc.options.virtualHostedStyle,
    "sync-interval": `${litestreamTimings(syncMs).shipMs}ms`,
  };
}

/**
 * Litestream's two intervals for a sync interval S, so that a write acknowledged S before the disk
 * is lost is in the replica (docs/rules/replication.md#rpo): Litestream copies new WAL frames every
 * `monitorMs` (S/4) and ships what it copied every `shipMs` (S/2), leaving a quarter of S for the
 * upload and a checkpoint (its cost: docs/rules/replication.md#cost).
 */
export function litestreamTimings(syncMs: number) {
  return { monitorMs: Math.max(10, Math.round(syncMs / 4)), shipMs: Math.max(10, Math.round(syncMs / 2)) };
}

/**
 * Litestream's configuration for these files (JSON is YAML; read with -no-expand-env so that no `$`
 * in a path is expanded). Credentials are not in it: Litestream reads them from its environment.
 */
export function litestreamConfig(
  opts: { replicaUrl: string; files: ReplicatedFile[]; syncMs: number; metricsAddr?: string },
  env: Env = process.env,
) {
  return {
    ...(opts.metricsAddr ? { addr: opts.metricsAddr } : {}),
    // Litestream looks for new WAL frames every monitor-interval (default 1 s) before a sync can ship
    // them (docs/rules/replication.md#rpo).
    dbs: opts.files.map((f) => ({
      path: f.path,
      "monitor-interval": `${litestreamTimings(opts.syncMs).monitorMs}ms`,
      replicas: [replicaOf(opts.replicaUrl, f.name, opts.syncMs, env)],
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
