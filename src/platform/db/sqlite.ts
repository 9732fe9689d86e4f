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

/**
 * A read cache that stays exact while every write to the file goes through this one connection (the
 * server's own): an entry is valid until the connection's total_changes() moves. Bounded: cleared
 * when it holds `max` entries.
 */
export function changeGuardedCache<V>(sqlite: Database, max = 1000) {
  const changes = sqlite.query<{ n: number }, []>("SELECT total_changes() AS n");
  const entries = new Map<string, { at: number; value: V }>();
  return (key: string, load: () => V): V => {
    const at = (changes.get() as { n: number }).n;
    const hit = entries.get(key);
    if (hit && hit.at === at) return hit.value;
    const value = load();
    if (entries.size >= max) entries.clear();
    entries.set(key, { at, value });
    return value;
  };
}
