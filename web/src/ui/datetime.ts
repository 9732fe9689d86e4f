/** An ISO instant as the local "YYYY-MM-DDTHH:mm" a datetime-local input shows ("" for none). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A datetime-local input's value as the ISO instant the API takes (null for empty). */
export const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null);
