import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const roles = sqliteTable(
  "roles",
  {
    id: text("id").primaryKey(),
    key: text("key").notNull().unique(),
    name: text("name").notNull(),
    isBuiltin: integer("is_builtin", { mode: "boolean" }).notNull().default(false),
    /** JSON array of permission codes. */
    permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
  },
  // listRoles: builtin first, then by name.
  (t) => [index("roles_list_idx").on(t.isBuiltin, t.name, t.id)],
);
