import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The tenant's own settings: one row (id = 1) in its file. */
export const tenantSettings = sqliteTable("tenant_settings", {
  id: integer("id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  key: text("key").notNull(),
  name: text("name").notNull(),
  description: text("description"),
  contactInfo: text("contact_info"),
  logoImageUrl: text("logo_image_url"),
  defaultSessionType: text("default_session_type", { enum: ["personal", "public"] })
    .notNull()
    .default("personal"),
  publicAbsoluteTimeoutMinutes: integer("public_absolute_timeout_minutes").notNull().default(480),
  allowUserSelfSignUp: integer("allow_user_self_sign_up", { mode: "boolean" }).notNull().default(false),
  /** IANA zone of the school: digests and the console's dates follow it (docs/rules/notifications.md#time-zone). */
  timeZone: text("time_zone").notNull().default("Asia/Seoul"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
