import type { TestServer } from "./server";

/**
 * Runs `fn` while recording the SQL that the tenant's connection prepares and that matches
 * `pattern`. Returns how many ran and, for each distinct one, its EXPLAIN QUERY PLAN (details
 * joined by " | "), so a test can assert that a list walks an index (no "TEMP B-TREE").
 */
export async function recordQueryPlans(server: TestServer, tenantId: string, pattern: RegExp, fn: () => Promise<unknown>) {
  const seen: string[] = [];
  const sqlite = server.rt.tenants.use(tenantId, (h) => h.sqlite);
  const query = sqlite.query.bind(sqlite);
  const prepare = sqlite.prepare.bind(sqlite);
  const record = (sql: string) => {
    if (pattern.test(sql)) seen.push(sql);
  };
  sqlite.query = ((sql: string) => {
    record(sql);
    return query(sql);
  }) as typeof sqlite.query;
  sqlite.prepare = ((sql: string, ...rest: unknown[]) => {
    record(sql);
    return (prepare as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof sqlite.prepare;
  try {
    await fn();
  } finally {
    // the prototype's methods again
    delete (sqlite as { query?: unknown }).query;
    delete (sqlite as { prepare?: unknown }).prepare;
  }
  const plans = [...new Set(seen)].map((sql) => {
    const rows = query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
    return { sql, plan: rows.map((r) => r.detail).join(" | ") };
  });
  return { count: seen.length, plans };
}
