// A new data dir's platform file is written whole, already migrated, in one fsync (docs/rules/performance.md#start).
import type { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations } from "../src/platform/db/migrate";
import { platformMigrations } from "../src/platform/db/migrations.gen";
import { openPlatformDb } from "../src/platform/db/platform-db";
import { closeNow, newFileImage, openSqlite, optimizeOnOpen, writeNewFile } from "../src/platform/db/sqlite";

const root = mkdtempSync(join(tmpdir(), "ls-platform-new-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a file holds that its users can see: schema, applied migrations, planner statistics, pragmas. */
const contents = (sqlite: Database) => ({
  schema: sqlite.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").all(),
  migrations: sqlite.query("SELECT id, hash, created_at FROM __drizzle_migrations ORDER BY id").all(),
  stats: sqlite.query("SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx").all(),
  journal: sqlite.query("PRAGMA journal_mode").get(),
  pageSize: sqlite.query("PRAGMA page_size").get(),
});

test("a new data dir's platform file holds what migrating it in place gave, and nothing went through its WAL", () => {
  const dir = join(root, "new");
  const platform = openPlatformDb(dir);
  const path = join(dir, "platform.sqlite");
  // Made in place, the migrations and the statistics are three commits in the WAL.
  expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0).toBe(0);
  expect(readdirSync(dir).filter((n) => n.endsWith(".new"))).toEqual([]);

  const inPlaceDir = join(root, "in-place");
  mkdirSync(inPlaceDir);
  const inPlace = openSqlite(join(inPlaceDir, "platform.sqlite"));
  applyMigrations(inPlace, platformMigrations, "platform.sqlite");
  optimizeOnOpen(inPlace);
  expect(statSync(join(inPlaceDir, "platform.sqlite-wal")).size).toBeGreaterThan(0);
  expect(contents(platform.sqlite)).toEqual(contents(inPlace));
  expect(contents(platform.sqlite).journal).toEqual({ journal_mode: "wal" });

  // It is an ordinary file afterwards: a write goes through the WAL, and a reopen migrates nothing.
  platform.sqlite.exec("CREATE TABLE probe (x)");
  closeNow(platform.sqlite);
  closeNow(inPlace);
  const again = openPlatformDb(dir);
  expect(applyMigrations(again.sqlite, platformMigrations, "platform.sqlite")).toBe(0);
  expect(again.sqlite.query("SELECT count(*) AS n FROM probe").get()).toEqual({ n: 0 });
  closeNow(again.sqlite);
});

test("writeNewFile leaves a file another process made first, and no partial file", () => {
  const dir = join(root, "race");
  mkdirSync(dir);
  const path = join(dir, "x.sqlite");
  const image = newFileImage((memory) => memory.exec("CREATE TABLE mine (x)"));
  // Made by another process after this one looked for it, before its own link.
  writeFileSync(path, "theirs");
  const made = writeNewFile(path, image);
  expect(made).toBe(false);
  expect(readdirSync(dir)).toEqual(["x.sqlite"]);
  expect(Bun.file(path).size).toBe("theirs".length);
});
