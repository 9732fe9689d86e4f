import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { registerFeatures } from "../app";
import type { Config } from "../config";
import { referencedFileIds } from "../modules/files/kinds";
import { knownFileIds, readyFileIds } from "../modules/files/stored";
import { memberEmails } from "../modules/members/directory";
import { platformMigrations, tenantMigrations } from "../platform/db/migrations.gen";
import { directory } from "../platform/db/platform-tables";
import { listTenantRows, type TenantRow } from "../platform/db/registry";
import { drizzleOf } from "../platform/db/sqlite";
import { openFileStore } from "../platform/files/open-store";
import { isStoredId } from "../platform/files/storage";
import type { FileStore } from "../platform/files/store";
import type { ReplicaFileStatus } from "../platform/replica/supervisor";
import { checkSqlite, schemaProblem } from "./snapshot";

/** Reads a tenant file without migrating or writing it. */
function readTenant(path: string) {
  const db = new Database(path, { readwrite: true, create: false });
  try {
    const d = drizzleOf(db);
    return { emails: memberEmails(d), known: knownFileIds(d), ready: readyFileIds(d), referenced: referencedFileIds(d) };
  } finally {
    db.close();
  }
}

/** The directory index entries of every tenant, keyed `tenantId email → memberId`. */
function indexEntries(platformFile: string) {
  const db = new Database(platformFile, { readwrite: true, create: false });
  try {
    const d = drizzleOf(db);
    const entries = new Map<string, string>();
    for (const e of d.select().from(directory).all()) entries.set(`${e.tenantId} ${e.email}`, e.memberId);
    return { tenants: listTenantRows(d), entries };
  } finally {
    db.close();
  }
}

/**
 * Every problem of a data dir (docs/operating.md#checking-learnspace-doctor) and its file store; []
 * when healthy. `notes` gathers what is no problem but worth telling (files the collector will delete).
 */
export async function diagnose(dataDir: string, store: FileStore, notes: string[] = []): Promise<string[]> {
  const problems: string[] = [];
  const platformFile = join(dataDir, "platform.sqlite");
  if (!existsSync(platformFile)) return [`${platformFile} is missing`];
  problems.push(...checkSqlite(platformFile).map((p) => `platform.sqlite: ${p}`));
  const schema = problems.length ? null : schemaProblem(platformFile, platformMigrations);
  if (schema) problems.push(`platform.sqlite: ${schema}`);
  if (problems.length) return problems;
  const { tenants, entries } = indexEntries(platformFile);
  const registered = new Map<string, TenantRow>(tenants.map((t) => [t.id, t]));
  const tenantDir = join(dataDir, "tenants");
  const onDisk = existsSync(tenantDir) ? readdirSync(tenantDir).filter((n) => n.endsWith(".sqlite")) : [];
  for (const name of onDisk) {
    const id = name.slice(0, -".sqlite".length);
    if (!registered.has(id)) problems.push(`tenants/${name}: no tenant in the registry names this file`);
  }
  const seen = new Set<string>();
  for (const t of tenants) {
    const label = `tenant ${t.key}`;
    const file = join(tenantDir, `${t.id}.sqlite`);
    if (!existsSync(file)) {
      problems.push(`${label}: its file tenants/${t.id}.sqlite is missing`);
      continue;
    }
    const fileProblems = checkSqlite(file).map((p) => `${label}: ${p}`);
    const tenantSchema = fileProblems.length ? null : schemaProblem(file, tenantMigrations);
    if (tenantSchema) fileProblems.push(`${label}: ${tenantSchema}`);
    problems.push(...fileProblems);
    if (fileProblems.length) continue;
    let data: ReturnType<typeof readTenant>;
    try {
      data = readTenant(file);
    } catch (e) {
      problems.push(`${label}: ${(e as Error).message}`);
      continue;
    }
    for (const m of data.emails) {
      const k = `${t.id} ${m.email.toLowerCase()}`;
      seen.add(k);
      if (entries.get(k) !== m.memberId) problems.push(`${label}: directory entry of ${m.email} is missing or stale (run reindex)`);
    }
    const stored: string[] = [];
    try {
      for await (const o of store.list(t.id)) if (isStoredId(o.fileId)) stored.push(o.fileId);
    } catch (e) {
      problems.push(`${label}: the file store ${store.label} cannot be listed: ${(e as Error).message}`);
      continue;
    }
    for (const id of stored) if (!data.known.has(id)) problems.push(`${label}: stored file ${id} has no record`);
    const present = new Set(stored);
    for (const id of data.ready) if (!present.has(id)) problems.push(`${label}: file record ${id} has no stored bytes`);
    const unreferenced = data.ready.filter((id) => !data.referenced.has(id)).length;
    if (unreferenced) {
      notes.push(
        `${label}: ${unreferenced} stored file(s) no record attaches; the file collector deletes them after LEARNSPACE_FILE_GRACE`,
      );
    }
  }
  for (const k of entries.keys()) {
    const tenantId = k.slice(0, k.indexOf(" "));
    if (registered.has(tenantId) && existsSync(join(tenantDir, `${tenantId}.sqlite`)) && !seen.has(k)) {
      problems.push(
        `directory entry ${k.slice(k.indexOf(" ") + 1)} names no member of tenant ${registered.get(tenantId)?.key} (run reindex)`,
      );
    }
  }
  try {
    for (const id of await store.tenants()) if (!registered.has(id)) problems.push(`files/${id}: stored files of no registered tenant`);
  } catch (e) {
    problems.push(`the file store ${store.label} cannot be listed: ${(e as Error).message}`);
  }
  return problems;
}

/**
 * Replication as `serve` last reported it (`replica-status.json`, docs/rules/replication.md#lag): one
 * line per file, and a problem for a file behind by more than a minute or never synced.
 */
function replicationReport(config: Config): { lines: string[]; problems: string[] } {
  const path = join(config.dataDir, "replica-status.json");
  if (!config.replicaUrl) return { lines: [], problems: [] };
  if (!existsSync(path))
    return { lines: [], problems: ["replication: serve has not reported yet (is it running with LEARNSPACE_REPLICA_URL?)"] };
  const report = JSON.parse(readFileSync(path, "utf8")) as { at: number; priority?: string; raises?: number; files: ReplicaFileStatus[] };
  const age = Math.round((Date.now() - report.at) / 1000);
  const lines = [`replication: status of ${new Date(report.at).toISOString()} (${age} s ago)`];
  // Litestream's CPU floor (docs/rules/replication.md#scheduling).
  if (report.priority)
    lines.push(`replication: Litestream at ${report.priority} priority, raised ${report.raises ?? 0} times by the CPU floor`);
  const problems: string[] = [];
  if (age > 60) problems.push(`replication: the status is ${age} s old: serve is not running or not replicating`);
  for (const f of report.files) {
    const sync = f.lastSyncAt ? new Date(f.lastSyncAt).toISOString() : "never";
    const tier = f.rpoSeconds === null ? "waiting for its first snapshot" : `${f.hot ? "hot" : "cold"}, RPO ${f.rpoSeconds} s`;
    lines.push(`replica ${f.name}: lag ${f.lagSeconds.toFixed(1)} s, ${f.behindBytes} bytes behind, last sync ${sync} (${tier})`);
    if (f.lagSeconds > 60) problems.push(`replica ${f.name}: ${Math.round(f.lagSeconds)} s behind (last sync ${sync})`);
  }
  return { lines, problems };
}

/** `learnspace doctor`: prints every problem; exit 1 when there is any. */
export async function doctorCommand(config: Config): Promise<number> {
  registerFeatures();
  const notes: string[] = [];
  const problems = await diagnose(config.dataDir, openFileStore(config.dataDir, config.storageUrl), notes);
  for (const n of notes) console.log(`note: ${n}`);
  const replication = replicationReport(config);
  for (const l of replication.lines) console.log(l);
  problems.push(...replication.problems);
  for (const p of problems) console.log(`problem: ${p}`);
  if (problems.length) {
    console.error(`${problems.length} problem(s) in ${config.dataDir}`);
    return 1;
  }
  console.log(`${config.dataDir}: every file is sound and the directory matches the tenant files`);
  return 0;
}
