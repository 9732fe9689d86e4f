import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const roles = sqliteTable("roles", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  isBuiltin: integer("is_builtin", { mode: "boolean" }).notNull().default(false),
  /** JSON array of permission codes. */
  permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
  createdAt: integer("created_at").notNull(),
});
