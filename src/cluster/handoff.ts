import type { Database } from "bun:sqlite";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkSqlite, snapshotSqlite } from "../cli/snapshot";
import { removeTenantFile } from "../modules/tenant/provision";
import { settled } from "../platform/db/group-commit";
import { tenantById, tenantByKey } from "../platform/db/registry";
import { write } from "../platform/db/types";
import { conflict, notFound } from "../platform/http/errors";
import type { Runtime } from "../platform/runtime";
import { readPlacement } from "./etcd";
import type { ClusterNode } from "./node";

/** How long a freeze waits for the school's write requests already accepted (docs/rules/cluster.md#moving-a-school). */
const DRAIN_MS = 3_000;

/**
 * The platform rows that belong to one school and travel with its file: registry row, directory,
 * sessions (so access and refresh tokens keep working), rotated refresh tokens (reuse detection)
 * and the accounts of its members.
 */
export type PlatformRows = Record<(typeof TABLES)[number], Record<string, unknown>[]>;
const TABLES = ["tenants", "directory", "sessions", "rotated_refresh_tokens", "accounts"] as const;

function localTenant(rt: Runtime, key: string) {
  const row = tenantByKey(rt.platform.db, key);
  if (!row) throw notFound(`No school ${key} on this node.`);
  return row;
}

/** Writes to the school stop here; returns once the accepted ones are committed. */
export async function freeze(rt: Runtime, node: ClusterNode, key: string) {
  const row = localTenant(rt, key);
  const t0 = performance.now();
  node.frozen.add(row.id);
  while ((node.writing.get(key) ?? 0) > 0 && performance.now() - t0 < DRAIN_MS) await Bun.sleep(5);
  await settled();
  return { tenantId: row.id, drainedMs: Math.round(performance.now() - t0), unfinished: node.writing.get(key) ?? 0 };
}

export function thaw(rt: Runtime, node: ClusterNode, key: string) {
  node.frozen.delete(localTenant(rt, key).id);
  return { thawed: key };
}

/** A consistent copy of the frozen school's file (VACUUM INTO), as bytes. */
export function exportFile(rt: Runtime, node: ClusterNode, key: string): Response {
  const row = localTenant(rt, key);
  if (!node.frozen.has(row.id)) throw conflict("NOT_FROZEN", "Freeze the school before copying it.");
  const tmp = join(rt.config.dataDir, "tenants", `.handoff-${row.id}.sqlite`);
  rmSync(tmp, { force: true });
  try {
    snapshotSqlite(rt.tenants.fileOf(row.id), tmp);
    return new Response(readFileSync(tmp), { headers: { "content-type": "application/octet-stream", "x-tenant-id": row.id } });
  } finally {
    rmSync(tmp, { force: true });
  }
}

const all = (sqlite: Database, sql: string, ...args: string[]) => sqlite.query(sql).all(...args) as Record<string, unknown>[];

export function exportPlatform(rt: Runtime, key: string): PlatformRows {
  return platformRowsOf(rt.platform.sqlite, localTenant(rt, key).id);
}

/** One school's platform rows in a platform file: this node's, or one restored from a replica (failover). */
export function platformRowsOf(s: Database, id: string): PlatformRows {
  return {
    tenants: all(s, "SELECT * FROM tenants WHERE id = ?", id),
    directory: all(s, "SELECT * FROM directory WHERE tenant_id = ?", id),
    sessions: all(s, "SELECT * FROM sessions WHERE tenant_id = ?", id),
    rotated_refresh_tokens: all(
      s,
      "SELECT * FROM rotated_refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE tenant_id = ?)",
      id,
    ),
    accounts: all(s, "SELECT * FROM accounts WHERE email IN (SELECT email FROM directory WHERE tenant_id = ?)", id),
  };
}

/** Refuses to overwrite a school this node serves now. */
function mustNotServe(node: ClusterNode, key: string, tenantId: string) {
  const p = node.placements.get(key);
  if (p && p.node === node.name && p.state === "active") throw conflict("TENANT_SERVED_HERE", `School ${key} is served by this node.`);
  if (!/^[0-9a-f-]{36}$/.test(tenantId)) throw notFound();
}

/** Puts a school's file copy in place (checked first), replacing a stale one. */
export async function importFile(rt: Runtime, node: ClusterNode, key: string, tenantId: string, body: ArrayBuffer) {
  mustNotServe(node, key, tenantId);
  const target = rt.tenants.fileOf(tenantId);
  const part = `${target}.handoff`;
  writeFileSync(part, new Uint8Array(body), { mode: 0o600 });
  const problems = checkSqlite(part, { readonly: true });
  if (problems.length) {
    rmSync(part, { force: true });
    throw conflict("BROKEN_COPY", `The copy of ${key} is damaged: ${problems[0]}`);
  }
  removeTenantFile(rt, tenantId);
  renameSync(part, target);
  return { tenantId, bytes: body.byteLength };
}

/** Columns a row may name: the table's own (the peer runs the same binary; anything else is refused). */
function columnsOf(sqlite: Database, table: string): Set<string> {
  return new Set((sqlite.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
}

function insertRows(sqlite: Database, table: string, rows: Record<string, unknown>[], verb: "REPLACE" | "IGNORE") {
  const known = columnsOf(sqlite, table);
  for (const row of rows) {
    const cols = Object.keys(row).filter((c) => known.has(c));
    if (!cols.length) continue;
    sqlite
      .query(`INSERT OR ${verb} INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`)
      .run(...(cols.map((c) => row[c]) as string[]));
  }
}

/** The school's platform rows, in one transaction: what was there for it before is replaced; accounts already here are kept. */
export function importPlatform(rt: Runtime, node: ClusterNode, key: string, rows: PlatformRows) {
  const tenantId = String(rows.tenants?.[0]?.id ?? "");
  mustNotServe(node, key, tenantId);
  const s = rt.platform.sqlite;
  write(rt.platform.db, () => {
    s.query("DELETE FROM rotated_refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE tenant_id = ?)").run(tenantId);
    s.query("DELETE FROM sessions WHERE tenant_id = ?").run(tenantId);
    s.query("DELETE FROM directory WHERE tenant_id = ?").run(tenantId);
    s.query("DELETE FROM tenants WHERE id = ? OR key = ?").run(tenantId, key);
    for (const table of TABLES) insertRows(s, table, rows[table] ?? [], table === "accounts" ? "IGNORE" : "REPLACE");
  });
  return { tenantId, sessions: rows.sessions?.length ?? 0, accounts: rows.accounts?.length ?? 0 };
}

/**
 * After the placement names another node: the school's file, sessions, directory entries and
 * registry row leave this node. Its stored files stay (they live in the shared store).
 */
export async function release(rt: Runtime, node: ClusterNode, key: string, tenantId: string) {
  // Fresh from etcd: this node's watch may not have seen the flip yet.
  const p = node.etcd ? await readPlacement(node.etcd, key) : null;
  if (!p || p.node === node.name) throw conflict("TENANT_SERVED_HERE", `School ${key} is still placed on this node.`);
  const row = tenantById(rt.platform.db, tenantId);
  if (row) {
    const s = rt.platform.sqlite;
    write(rt.platform.db, () => {
      s.query("DELETE FROM rotated_refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE tenant_id = ?)").run(row.id);
      s.query("DELETE FROM sessions WHERE tenant_id = ?").run(row.id);
      s.query("DELETE FROM directory WHERE tenant_id = ?").run(row.id);
      s.query("DELETE FROM tenants WHERE id = ?").run(row.id);
    });
    removeTenantFile(rt, row.id);
  }
  node.frozen.delete(tenantId);
  return { released: key };
}
