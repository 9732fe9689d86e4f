import type { Database } from "bun:sqlite";
import pkg from "../../../package.json" with { type: "json" };

export type EmbeddedMigration = { tag: string; when: number; sql: string };

export class SchemaTooNewError extends Error {}

const TABLE = "__drizzle_migrations";

/**
 * Applies embedded drizzle-kit migrations in one transaction, in the same bookkeeping table that
 * drizzle's own migrator uses. A file migrated by a newer binary is refused, never half-migrated.
 */
export function applyMigrations(sqlite: Database, migrations: EmbeddedMigration[], label: string): number {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
  const last = sqlite.query(`SELECT created_at AS at FROM ${TABLE} ORDER BY created_at DESC LIMIT 1`).get() as {
    at: number;
  } | null;
  const lastApplied = last ? Number(last.at) : 0;
  const newest = migrations.at(-1)?.when ?? 0;
  if (lastApplied > newest) {
    throw new SchemaTooNewError(
      `${label} was migrated by a newer learnspace (schema ${lastApplied}); this binary, learnspace ${pkg.version}, knows schema ${newest}: run the newer binary`,
    );
  }
  const pending = migrations.filter((m) => m.when > lastApplied);
  if (pending.length === 0) return 0;
  const insert = sqlite.query(`INSERT INTO ${TABLE} (hash, created_at) VALUES (?, ?)`);
  sqlite.transaction(() => {
    for (const m of pending) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) {
        if (stmt.trim()) sqlite.exec(stmt);
      }
      // Bun's hasher, not node:crypto: a start does not load it (src/platform/crypto.ts nodeCrypto).
      insert.run(new Bun.CryptoHasher("sha256").update(m.sql).digest("hex"), m.when);
    }
  })();
  return pending.length;
}
