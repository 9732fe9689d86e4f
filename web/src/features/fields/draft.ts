import { ApiError } from "../../api/problem";

export const TYPES = ["SHORT_TEXT", "LONG_TEXT", "NUMBER", "DATE", "SELECT"] as const;
export type FieldType = (typeof TYPES)[number];
export type Kind = "member" | "space";

export type Saved = { id: string; key: string; label: string; type: FieldType; options: string[]; required: boolean; isActive: boolean };
/** A row of the editor: a saved field as edited (`deleted` marks it for deletion), or a new one (`id` null). */
export type Row = Omit<Saved, "id"> & { id: string | null; tempId: string; deleted: boolean };

type Update = { id: string; label?: string; options?: string[]; required?: boolean; isActive?: boolean };
type Create = { key: string; label: string; type: FieldType; options?: string[]; required: boolean };
/** batchEditMemberFields' body, and which row each update and create came from (to put its errors on that row). */
export type Batch = {
  deletes: string[];
  updates: Update[];
  creates: Create[];
  orderedIds?: string[];
  rowsOf: { updates: string[]; creates: string[] };
};

export const toRow = (f: Saved): Row => ({ ...f, options: [...f.options], tempId: f.id, deleted: false });

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The edits as one batch: only what changed is sent; the order only when it changed. */
export function toBatch(saved: Saved[], rows: Row[]): Batch {
  const byId = new Map(saved.map((f) => [f.id, f]));
  const batch: Batch = { deletes: [], updates: [], creates: [], rowsOf: { updates: [], creates: [] } };
  for (const r of rows) {
    if (r.id === null) {
      if (r.deleted) continue;
      batch.creates.push({
        key: r.key,
        label: r.label,
        type: r.type,
        required: r.required,
        ...(r.type === "SELECT" ? { options: r.options } : {}),
      });
      batch.rowsOf.creates.push(r.tempId);
      continue;
    }
    const before = byId.get(r.id);
    if (!before) continue;
    if (r.deleted) {
      batch.deletes.push(r.id);
      continue;
    }
    const u: Update = { id: r.id };
    if (r.label !== before.label) u.label = r.label;
    if (r.type === "SELECT" && !same(r.options, before.options)) u.options = r.options;
    if (r.required !== before.required) u.required = r.required;
    if (r.isActive !== before.isActive) u.isActive = r.isActive;
    if (Object.keys(u).length > 1) {
      batch.updates.push(u);
      batch.rowsOf.updates.push(r.tempId);
    }
  }
  const kept = rows.filter((r) => r.id !== null && !r.deleted).map((r) => r.id as string);
  const savedOrder = saved.map((f) => f.id).filter((id) => kept.includes(id));
  if (!same(kept, savedOrder)) batch.orderedIds = kept;
  return batch;
}

export const isEmpty = (b: Batch) => !b.deletes.length && !b.updates.length && !b.creates.length && !b.orderedIds;

/** The field path prefix a row's problems come under (`updates[2].`, `creates[0].`), or null when it was not sent. */
export function prefixOf(batch: Batch | null, tempId: string): string | null {
  if (!batch) return null;
  const u = batch.rowsOf.updates.indexOf(tempId);
  if (u >= 0) return `updates[${u}].`;
  const c = batch.rowsOf.creates.indexOf(tempId);
  if (c >= 0) return `creates[${c}].`;
  return null;
}

/** A problem of one call of a series, with its field names put under the batch path they stand for. */
export function under(prefix: string, e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  return new ApiError(
    e.status,
    e.code,
    e.errors.map((x) => ({ ...x, field: `${prefix}${x.field}` })),
  );
}
