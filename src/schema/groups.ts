import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { members } from "./members";

/** Groups are permission-grant subjects; plain groups (kind "plain") are simple member lists. */
export const groups = sqliteTable(
  "groups",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["grant", "plain"] }).notNull(),
    name: text("name").notNull(),
    description: text("description"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("groups_kind_name_idx").on(t.kind, t.name, t.id)],
);

export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.memberId] }), index("group_members_member_idx").on(t.memberId)],
);
