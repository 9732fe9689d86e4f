// What createMembers and updateMembers share: per-item checks and reasons (docs/rules/members.md#bulk-update).
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { inArray } from "drizzle-orm";
import type { Static } from "elysia";
import type { Db } from "../../platform/db/types";
import { Problem } from "../../platform/http/errors";
import { fieldPath } from "../../platform/http/plugin";
import { customFields } from "../../schema/fields";
import type { FieldValueInput } from "../fields/values";
import type { BulkFieldValue } from "./model";

/** `INVALID: <field> <message>` of the first rule the item breaks, or null. */
export function firstRuleBroken(schema: TSchema, item: unknown): string | null {
  const e = Value.Errors(schema, item).First();
  if (!e) return null;
  const custom = (e.schema as { error?: unknown }).error;
  const message = e.value === undefined ? "is required" : typeof custom === "string" ? custom : e.message;
  return `INVALID: ${fieldPath(e.path) || "item"} ${message}`;
}

/** A refusal of a single call as an item's reason; anything else is not the item's fault and is thrown on. */
export function reasonOf(e: unknown, forbiddenReason = "FORBIDDEN"): string {
  if (!(e instanceof Problem)) throw e;
  if (e.status === 404) return "NOT_FOUND";
  if (e.status === 409) return e.code;
  if (e.status === 403) return forbiddenReason;
  const first = e.errors?.[0];
  if (e.status === 400 && first) return `INVALID: ${first.field} ${first.message}`;
  throw e;
}

/** `[{fieldId, value}]` as setMemberFieldValues entries: the value goes to its field's column (one query for the batch). */
export function fieldValueInputs(
  db: Db,
  lists: (Static<typeof BulkFieldValue>[] | undefined)[],
): (v: Static<typeof BulkFieldValue>) => FieldValueInput {
  const ids = [...new Set(lists.flatMap((l) => (l ?? []).map((v) => v.fieldId)))];
  const types = new Map(
    ids.length
      ? db
          .select({ id: customFields.id, type: customFields.type })
          .from(customFields)
          .where(inArray(customFields.id, ids))
          .all()
          .map((f) => [f.id, f.type])
      : [],
  );
  return ({ fieldId, value }) => {
    const type = types.get(fieldId);
    if (value === null) return { fieldId };
    if (typeof value === "number") return { fieldId, valueNumber: value };
    if (type === "DATE") return { fieldId, valueDate: value };
    if (type === "NUMBER" && value.trim() !== "" && Number.isFinite(Number(value))) return { fieldId, valueNumber: Number(value) };
    return { fieldId, valueText: value };
  };
}
