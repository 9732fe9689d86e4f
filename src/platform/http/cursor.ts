import { mac, sameMac } from "../crypto";
import { invalid } from "./errors";

/**
 * Opaque keyset cursors, MAC-signed and bound to their operation and filters (docs/rules/conventions.md#cursors).
 * `position` is the keyset (e.g. [createdAt, id]) of the last row of the previous page.
 */
export type Cursors = {
  encode(op: string, filters: unknown, position: unknown): string;
  decode<T>(op: string, filters: unknown, cursor: string | undefined): T | null;
};

export function createCursors(secret: string): Cursors {
  const bind = (op: string, filters: unknown, payload: string) => `${op}\n${JSON.stringify(filters ?? null)}\n${payload}`;
  return {
    encode(op, filters, position) {
      const payload = Buffer.from(JSON.stringify(position)).toString("base64url");
      return `${payload}.${mac(secret, "cursor", bind(op, filters, payload))}`;
    },
    decode<T>(op: string, filters: unknown, cursor: string | undefined): T | null {
      if (cursor === undefined) return null;
      const [payload, sig, extra] = cursor.split(".");
      if (!payload || !sig || extra !== undefined || !sameMac(sig, mac(secret, "cursor", bind(op, filters, payload)))) {
        throw invalid("cursor", "is not a valid cursor for this list", "query");
      }
      try {
        return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as T;
      } catch {
        throw invalid("cursor", "is not a valid cursor for this list", "query");
      }
    },
  };
}

/** A keyset position: the last row's sort value and its id. */
export type Keyset<V extends number | string = number> = [V, string];

/** decode, then the position must be a [sort value, id] pair of the list's kind (else 400 naming cursor). */
export function decodeKeyset<V extends number | string = number>(
  cursors: Cursors,
  op: string,
  filters: unknown,
  cursor: string | undefined,
  kind: "number" | "string" = "number",
): Keyset<V> | null {
  const after = cursors.decode<unknown>(op, filters, cursor);
  if (after === null) return null;
  if (!(Array.isArray(after) && after.length === 2 && typeof after[0] === kind && typeof after[1] === "string")) {
    throw invalid("cursor", "is not a valid cursor for this list", "query");
  }
  return after as Keyset<V>;
}
