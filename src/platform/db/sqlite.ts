import { Database } from "bun:sqlite";

/** Opens a SQLite file with the pragmas every learnspace file uses. */
export function openSqlite(path: string): Database {
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  // FULL: an acknowledged write survives power loss, even in WAL mode.
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  return sqlite;
}
