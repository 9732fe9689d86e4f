import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Per tenant, in the platform file: `pending` = it may hold PENDING checks (set, durably, before the
 * first one of a busy spell commits; cleared once its queue has been idle and its checks are on disk),
 * so a start opens only these tenant files, not all of them. `backfilled_at` = the submissions from
 * before the check existed have been queued (done once per tenant).
 */
export const similarityTenants = sqliteTable("similarity_tenants", {
  tenantId: text("tenant_id").primaryKey(),
  pending: integer("pending", { mode: "boolean" }).notNull(),
  backfilledAt: integer("backfilled_at"),
});
