import { asc, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { iso } from "../../platform/http/schemas";
import { customFields, spaceFieldValues } from "../../schema/fields";
import type { SetFieldValuesBody } from "../members/model";
import { requireSpaceAdmin } from "../spaces/access";
import { typedFieldValues } from "./values";

type ValueInput = Static<typeof SetFieldValuesBody>["values"][number];
/**
 * setSpaceFieldValues (spaceAdmin): the space's values become exactly the entries sent; an entry
 * with no value clears its field; a fieldId that is not a space field is 400.
 */
export function setSpaceFieldValues(actor: Actor, spaceId: string, values: ValueInput[]) {
  return write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    const rows = typedFieldValues(tx, "space", values).map((v) => ({ spaceId, ...v }));
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
      values: stored.map(({ v }) => ({
        fieldId: v.fieldId,
        valueText: v.valueText,
        valueNumber: v.valueNumber,
        valueDate: iso(v.valueDate),
      })),
    };
  });
}
