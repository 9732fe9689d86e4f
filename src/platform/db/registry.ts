import { and, count, eq, sql } from "drizzle-orm";
import { directory, tenants } from "./platform-tables";
import { preparedQuery } from "./sqlite";
import type { Db } from "./types";

export type TenantRow = typeof tenants.$inferSelect;

/** Prepared (docs/rules/performance.md#prepared-queries): every sign-in with a tenant key looks it up. */
export function tenantByKey(db: Db, key: string): TenantRow | null {
  return (
    preparedQuery(db, "registry.tenantByKey", (base) =>
      base
        .select()
        .from(tenants)
        .where(eq(tenants.key, sql.placeholder("key")))
        .prepare(),
    ).get({ key }) ?? null
  );
}

export function tenantById(db: Db, id: string): TenantRow | null {
  return db.select().from(tenants).where(eq(tenants.id, id)).get() ?? null;
}

export function listTenantRows(db: Db): TenantRow[] {
  return db.select().from(tenants).all();
}

/** Directory (index) entries of an e-mail: which tenants it is a member of. Check each hit against the tenant file. */
export function directoryOf(db: Db, email: string) {
  return db
    .select({
      tenantId: directory.tenantId,
      memberId: directory.memberId,
      key: tenants.key,
      name: tenants.name,
      ownerEmail: tenants.ownerEmail,
    })
    .from(directory)
    .innerJoin(tenants, eq(tenants.id, directory.tenantId))
    .where(eq(directory.email, email.toLowerCase()))
    .all();
}

export function indexMember(db: Db, email: string | null, tenantId: string, memberId: string) {
  if (!email) return;
  db.insert(directory)
    .values({ email: email.toLowerCase(), tenantId, memberId })
    .onConflictDoUpdate({ target: [directory.email, directory.tenantId], set: { memberId } })
    .run();
}

export function unindexMember(db: Db, email: string | null, tenantId: string) {
  if (!email) return;
  db.delete(directory)
    .where(and(eq(directory.email, email.toLowerCase()), eq(directory.tenantId, tenantId)))
    .run();
}

export function replaceTenantIndex(db: Db, tenantId: string, entries: { email: string; memberId: string }[]) {
  db.delete(directory).where(eq(directory.tenantId, tenantId)).run();
  for (const e of entries) indexMember(db, e.email, tenantId, e.memberId);
}

export function tenantCount(db: Db): number {
  return db.select({ n: count() }).from(tenants).get()?.n ?? 0;
}
