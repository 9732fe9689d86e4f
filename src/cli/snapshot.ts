import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { readyFileIds } from "../modules/files/stored";
import { checkSqlite } from "../platform/db/check";
import type { EmbeddedMigration } from "../platform/db/migrate";
import { drizzleOf } from "../platform/db/sqlite";
import type { FileStore } from "../platform/files/store";
import { tightenModes } from "../platform/modes";

/** One copied file of a backup or export: its path relative to the folder, size and digest. */
export type FileEntry = { id: string; bytes: number; sha256: string };
export type TenantEntry = { id: string; key: string; bytes: number; sha256: string; files: FileEntry[] };
/** manifest.json of a backup folder (docs/operating.md#one-now). */
export type Manifest = {
  format: 1;
  version: string;
  createdAt: string;
  platform: { bytes: number; sha256: string } | null;
  secret?: { bytes: number; sha256: string } | null;
  tenants: TenantEntry[];
};

export { checkSqlite };

export const VERSION = pkg.version;

/** A failure the command reports as its one-line reason (exit 1). */
export class CommandError extends Error {}

export async function sha256File(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream() as unknown as AsyncIterable<Uint8Array>) hasher.update(chunk);
  return hasher.digest("hex");
}

export async function describeFile(path: string): Promise<{ bytes: number; sha256: string }> {
  return { bytes: statSync(path).size, sha256: await sha256File(path) };
}

/**
 * A consistent copy of a live SQLite file (VACUUM INTO reads one snapshot, whatever the server
 * writes meanwhile); the copy is a rollback-journal file so it can be checked read-only.
 */
export function snapshotSqlite(source: string, target: string) {
  mkdirSync(dirname(target), { recursive: true });
  const db = new Database(source, { readwrite: true, create: false });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(target);
  } finally {
    db.close();
  }
  const copy = new Database(target);
  copy.exec("PRAGMA journal_mode = DELETE");
  copy.close();
  chmodSync(target, 0o600);
}

/** The ids of a tenant file's stored files that are ready (their bytes must exist). */
export function storedFilesOf(sqlitePath: string): string[] {
  const db = new Database(sqlitePath, { readonly: true });
  try {
    return readyFileIds(drizzleOf(db));
  } finally {
    db.close();
  }
}

/** Streams bytes into a new 0600 file, hashing them on the way; returns the count and sha256. */
export async function saveBlob(source: Blob, path: string): Promise<{ bytes: number; sha256: string }> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const hasher = new Bun.CryptoHasher("sha256");
  const sink = Bun.file(path).writer();
  let bytes = 0;
  try {
    for await (const chunk of source.stream() as unknown as AsyncIterable<Uint8Array>) {
      hasher.update(chunk);
      bytes += chunk.byteLength;
      await sink.write(chunk);
    }
  } finally {
    await sink.end();
  }
  chmodSync(path, 0o600);
  return { bytes, sha256: hasher.digest("hex") };
}

/** The sha256 of stored bytes, read as a stream. */
export async function sha256Blob(source: Blob): Promise<{ bytes: number; sha256: string }> {
  const hasher = new Bun.CryptoHasher("sha256");
  let bytes = 0;
  for await (const chunk of source.stream() as unknown as AsyncIterable<Uint8Array>) {
    hasher.update(chunk);
    bytes += chunk.byteLength;
  }
  return { bytes, sha256: hasher.digest("hex") };
}

/** Copies a tenant's ready stored files out of the store into `toDir` (ids from its snapshot); returns their entries. */
export async function copyStoredFiles(
  store: FileStore,
  tenantId: string,
  ids: string[],
  toDir: string,
): Promise<{ entries: FileEntry[]; missing: string[] }> {
  const entries: FileEntry[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    if ((await store.size(tenantId, id)) === null) {
      missing.push(id);
      continue;
    }
    entries.push({ id, ...(await saveBlob(store.open(tenantId, id), join(toDir, id))) });
  }
  return { entries, missing };
}

/** True when the directory is absent or holds nothing. */
export function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** `20261125T210000Z`: the UTC time of a backup folder's name. */
export function stamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** Refuses with the first problem named and how many more there are. */
export function refuse(what: string, problems: string[]): never {
  throw new CommandError(`${what}: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`);
}

/**
 * The one way a restore replaces the data dir (docs/operating.md#restore): `build` writes the
 * restored files into a sibling folder and checks them (throwing to refuse); only when it returns is
 * that folder moved into place in one rename, a non-empty data dir moved aside first with `force`.
 * On any failure the sibling goes and the data dir is as it was.
 */
export async function restoreIntoPlace<T>(
  dataDir: string,
  force: boolean,
  build: (work: string) => Promise<T>,
): Promise<{ built: T; movedAside: string | null }> {
  let movedAside: string | null = null;
  if (!isEmptyDir(dataDir)) {
    if (!force) throw new CommandError(`${dataDir} is not empty; pass --force to move its contents aside and restore`);
    movedAside = `${dataDir}.before-restore-${stamp()}`;
  }
  const work = `${dataDir}.restoring-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true, mode: 0o700 });
  try {
    const built = await build(work);
    if (movedAside) renameSync(dataDir, movedAside);
    else if (existsSync(dataDir)) rmSync(dataDir, { recursive: true });
    renameSync(work, dataDir);
    tightenModes(dataDir);
    return { built, movedAside };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

/** A copy's problem (missing, size or sha256 differs), or null when it matches its manifest entry. */
export async function digestProblem(path: string, expected: { bytes: number; sha256: string }, label: string): Promise<string | null> {
  if (!existsSync(path)) return `${label}: missing`;
  const actual = await describeFile(path);
  if (actual.bytes !== expected.bytes || actual.sha256 !== expected.sha256) return `${label}: sha256 does not match the manifest`;
  return null;
}

/** Checks a copied SQLite file: digest, integrity, foreign keys, and a schema this binary knows. */
export async function sqliteCopyProblems(
  path: string,
  expected: { bytes: number; sha256: string },
  label: string,
  migrations: EmbeddedMigration[],
): Promise<string[]> {
  const digest = await digestProblem(path, expected, label);
  if (digest) return [digest];
  const problems = checkSqlite(path, { readonly: true }).map((p) => `${label}: ${p}`);
  if (problems.length) return problems;
  const schema = schemaProblem(path, migrations);
  return schema ? [`${label}: ${schema}`] : [];
}

/** Why this binary must not open the file (its schema is newer than the binary knows), or null. */
export function schemaProblem(path: string, migrations: EmbeddedMigration[]): string | null {
  const db = new Database(path, { readonly: true });
  try {
    const last = (db.query("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as { at: number | null }).at ?? 0;
    const newest = migrations.at(-1)?.when ?? 0;
    return Number(last) > newest
      ? `migrated by a newer learnspace (schema ${last}); this binary, learnspace ${VERSION}, knows schema ${newest}`
      : null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    db.close();
  }
}
