import { and, eq, inArray } from "drizzle-orm";
import type { Static } from "elysia";
import { type Db, write } from "../../platform/db/types";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { customFields, type FieldKind, type FieldType, memberFieldDisplay } from "../../schema/fields";
import { DEFAULT_MEMBER_COLUMNS, type FieldRow, fieldOf, fieldsOf } from "./lookup";
import type { BatchEditBody, CreateFieldBody, CustomField, DisplayBody, FieldDisplayItem, UpdateFieldBody } from "./model";

/** TenantInfo.customFieldMaxCount, per kind. */
export const MAX_FIELDS = 200;

type CreateInput = Static<typeof CreateFieldBody>;
type UpdateInput = Static<typeof UpdateFieldBody>;

export function toCustomField(row: FieldRow): Static<typeof CustomField> {
  return {
    id: row.id,
    key: row.key,
    label: row.label,
    type: row.type,
    options: row.options,
    isDefault: false,
    required: row.required,
    order: row.position,
    isActive: row.isActive,
  };
}

export function listFields(db: Db, kind: FieldKind) {
  return { fields: fieldsOf(db, kind).map(toCustomField) };
}

/** SELECT needs options; other types take none; an option appears once. */
function checkOptions(type: FieldType, options: string[] | undefined, field: string, creating: boolean) {
  if (type === "SELECT") {
    if ((creating && options === undefined) || (options !== undefined && options.length === 0)) {
      throw invalid(field, "a SELECT field needs at least one option");
    }
  } else if (options && options.length > 0) {
    throw invalid(field, "only SELECT fields take options");
  }
  if (options && new Set(options).size !== options.length) throw invalid(field, "must not repeat an option");
}

function insertField(tx: Db, kind: FieldKind, input: CreateInput, at: string, now: number): FieldRow {
  checkOptions(input.type, input.options, `${at}options`, true);
  const existing = fieldsOf(tx, kind);
  if (existing.length >= MAX_FIELDS) throw conflict("INVALID_STATE", `A tenant has at most ${MAX_FIELDS} fields of a kind.`);
  if (existing.some((f) => f.key === input.key)) throw conflict("ALREADY_EXISTS", "A field with this key already exists.");
  const position = existing.reduce((max, f) => Math.max(max, f.position + 1), 0);
  return tx
    .insert(customFields)
    .values({
      id: Bun.randomUUIDv7(),
      kind,
      key: input.key,
      label: input.label,
      type: input.type,
      options: input.type === "SELECT" ? (input.options ?? []) : [],
      required: input.required ?? false,
      isActive: true,
      position,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
}

function applyUpdate(tx: Db, row: FieldRow, input: UpdateInput, at: string, now: number): FieldRow {
  checkOptions(row.type, input.options, `${at}options`, false);
  return tx
    .update(customFields)
    .set({
      label: input.label ?? row.label,
      options: input.options && row.type === "SELECT" ? input.options : row.options,
      required: input.required ?? row.required,
      isActive: input.isActive ?? row.isActive,
      updatedAt: now,
    })
    .where(eq(customFields.id, row.id))
    .returning()
    .get() as FieldRow;
}

/** Listed ids first, in the given order; the others keep their relative order after them. */
function applyOrder(tx: Db, kind: FieldKind, orderedIds: string[], at: string) {
  const rows = fieldsOf(tx, kind);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const seen = new Set<string>();
  orderedIds.forEach((id, i) => {
    if (!byId.has(id)) throw invalid(`${at}[${i}]`, "is not a field of this list");
    if (seen.has(id)) throw invalid(`${at}[${i}]`, "is listed twice");
    seen.add(id);
  });
  const order = [...orderedIds.map((id) => byId.get(id) as FieldRow), ...rows.filter((r) => !seen.has(r.id))];
  order.forEach((row, position) => {
    if (row.position !== position) tx.update(customFields).set({ position }).where(eq(customFields.id, row.id)).run();
  });
}

const isUnique = (e: unknown) => (e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE";

/** A concurrent insert of the same key loses at the unique index: still 409. */
function keyConflicts<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isUnique(e)) throw conflict("ALREADY_EXISTS", "A field with this key already exists.");
    throw e;
  }
}

export function createField(db: Db, kind: FieldKind, input: CreateInput, now = Date.now()) {
  return keyConflicts(() => toCustomField(write(db, (tx) => insertField(tx, kind, input, "", now))));
}

export function updateField(db: Db, kind: FieldKind, id: string, input: UpdateInput, now = Date.now()) {
  return write(db, (tx) => {
    const row = fieldOf(tx, kind, id);
    if (!row) throw notFound();
    return toCustomField(applyUpdate(tx, row, input, "", now));
  });
}

export function reorderFields(db: Db, kind: FieldKind, orderedIds: string[]) {
  return write(db, (tx) => {
    applyOrder(tx, kind, orderedIds, "orderedIds");
    return listFields(tx, kind);
  });
}

/** Deletes → updates → creates → orderedIds, in one transaction: any failure leaves nothing changed. */
export function batchEditMemberFields(db: Db, input: Static<typeof BatchEditBody>, now = Date.now()) {
  return keyConflicts(() =>
    write(db, (tx) => {
      const deletes = [...new Set(input.deletes ?? [])];
      deletes.forEach((id, i) => {
        if (!fieldOf(tx, "member", id)) throw invalid(`deletes[${i}]`, "is not a member field");
      });
      if (deletes.length)
        tx.delete(customFields)
          .where(and(eq(customFields.kind, "member"), inArray(customFields.id, deletes)))
          .run();
      (input.updates ?? []).forEach((u, i) => {
        const row = fieldOf(tx, "member", u.id);
        if (!row) throw invalid(`updates[${i}].id`, "is not a member field");
        applyUpdate(tx, row, u, `updates[${i}].`, now);
      });
      (input.creates ?? []).forEach((c, i) => {
        insertField(tx, "member", c, `creates[${i}].`, now);
      });
      if (input.orderedIds) applyOrder(tx, "member", input.orderedIds, "orderedIds");
      return listFields(tx, "member");
    }),
  );
}

type DisplayItem = Static<typeof FieldDisplayItem>;
type Entry = { fieldId: string; visible: boolean; order: number; visibility: "PUBLIC" };

function describe(fields: FieldRow[]) {
  const known = new Map<string, { label: string; type: string; isDefault: boolean }>();
  for (const c of DEFAULT_MEMBER_COLUMNS) known.set(c.name, { label: c.label, type: c.type, isDefault: true });
  for (const f of fields) known.set(f.id, { label: f.label, type: f.type, isDefault: false });
  return known;
}

function toItems(entries: Entry[], fields: FieldRow[]): DisplayItem[] {
  const known = describe(fields);
  return entries
    .map((e, i) => ({ e, i, info: known.get(e.fieldId) }))
    .filter((x) => x.info !== undefined) // entries of fields deleted since
    .sort((a, b) => a.e.order - b.e.order || a.i - b.i)
    .map(({ e, info }) => ({ ...e, ...(info as { label: string; type: string; isDefault: boolean }) }));
}

/** Nothing stored: every default column and active field, visible, in field order. */
export function getMemberFieldDisplay(db: Db) {
  const fields = fieldsOf(db, "member");
  const stored = db.select().from(memberFieldDisplay).where(eq(memberFieldDisplay.id, 1)).get();
  const entries: Entry[] =
    stored?.entries ??
    [...DEFAULT_MEMBER_COLUMNS.map((c) => c.name), ...fields.filter((f) => f.isActive).map((f) => f.id)].map((fieldId, order) => ({
      fieldId,
      visible: true,
      order,
      visibility: "PUBLIC",
    }));
  return { items: toItems(entries, fields) };
}

/** PUT: the entries replace the stored display. */
export function setMemberFieldDisplay(db: Db, input: Static<typeof DisplayBody>, now = Date.now()) {
  return write(db, (tx) => {
    const known = describe(fieldsOf(tx, "member"));
    const seen = new Set<string>();
    const entries: Entry[] = input.entries.map((e, i) => {
      if (!known.has(e.fieldId)) throw invalid(`entries[${i}].fieldId`, "is neither a member field id nor a default column");
      if (seen.has(e.fieldId)) throw invalid(`entries[${i}].fieldId`, "is listed twice");
      seen.add(e.fieldId);
      return { fieldId: e.fieldId, visible: e.visible ?? true, order: e.order ?? i, visibility: e.visibility ?? "PUBLIC" };
    });
    tx.insert(memberFieldDisplay)
      .values({ id: 1, entries, updatedAt: now })
      .onConflictDoUpdate({ target: memberFieldDisplay.id, set: { entries, updatedAt: now } })
      .run();
    return getMemberFieldDisplay(tx);
  });
}
