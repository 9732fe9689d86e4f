import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { members } from "../../schema/members";

/** Organization units form a tree; the leader (a unit member) is kept as a member id. */
export const orgUnits = sqliteTable(
  "org_units",
  {
    id: text("id").primaryKey(),
    parentId: text("parent_id").references((): AnySQLiteColumn => orgUnits.id),
    name: text("name").notNull(),
    order: integer("order").notNull().default(0),
    leaderMemberId: text("leader_member_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
  },
  // Children of a parent by order (listOrgUnits, the child check of deleteOrgUnit, next order).
  (t) => [index("org_units_parent_order_idx").on(t.parentId, t.order, t.id)],
);

export const orgUnitMembers = sqliteTable(
  "org_unit_members",
  {
    unitId: text("unit_id")
      .notNull()
      .references(() => orgUnits.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.unitId, t.memberId] }), index("org_unit_members_member_idx").on(t.memberId)],
);

/** Positions; a member holds at most one (`members.position_id`). */
export const positions = sqliteTable(
  "positions",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    order: integer("order").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("positions_order_idx").on(t.order, t.id)],
);

/** One row (id = 1) once the setting is written; absent = positions disabled. */
export const positionSettings = sqliteTable("position_settings", {
  id: integer("id").primaryKey(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
});
