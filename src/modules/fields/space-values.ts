import { and, asc, eq, inArray } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { iso } from "../../platform/http/schemas";
import type { SetFieldValuesBody } from "../members/model";
import { requireSpaceAdmin } from "../spaces/access";
import { customFields, spaceFieldValues } from "./tables";

type ValueInput = Static<typeof SetFieldValuesBody>["values"][number];
type StoredValue = { valueText: string | null; valueNumber: number | null; valueDate: number | null };

/** The entry's value in its field type's column; the other columns must be absent or null (as for members). */
function typedValue(field: typeof customFields.$inferSelect, v: ValueInput, at: string): StoredValue {
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
      if (text !== null && field.type === "SHORT_TEXT" && text.length > 255) throw invalid(`${at}.valueText`, "must be at most 255 characters");
      return { valueText: text, valueNumber: null, valueDate: null };
    }
  }
}

/**
 * setSpaceFieldValues (spaceAdmin): the space's values become exactly the entries sent; an entry
 * with no value clears its field; a fieldId that is not a space field is 400.
 */
export function setSpaceFieldValues(actor: Actor, spaceId: string, values: ValueInput[]) {
  return write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    const ids = [...new Set(values.map((v) => v.fieldId))];
    const fields = new Map(
      (ids.length
        ? tx
            .select()
            .from(customFields)
            .where(and(eq(customFields.kind, "space"), inArray(customFields.id, ids)))
            .all()
        : []
      ).map((f) => [f.id, f]),
    );
    const seen = new Set<string>();
    const rows = values.flatMap((v, i) => {
      const at = `values[${i}]`;
      const field = fields.get(v.fieldId);
      if (!field) throw invalid(`${at}.fieldId`, "is not a space field");
      if (seen.has(v.fieldId)) throw invalid(`${at}.fieldId`, "is listed twice");
      seen.add(v.fieldId);
      const value = typedValue(field, v, at);
      return value.valueText === null && value.valueNumber === null && value.valueDate === null ? [] : [{ spaceId, fieldId: v.fieldId, ...value }];
    });
    tx.delete(spaceFieldValues).where(eq(spaceFieldValues.spaceId, spaceId)).run();
    if (rows.length) tx.insert(spaceFieldValues).values(rows).run();
    const stored = tx
      .select({ v: spaceFieldValues })
      .from(spaceFieldValues)
      .innerJoin(customFields, eq(customFields.id, spaceFieldValues.fieldId))
      .where(eq(spaceFieldValues.spaceId, spaceId))
      .orderBy(asc(customFields.position), asc(customFields.id))
      .all();
    return {
      values: stored.map(({ v }) => ({ fieldId: v.fieldId, valueText: v.valueText, valueNumber: v.valueNumber, valueDate: iso(v.valueDate) })),
    };
  });
}
