import { Database } from "bun:sqlite";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Config, flag } from "../config";
import { platformMigrations, tenantMigrations } from "../platform/db/migrations.gen";
import { listTenantRows, type TenantRow, tenantByKey } from "../platform/db/registry";
import { drizzleOf } from "../platform/db/sqlite";
import { openFileStore } from "../platform/files/open-store";
import type { FileStore } from "../platform/files/store";
import {
  CommandError,
  copyStoredFiles,
  describeFile,
  type Manifest,
  schemaProblem,
  snapshotSqlite,
  stamp,
  storedFilesOf,
  type TenantEntry,
  VERSION,
} from "./snapshot";

export const BACKUP_PREFIX = "learnspace-";

export function readTenants(platformFile: string, key: string | null): TenantRow[] {
  const db = new Database(platformFile, { readonly: true });
  try {
    const pdb = drizzleOf(db);
    if (key === null) return listTenantRows(pdb);
    const row = tenantByKey(pdb, key);
    if (!row) throw new CommandError(`no tenant with key "${key}"`);
    return [row];
  } finally {
    db.close();
  }
}

/** Like every other command, backup never opens a data dir migrated by a newer binary (docs/rules/trust.md#newer-data-dirs). */
function refuseNewerSchema(dataDir: string, platformFile: string, tenantKey: string | null) {
  const problem = schemaProblem(platformFile, platformMigrations);
  if (problem) throw new CommandError(`platform.sqlite: ${problem}`);
  for (const row of readTenants(platformFile, tenantKey)) {
    const file = join(dataDir, "tenants", `${row.id}.sqlite`);
    const p = existsSync(file) ? schemaProblem(file, tenantMigrations) : null;
    if (p) throw new CommandError(`tenant ${row.key}: ${p}`);
  }
}

/** A free folder name `learnspace-<UTC stamp>` under `out` (a suffix when one second holds two). */
function newFolder(out: string): string {
  const base = join(out, `${BACKUP_PREFIX}${stamp()}`);
  let folder = base;
  for (let i = 2; existsSync(folder) || existsSync(`${folder}.partial`); i++) folder = `${base}-${i}`;
  return folder;
}

/** Copies one tenant's file (consistent snapshot) and the stored files that snapshot references. */
export async function copyTenant(
  dataDir: string,
  store: FileStore,
  tenant: { id: string; key: string },
  into: string,
): Promise<TenantEntry> {
  const target = join(into, "tenants", `${tenant.id}.sqlite`);
  const source = join(dataDir, "tenants", `${tenant.id}.sqlite`);
  if (!existsSync(source)) throw new CommandError(`tenant ${tenant.key}: its file ${source} is missing (see learnspace doctor)`);
  snapshotSqlite(source, target);
  // A file removed after the snapshot was taken is gone from the live dir too; the copy stays consistent without it.
  const { entries } = await copyStoredFiles(store, tenant.id, storedFilesOf(target), join(into, "files", tenant.id));
  return { id: tenant.id, key: tenant.key, ...(await describeFile(target)), files: entries };
}

/**
 * An online backup of the data dir (or one tenant) into `out/learnspace-<stamp>/`: the platform
 * file first, then each tenant it lists, each a consistent snapshot; the folder appears under its
 * final name only when complete.
 */
export async function backup(config: Config, opts: { out: string; tenantKey?: string | null }) {
  const platformFile = join(config.dataDir, "platform.sqlite");
  if (!existsSync(platformFile)) throw new CommandError(`no data dir at ${config.dataDir} (platform.sqlite missing)`);
  refuseNewerSchema(config.dataDir, platformFile, opts.tenantKey ?? null);
  mkdirSync(opts.out, { recursive: true });
  const folder = newFolder(opts.out);
  const work = `${folder}.partial`;
  mkdirSync(work, { recursive: true, mode: 0o700 });
  try {
    const createdAt = new Date().toISOString();
    let platform: Manifest["platform"] = null;
    let secret: Manifest["secret"] = null;
    let rows: TenantRow[];
    if (opts.tenantKey) {
      rows = readTenants(platformFile, opts.tenantKey);
    } else {
      snapshotSqlite(platformFile, join(work, "platform.sqlite"));
      platform = await describeFile(join(work, "platform.sqlite"));
      rows = readTenants(join(work, "platform.sqlite"), null);
      const secretFile = join(config.dataDir, "secret");
      if (existsSync(secretFile)) {
        copyFileSync(secretFile, join(work, "secret"));
        chmodSync(join(work, "secret"), 0o600);
        secret = await describeFile(join(work, "secret"));
      }
    }
    const tenants: TenantEntry[] = [];
    const store = openFileStore(config.dataDir, config.storageUrl);
    for (const row of rows) tenants.push(await copyTenant(config.dataDir, store, row, work));
    const manifest: Manifest = { format: 1, version: VERSION, createdAt, platform, secret, tenants };
    writeFileSync(join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    renameSync(work, folder);
    chmodSync(folder, 0o700);
    return { folder, manifest };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

/** Keeps the newest `keep` backup folders under `out`; returns the ones removed. */
export function rotateBackups(out: string, keep: number): string[] {
  const folders = readdirSync(out)
    .filter((n) => n.startsWith(BACKUP_PREFIX) && !n.endsWith(".partial") && existsSync(join(out, n, "manifest.json")))
    .sort();
  const removed = folders.slice(0, Math.max(0, folders.length - keep));
  for (const n of removed) rmSync(join(out, n), { recursive: true, force: true });
  return removed;
}

export const BACKUP_USAGE = "learnspace backup --out DIR [--tenant KEY] [--data-dir DIR]";

/** `learnspace backup`: prints what it copied, then the folder's path last. */
export async function backupCommand(config: Config, args: string[]): Promise<number> {
  const out = flag(args, "out");
  if (!out) throw new CommandError(`--out is required: ${BACKUP_USAGE}`);
  const t0 = performance.now();
  const { folder, manifest } = await backup(config, { out: resolve(out), tenantKey: flag(args, "tenant") ?? null });
  const files = manifest.tenants.reduce((n, t) => n + t.files.length, 0);
  const bytes =
    (manifest.platform?.bytes ?? 0) + manifest.tenants.reduce((n, t) => n + t.bytes + t.files.reduce((m, f) => m + f.bytes, 0), 0);
  console.log(
    `backed up ${manifest.platform ? "the platform file, " : ""}${manifest.tenants.length} tenant file(s) and ${files} stored file(s), ${bytes} bytes in ${Math.round(performance.now() - t0)} ms`,
  );
  console.log(folder);
  return 0;
}
