import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The tenant registry: the file of a tenant is tenants/<id>.sqlite, never named by its key. */
export const tenants = sqliteTable("tenants", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  ownerEmail: text("owner_email"),
  createdAt: integer("created_at").notNull(),
});

/**
 * Index of the tenant files: which tenants an e-mail belongs to. Written after the tenant file,
 * checked against it on use, rebuilt by `learnspace reindex`.
 */
export const directory = sqliteTable(
  "directory",
  {
    email: text("email").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    memberId: text("member_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.tenantId] }), index("directory_tenant_idx").on(t.tenantId)],
);
