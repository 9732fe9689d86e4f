import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations } from "./migrate";
import { platformMigrations } from "./migrations.gen";
import { drizzleOf, openSqlite, optimizeOnOpen } from "./sqlite";
import type { Db } from "./types";

export type PlatformDb = { sqlite: Database; db: Db };

/** Creates the data directory layout and opens the migrated platform file (`autocheckpoint`: see openSqlite). */
export function openPlatformDb(dataDir: string, autocheckpoint?: number): PlatformDb {
  for (const dir of [dataDir, join(dataDir, "tenants"), join(dataDir, "files"), join(dataDir, "outbox")]) {
    mkdirSync(dir, { recursive: true });
  }
  const sqlite = openSqlite(join(dataDir, "platform.sqlite"), undefined, autocheckpoint);
  applyMigrations(sqlite, platformMigrations, "platform.sqlite");
  optimizeOnOpen(sqlite);
  return { sqlite, db: drizzleOf(sqlite) };
}
