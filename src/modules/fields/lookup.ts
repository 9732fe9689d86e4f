import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { customFields, type FieldKind, type FieldType } from "../../schema/fields";

export type FieldRow = typeof customFields.$inferSelect;

/**
 * The member list's default columns (docs/rules/members.md#listing): sortable by name and usable as display
 * entries (`isDefault=true`). `type` is how a client should render the column.
 */
export const DEFAULT_MEMBER_COLUMNS: readonly { name: string; label: string; type: FieldType }[] = [
  { name: "displayName", label: "Display name", type: "SHORT_TEXT" },
  { name: "userId", label: "User ID", type: "SHORT_TEXT" },
  { name: "email", label: "E-mail", type: "SHORT_TEXT" },
  { name: "lastLoginAt", label: "Last sign-in", type: "DATE" },
  { name: "createdAt", label: "Created", type: "DATE" },
  { name: "isActive", label: "Status", type: "SELECT" },
  { name: "activeSpaceCount", label: "Active spaces", type: "NUMBER" },
  { name: "inactiveSpaceCount", label: "Inactive spaces", type: "NUMBER" },
];

/** Every field of a kind, by order (inactive included). */
export function fieldsOf(db: Db, kind: FieldKind): FieldRow[] {
  return db.select().from(customFields).where(eq(customFields.kind, kind)).orderBy(asc(customFields.position), asc(customFields.id)).all();
}

export function fieldOf(db: Db, kind: FieldKind, id: string): FieldRow | null {
  return (
    db
      .select()
      .from(customFields)
      .where(and(eq(customFields.kind, kind), eq(customFields.id, id)))
      .get() ?? null
  );
}
