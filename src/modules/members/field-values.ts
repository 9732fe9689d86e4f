import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { memberFieldValues } from "../../schema/fields";
import { type FieldValueInput, typedFieldValues } from "../fields/values";

/**
 * Sets some of a member's field values and leaves the others as they are (an entry with no value
 * clears its field). The entries are checked like a PUT of field values (400 naming `values[i]`).
 */
export function upsertMemberFieldValues(db: Db, memberId: string, values: FieldValueInput[]) {
  const rows = typedFieldValues(db, "member", values);
  const kept = new Set(rows.map((r) => r.fieldId));
  const cleared = values.map((v) => v.fieldId).filter((id) => !kept.has(id));
  if (cleared.length)
    db.delete(memberFieldValues)
      .where(and(eq(memberFieldValues.memberId, memberId), inArray(memberFieldValues.fieldId, cleared)))
      .run();
  for (const { fieldId, ...value } of rows)
    db.insert(memberFieldValues)
      .values({ memberId, fieldId, ...value })
      .onConflictDoUpdate({ target: [memberFieldValues.memberId, memberFieldValues.fieldId], set: value })
      .run();
}
