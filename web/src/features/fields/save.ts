import { api, ok } from "../../api/client";
import { type Batch, type Kind, under } from "./draft";

/**
 * Saves the editor's changes. Member fields: one batchEditMemberFields (all or nothing). Space
 * fields have no batch operation: one call per change (updates, creates, then the order); a
 * failing call stops the rest, its problem named like the batch's so it lands on its row.
 */
export async function saveFields(kind: Kind, batch: Batch) {
  const { rowsOf: _, ...body } = batch;
  if (kind === "member") return ok(api.POST("/api/v1/member-fields/batch", { body }));
  const step = async (prefix: string, call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (e) {
      throw under(prefix, e);
    }
  };
  for (const [i, { id, ...patch }] of body.updates.entries())
    await step(`updates[${i}].`, () => ok(api.PATCH("/api/v1/space-fields/{fieldId}", { params: { path: { fieldId: id } }, body: patch })));
  for (const [i, create] of body.creates.entries())
    await step(`creates[${i}].`, () => ok(api.POST("/api/v1/space-fields", { body: create })));
  if (body.orderedIds) {
    const orderedIds = body.orderedIds;
    await step("", () => ok(api.PUT("/api/v1/space-fields/order", { body: { orderedIds } })));
  }
}
