import { chmodSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Config, flag } from "../config";
import { resolveMember } from "../modules/members/actor";
import { registerTenantFile } from "../modules/tenant/transfer";
import { platformMigrations, tenantMigrations } from "../platform/db/migrations.gen";
import { openFileStore } from "../platform/files/open-store";
import { createRuntime } from "../platform/runtime";
import { reindex } from "./reindex";
import { replicaRestoreCommand } from "./replica-restore";
import { CommandError, digestProblem, type Manifest, refuse, restoreIntoPlace, sqliteCopyProblems } from "./snapshot";

export const RESTORE_USAGE = "learnspace restore --from FOLDER [--force] [--data-dir DIR]";

export function readManifest(folder: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"));
  } catch {
    throw new CommandError(`${folder} is not a learnspace backup (manifest.json missing or unreadable)`);
  }
  if (manifest?.format !== 1 || !Array.isArray(manifest.tenants)) throw new CommandError(`${folder}: unknown manifest format`);
  return manifest;
}

/** Every problem of a backup folder: each digest, each SQLite file's integrity and schema. */
export async function verifyBackup(folder: string, manifest: Manifest): Promise<string[]> {
  const problems: string[] = [];
  if (manifest.platform) {
    problems.push(...(await sqliteCopyProblems(join(folder, "platform.sqlite"), manifest.platform, "platform.sqlite", platformMigrations)));
  }
  if (manifest.secret) {
    const p = await digestProblem(join(folder, "secret"), manifest.secret, "secret");
    if (p) problems.push(p);
  }
  for (const t of manifest.tenants) {
    if (!/^[0-9a-f-]{36}$/.test(t.id)) {
      problems.push(`tenant ${t.key}: invalid id`);
      continue;
    }
    problems.push(...(await sqliteCopyProblems(join(folder, "tenants", `${t.id}.sqlite`), t, `tenant ${t.key}`, tenantMigrations)));
    for (const f of t.files) {
      if (!/^[0-9a-f-]{36}$/.test(f.id)) problems.push(`tenant ${t.key}: invalid file id`);
      else {
        const p = await digestProblem(join(folder, "files", t.id, f.id), f, `tenant ${t.key} file ${f.id}`);
        if (p) problems.push(p);
      }
    }
  }
  return problems;
}

function place(from: string, to: string) {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  chmodSync(to, 0o600);
}

/**
 * Restores a backup folder into the data dir: verifies everything first, writes into a sibling
 * folder, then moves it into place (a --force moves the old contents aside first), and rebuilds
 * the e-mail directory from the restored tenant files.
 */
export async function restore(config: Config, opts: { from: string; force: boolean }) {
  const manifest = readManifest(opts.from);
  const problems = await verifyBackup(opts.from, manifest);
  if (problems.length) refuse("backup refused, nothing written", problems);
  const dataDir = config.dataDir;
  const { movedAside } = await restoreIntoPlace(dataDir, opts.force, async (work) => {
    if (manifest.platform) place(join(opts.from, "platform.sqlite"), join(work, "platform.sqlite"));
    if (manifest.secret) place(join(opts.from, "secret"), join(work, "secret"));
    for (const t of manifest.tenants) {
      place(join(opts.from, "tenants", `${t.id}.sqlite`), join(work, "tenants", `${t.id}.sqlite`));
      // With an S3 store the files go there once the data dir is in place (below).
      if (!config.storageUrl) for (const f of t.files) place(join(opts.from, "files", t.id, f.id), join(work, "files", t.id, f.id));
    }
  });
  if (config.storageUrl) {
    const store = openFileStore(dataDir, config.storageUrl);
    for (const t of manifest.tenants) for (const f of t.files) await store.put(t.id, f.id, Bun.file(join(opts.from, "files", t.id, f.id)));
  }
  if (manifest.platform) {
    // The platform file was copied a moment before the tenant files: index what they hold.
    reindex(config);
  } else {
    const rt = createRuntime({ ...config, quiet: true }, resolveMember);
    try {
      for (const t of manifest.tenants) registerTenantFile(rt, t.id, t.key);
    } finally {
      rt.close();
    }
  }
  return { manifest, movedAside };
}

export async function restoreCommand(config: Config, args: string[]): Promise<number> {
  const replica = flag(args, "from-replica");
  if (replica) return replicaRestoreCommand(config, args, replica);
  const from = flag(args, "from");
  if (!from) throw new CommandError(`--from is required: ${RESTORE_USAGE}`);
  const { manifest, movedAside } = await restore(config, { from, force: args.includes("--force") });
  if (movedAside) console.log(`moved the old contents of ${config.dataDir} to ${movedAside}`);
  const files = manifest.tenants.reduce((n, t) => n + t.files.length, 0);
  console.log(
    `restored ${manifest.platform ? "the platform file, " : ""}${manifest.tenants.length} tenant file(s) and ${files} stored file(s) from ${manifest.createdAt} into ${config.dataDir}`,
  );
  return 0;
}
