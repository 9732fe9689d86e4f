import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** A sign-in session: the refresh cookie names it; every access token carries its id. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id"),
    email: text("email").notNull(),
    tenantId: text("tenant_id"),
    memberId: text("member_id"),
    sessionType: text("session_type", { enum: ["personal", "public"] }).notNull(),
    confirmed: integer("confirmed", { mode: "boolean" }).notNull().default(false),
    refreshHash: text("refresh_hash").notNull(),
    previousRefreshHash: text("previous_refresh_hash"),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at").notNull(),
    absoluteExpiresAt: integer("absolute_expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    index("sessions_refresh_idx").on(t.refreshHash),
    index("sessions_previous_refresh_idx").on(t.previousRefreshHash),
    index("sessions_email_idx").on(t.email),
    index("sessions_member_idx").on(t.tenantId, t.memberId),
  ],
);
