import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { members } from "./members";
import { spaces } from "./spaces";

export const FIELD_TYPES = ["SHORT_TEXT", "LONG_TEXT", "NUMBER", "DATE", "SELECT"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export type FieldKind = "member" | "space";

/** Custom fields of members and of spaces share one table; `kind` tells them apart (keys are unique per kind). */
export const customFields = sqliteTable(
  "custom_fields",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["member", "space"] }).notNull(),
    key: text("key").notNull(),
    label: text("label").notNull(),
    type: text("type", { enum: FIELD_TYPES }).notNull(),
    /** JSON array of option labels (SELECT only; [] otherwise). */
    options: text("options", { mode: "json" }).$type<string[]>().notNull(),
    required: integer("required", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    position: integer("position").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("custom_fields_kind_key_idx").on(t.kind, t.key),
    index("custom_fields_kind_position_idx").on(t.kind, t.position, t.id),
  ],
);

/** The member-list display (setMemberFieldDisplay): one row, the entries as sent; no row = defaults. */
export const memberFieldDisplay = sqliteTable("member_field_display", {
  id: integer("id").primaryKey(),
  entries: text("entries", { mode: "json" })
    .$type<{ fieldId: string; visible: boolean; order: number; visibility: "PUBLIC" }[]>()
    .notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Custom-field values of spaces (setSpaceFieldValues), shaped like member_field_values. */
export const spaceFieldValues = sqliteTable(
  "space_field_values",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    fieldId: text("field_id")
      .notNull()
      .references(() => customFields.id, { onDelete: "cascade" }),
    valueText: text("value_text"),
    valueNumber: real("value_number"),
    /** Epoch ms. */
    valueDate: integer("value_date"),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.fieldId] })],
);

/**
 * Custom-field values of members, one typed column per field type. The partial indexes
 * (field, value, member) serve both the listMembers field filters and the custom-field sorts.
 */
export const memberFieldValues = sqliteTable(
  "member_field_values",
  {
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    fieldId: text("field_id")
      .notNull()
      .references(() => customFields.id, { onDelete: "cascade" }),
    valueText: text("value_text"),
    valueNumber: real("value_number"),
    /** Epoch ms. */
    valueDate: integer("value_date"),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.fieldId] }),
    index("member_field_values_text_idx").on(t.fieldId, t.valueText, t.memberId).where(sql`value_text IS NOT NULL`),
    index("member_field_values_number_idx").on(t.fieldId, t.valueNumber, t.memberId).where(sql`value_number IS NOT NULL`),
    index("member_field_values_date_idx").on(t.fieldId, t.valueDate, t.memberId).where(sql`value_date IS NOT NULL`),
  ],
);
