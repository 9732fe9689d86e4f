import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { registerFeatures } from "../app";
import { type Config, flag } from "../config";
import { TenantKey } from "../modules/auth/model";
import { resolveMember } from "../modules/members/actor";
import { registerTenantFile } from "../modules/tenant/transfer";
import { platformMigrations, tenantMigrations } from "../platform/db/migrations.gen";
import { tenantByKey } from "../platform/db/registry";
import { openFileStore } from "../platform/files/open-store";
import { tightenModes } from "../platform/modes";
import { platformReplicaName, tenantReplicaName } from "../platform/replica/litestream";
import { ReplicaRestoreError, restoreReplicaFile, restoreTenantFromReplica, tenantsIn } from "../platform/replica/restore";
import { createRuntime } from "../platform/runtime";
import { diagnose } from "./doctor";
import { reindex } from "./reindex";
import { CommandError, refuse, restoreIntoPlace, schemaProblem } from "./snapshot";

export const REPLICA_RESTORE_USAGE = "learnspace restore --from-replica URL [--tenant KEY [--as NEWKEY]] [--at TIME] [--force]";

type Options = { url: string; tenant?: string; as?: string; at?: Date; force: boolean };

/**
 * Everything the replica holds (the platform file and every tenant it registers, as of `at`) into an
 * empty data dir: each file restored and integrity-checked, the e-mail directory rebuilt, then
 * `doctor` on the result; only a clean result is moved into place (docs/operating.md#restoring-from-the-replica).
 */
async function restoreAll(config: Config, o: Options) {
  try {
    const { built, movedAside } = await restoreIntoPlace(config.dataDir, o.force, async (work) => {
      mkdirSync(join(work, "tenants"), { mode: 0o700 });
      if (!(await restoreReplicaFile({ replicaUrl: o.url, name: platformReplicaName, out: join(work, "platform.sqlite"), at: o.at }))) {
        throw new CommandError(`the replica holds no platform.sqlite${o.at ? ` as old as ${o.at.toISOString()}` : ""}`);
      }
      const tenants = tenantsIn(join(work, "platform.sqlite"));
      const missing: string[] = [];
      for (const t of tenants) {
        const out = join(work, "tenants", `${t.id}.sqlite`);
        if (!(await restoreReplicaFile({ replicaUrl: o.url, name: tenantReplicaName(t.id), out, at: o.at })))
          missing.push(`tenant ${t.key}: not in the replica`);
      }
      if (missing.length) refuse("replica refused, nothing written (an earlier --at may hold it)", missing);
      const schema = [`platform.sqlite: ${schemaProblem(join(work, "platform.sqlite"), platformMigrations)}`];
      for (const t of tenants) schema.push(`tenant ${t.key}: ${schemaProblem(join(work, "tenants", `${t.id}.sqlite`), tenantMigrations)}`);
      const tooNew = schema.filter((p) => !p.endsWith(": null"));
      if (tooNew.length) refuse("replica refused, nothing written", tooNew);
      // The platform file and the tenant files are each their own moment: index what the tenant files hold.
      reindex({ ...config, dataDir: work, quiet: true });
      const problems = await diagnose(work, openFileStore(work, config.storageUrl));
      if (problems.length) refuse("doctor found problems in the restored files, nothing moved into place", problems);
      return tenants.length;
    });
    return { tenants: built, movedAside };
  } catch (e) {
    throw e instanceof ReplicaRestoreError ? new CommandError(e.message) : e;
  }
}

/** One tenant from the replica beside the others (under its key, or `--as NEWKEY`), registered, then checked by doctor. */
async function restoreOne(config: Config, o: Options & { tenant: string }) {
  const key = o.as ?? o.tenant;
  if (!Value.Check(TenantKey, key)) throw new CommandError(`--as must be lowercase letters, digits and "-", got "${key}"`);
  const rt = createRuntime({ ...config, quiet: true }, resolveMember);
  try {
    if (tenantByKey(rt.platform.db, key)) throw new CommandError(`a tenant with key "${key}" exists here; pass --as NEWKEY`);
    let restored: Awaited<ReturnType<typeof restoreTenantFromReplica>>;
    try {
      restored = await restoreTenantFromReplica({ replicaUrl: o.url, dataDir: config.dataDir, tenantKey: o.tenant, at: o.at });
    } catch (e) {
      throw e instanceof ReplicaRestoreError ? new CommandError(e.message) : e;
    }
    const tooNew = schemaProblem(restored.file, tenantMigrations);
    if (tooNew) {
      rmSync(restored.file, { force: true });
      throw new CommandError(`replica refused, nothing written: tenant ${o.tenant}: ${tooNew}`);
    }
    tightenModes(restored.file);
    registerTenantFile(rt, restored.tenantId, key);
    return restored;
  } finally {
    rt.close();
  }
}

export async function replicaRestoreCommand(config: Config, args: string[], url: string): Promise<number> {
  const atRaw = flag(args, "at");
  const at = atRaw === undefined ? undefined : new Date(atRaw);
  if (at && Number.isNaN(at.getTime())) throw new CommandError(`--at must be a time like 2026-11-25T14:30:00Z, got "${atRaw}"`);
  const o: Options = { url, at, tenant: flag(args, "tenant"), as: flag(args, "as"), force: args.includes("--force") };
  if (o.as && !o.tenant) throw new CommandError(`--as needs --tenant: ${REPLICA_RESTORE_USAGE}`);
  // doctor's checks ask the features which files their records reference.
  registerFeatures();
  const t0 = performance.now();
  if (!o.tenant) {
    const { tenants, movedAside } = await restoreAll(config, o);
    if (movedAside) console.log(`moved the old contents of ${config.dataDir} to ${movedAside}`);
    console.log(
      `restored the platform file and ${tenants} tenant file(s) from the replica${at ? ` as of ${at.toISOString()}` : ""} into ${config.dataDir} in ${Math.round(performance.now() - t0)} ms; doctor found no problem`,
    );
    return 0;
  }
  const restored = await restoreOne(config, { ...o, tenant: o.tenant });
  const key = o.as ?? o.tenant;
  const problems = (await diagnose(config.dataDir, openFileStore(config.dataDir, config.storageUrl))).filter((p) =>
    p.startsWith(`tenant ${key}:`),
  );
  for (const p of problems) console.error(`learnspace restore: ${p}`);
  console.log(
    `restored tenant ${o.tenant}${o.as ? ` as ${o.as}` : ""} (file tenants/${restored.tenantId}.sqlite) from the replica${at ? ` as of ${at.toISOString()}` : ""} in ${Math.round(performance.now() - t0)} ms`,
  );
  return problems.length ? 1 : 0;
}
