import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { customFields } from "../../schema/fields";

export type FieldValueInput = { fieldId: string; valueText?: string | null; valueNumber?: number | null; valueDate?: string | null };
export type StoredValue = { valueText: string | null; valueNumber: number | null; valueDate: number | null };

/** The value of an entry in the column of its field's type; any other column must be absent or null. */
function typedValue(field: typeof customFields.$inferSelect, v: FieldValueInput, at: string): StoredValue {
  const other = (name: "valueText" | "valueNumber" | "valueDate") => {
    if (v[name] !== undefined && v[name] !== null) throw invalid(`${at}.${name}`, `is not used by a ${field.type} field`);
  };
  switch (field.type) {
    case "NUMBER":
      other("valueText");
      other("valueDate");
      return { valueText: null, valueNumber: v.valueNumber ?? null, valueDate: null };
    case "DATE":
      other("valueText");
      other("valueNumber");
      return { valueText: null, valueNumber: null, valueDate: v.valueDate == null ? null : Date.parse(v.valueDate) };
    default: {
      other("valueNumber");
      other("valueDate");
      const text = v.valueText ?? null;
      if (text !== null && field.type === "SELECT" && !field.options.includes(text)) {
        throw invalid(`${at}.valueText`, "must be one of the field's options");
      }
      if (text !== null && field.type === "SHORT_TEXT" && text.length > 255)
        throw invalid(`${at}.valueText`, "must be at most 255 characters");
      return { valueText: text, valueNumber: null, valueDate: null };
    }
  }
}

/**
 * Checks a PUT of field values (member or space fields): every fieldId is a field of that kind,
 * listed once, with a value of its type. Returns the entries that carry a value (an entry with no
 * value clears its field).
 */
export function typedFieldValues(db: Db, kind: "member" | "space", values: FieldValueInput[]): ({ fieldId: string } & StoredValue)[] {
  const ids = [...new Set(values.map((v) => v.fieldId))];
  const fields = new Map(
    (ids.length
      ? db
          .select()
          .from(customFields)
          .where(and(eq(customFields.kind, kind), inArray(customFields.id, ids)))
          .all()
      : []
    ).map((f) => [f.id, f]),
  );
  const seen = new Set<string>();
  return values.flatMap((v, i) => {
    const at = `values[${i}]`;
    const field = fields.get(v.fieldId);
    if (!field) throw invalid(`${at}.fieldId`, `is not a ${kind} field`);
    if (seen.has(v.fieldId)) throw invalid(`${at}.fieldId`, "is listed twice");
    seen.add(v.fieldId);
    const value = typedValue(field, v, at);
    return value.valueText === null && value.valueNumber === null && value.valueDate === null ? [] : [{ fieldId: v.fieldId, ...value }];
  });
}
