import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Per tenant, in the platform file: the earliest moment its notification schedule may have work
 * (a job or a digest). The scheduler opens only tenants whose `wake_at` has come
 * (docs/rules/notifications.md#the-schedule). Written before the tenant's transaction commits, so a
 * wake-up may be early (harmless: nothing due, it is moved on) but never missing.
 */
export const notificationWakeups = sqliteTable(
  "notification_wakeups",
  {
    tenantId: text("tenant_id").primaryKey(),
    wakeAt: integer("wake_at").notNull(),
  },
  (t) => [index("notification_wakeups_wake_idx").on(t.wakeAt)],
);
