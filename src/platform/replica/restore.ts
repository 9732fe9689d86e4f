import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkSqlite } from "../db/check";
import { litestreamConfig, litestreamEnv, platformReplicaName, requireLitestream, tenantReplicaName } from "./litestream";

type Env = Record<string, string | undefined>;

/** A restore from the replica that could not be done; its message is one line. */
export class ReplicaRestoreError extends Error {}

/**
 * Restores one replicated file (`platform.sqlite` or `tenants/<id>.sqlite`) as it was at `at`
 * (default: the newest synced state) into `out`, which must not exist; then checks it with
 * integrity_check and foreign_key_check. Returns false when the replica holds nothing for it
 * (or nothing as old as `at`).
 */
export async function restoreReplicaFile(opts: { replicaUrl: string; name: string; out: string; at?: Date; env?: Env }): Promise<boolean> {
  const env = opts.env ?? process.env;
  const bin = requireLitestream(env);
  const work = mkdtempSync(`${opts.out}.replica-`);
  try {
    // Litestream restores a path named in its configuration; this one only names the replica.
    const key = join(work, "source.sqlite");
    const config = join(work, "litestream.yml");
    writeFileSync(
      config,
      JSON.stringify(litestreamConfig({ replicaUrl: opts.replicaUrl, files: [{ path: key, name: opts.name }], syncMs: 1000 }, env)),
      {
        mode: 0o600,
      },
    );
    const target = join(work, "restored.sqlite");
    const args = [bin, "restore", "-config", config, "-no-expand-env", "-if-replica-exists", "-o", target];
    if (opts.at) args.push("-timestamp", opts.at.toISOString());
    const run = Bun.spawn([...args, key], { env: litestreamEnv(opts.replicaUrl, env), stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(run.stderr).text(), run.exited]);
    if (code !== 0) {
      const last = stderr.trim().split("\n").at(-1) ?? "";
      if (/no matching backups|no snapshots available|no generation/i.test(last)) return false;
      throw new ReplicaRestoreError(`${opts.name}: litestream restore failed: ${last}`);
    }
    if (!existsSync(target)) return false;
    const problems = checkSqlite(target);
    if (problems.length) throw new ReplicaRestoreError(`${opts.name} from the replica is damaged: ${problems[0]}`);
    renameSync(target, opts.out);
    chmodSync(opts.out, 0o600);
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The tenants a replicated platform file registers, as they were at `at`. */
export async function replicatedTenants(opts: { replicaUrl: string; at?: Date; env?: Env; scratch: string }) {
  const out = join(opts.scratch, `platform-${crypto.randomUUID()}.sqlite`);
  if (!(await restoreReplicaFile({ ...opts, name: platformReplicaName, out }))) {
    throw new ReplicaRestoreError(`the replica holds no platform.sqlite${opts.at ? ` as old as ${opts.at.toISOString()}` : ""}`);
  }
  try {
    return tenantsIn(out);
  } finally {
    rmSync(out, { force: true });
  }
}

/** The tenants a platform file registers (id, key, name), by key. */
export function tenantsIn(platformFile: string) {
  const db = new Database(platformFile, { readonly: true });
  try {
    return db.query("SELECT id, key, name FROM tenants ORDER BY key").all() as { id: string; key: string; name: string }[];
  } finally {
    db.close();
  }
}

/**
 * Restores one tenant's file from the replica into `dataDir/tenants/<id>.sqlite`, checked with
 * integrity_check first (docs/operating.md#restoring-from-the-replica). The tenant is found by key in
 * the replicated platform file, or named by `tenantId` directly. The file keeps its id unless a file
 * with that id is already in `dataDir`, then it gets a new one. The result is not registered yet: the
 * caller registers `{tenantId, key}` (key: as given, "" when only the id was) in its platform file (`registerTenantFile` in
 * modules/tenant/transfer.ts, as `tenant import` does) before serving it.
 */
export async function restoreTenantFromReplica(opts: {
  replicaUrl: string;
  dataDir: string;
  tenantKey?: string;
  tenantId?: string;
  at?: Date;
  env?: Env;
}): Promise<{ tenantId: string; sourceId: string; key: string; file: string }> {
  const tenantsDir = join(opts.dataDir, "tenants");
  mkdirSync(tenantsDir, { recursive: true, mode: 0o700 });
  let sourceId = opts.tenantId;
  const key = opts.tenantKey ?? "";
  if (!sourceId) {
    if (!key) throw new ReplicaRestoreError("name the tenant by key or id");
    const found = (await replicatedTenants({ ...opts, scratch: tenantsDir })).find((t) => t.key === key);
    if (!found)
      throw new ReplicaRestoreError(
        `the replica's platform file registers no tenant "${key}"${opts.at ? ` at ${opts.at.toISOString()}` : ""}`,
      );
    sourceId = found.id;
  }
  if (!/^[0-9a-f-]{36}$/.test(sourceId)) throw new ReplicaRestoreError(`invalid tenant id ${sourceId}`);
  const tenantId = existsSync(join(tenantsDir, `${sourceId}.sqlite`)) ? crypto.randomUUID() : sourceId;
  const file = join(tenantsDir, `${tenantId}.sqlite`);
  const restored = await restoreReplicaFile({
    replicaUrl: opts.replicaUrl,
    name: tenantReplicaName(sourceId),
    out: file,
    at: opts.at,
    env: opts.env,
  });
  if (!restored)
    throw new ReplicaRestoreError(
      `the replica holds no file of tenant ${key || sourceId}${opts.at ? ` as old as ${opts.at.toISOString()}` : ""}`,
    );
  return { tenantId, sourceId, key, file };
}
