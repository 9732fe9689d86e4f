import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Tenant join codes: the participant side is joinTenantWithJoinCode (auth module). */
export const tenantJoinCodes = sqliteTable(
  "tenant_join_codes",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull().unique(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** null = no expiry. */
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("tenant_join_codes_created_idx").on(t.createdAt, t.id)],
);
