import { Database } from "bun:sqlite";

/** integrity_check and foreign_key_check of one file; the problems found, [] when sound. */
export function checkSqlite(path: string, opts: { readonly?: boolean } = {}): string[] {
  let db: Database | null = null;
  try {
    db = opts.readonly ? new Database(path, { readonly: true }) : new Database(path, { readwrite: true, create: false });
    db.exec("PRAGMA busy_timeout = 5000");
    const integrity = db.query("PRAGMA integrity_check").all() as { integrity_check: string }[];
    const problems = integrity.map((r) => r.integrity_check).filter((r) => r !== "ok");
    const fk = db.query("PRAGMA foreign_key_check").all() as { table: string; rowid: number; parent: string }[];
    for (const r of fk) problems.push(`foreign key: ${r.table} row ${r.rowid} names a missing ${r.parent}`);
    return problems;
  } catch (e) {
    return [(e as Error).message];
  } finally {
    db?.close();
  }
}
