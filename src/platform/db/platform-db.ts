import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations } from "./migrate";
import { platformMigrations } from "./migrations.gen";
import { newPlatformImage } from "./platform-image" with { type: "macro" };
import { drizzleOf, openSqlite, optimizeOnOpen, writeNewFile } from "./sqlite";
import type { Db } from "./types";

export type PlatformDb = { sqlite: Database; db: Db };

/** Creates the data directory layout and opens the migrated platform file (`autocheckpoint`: see openSqlite). */
export function openPlatformDb(dataDir: string, autocheckpoint?: number): PlatformDb {
  for (const dir of [dataDir, join(dataDir, "tenants"), join(dataDir, "files"), join(dataDir, "outbox")]) {
    mkdirSync(dir, { recursive: true });
  }
  const path = join(dataDir, "platform.sqlite");
  // A new data dir's file is written whole, migrated and analysed, in one fsync (docs/rules/performance.md#start),
  // from the image the build made (`newPlatformImage`, a macro): opened next, it has nothing to migrate or
  // analyse, and its WAL stays empty until the first write. Not when a WAL or journal of a former file is
  // left: SQLite reads those when it opens the file.
  if (![path, `${path}-wal`, `${path}-journal`].some((f) => existsSync(f))) {
    writeNewFile(path, Bun.gunzipSync(Buffer.from(newPlatformImage(), "base64")));
  }
  const sqlite = openSqlite(path, undefined, autocheckpoint);
  applyMigrations(sqlite, platformMigrations, "platform.sqlite");
  optimizeOnOpen(sqlite);
  return { sqlite, db: drizzleOf(sqlite) };
}
