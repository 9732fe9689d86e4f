import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";
import { type Batch, type Kind, under } from "./draft";

/** The custom fields' cache keys (the members screen reads the member fields and their display through these too). */
export const fieldKeys = {
  list: (kind: Kind) => [`${kind}-fields`] as const,
  display: ["member-field-display"] as const,
};

/** Every field of a kind, for the field editor. */
export const fieldsQuery = (kind: Kind) =>
  queryOptions({
    queryKey: fieldKeys.list(kind),
    queryFn: () => (kind === "member" ? ok(api.GET("/api/v1/member-fields")) : ok(api.GET("/api/v1/space-fields"))),
  });

export const memberFieldsQuery = () =>
  queryOptions({ queryKey: fieldKeys.list("member"), queryFn: () => ok(api.GET("/api/v1/member-fields")) });

/** Which member columns and fields the members list shows, in which order (setMemberFieldDisplay). */
export const memberFieldDisplayQuery = () =>
  queryOptions({ queryKey: fieldKeys.display, queryFn: () => ok(api.GET("/api/v1/member-fields/display")) });

// The area's writes, one function per operation (named by its operationId).
export const setMemberFieldDisplay = (init: Init<"/api/v1/member-fields/display", "put">) =>
  ok(api.PUT("/api/v1/member-fields/display", init));
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
