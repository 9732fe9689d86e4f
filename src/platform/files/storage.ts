import { join } from "node:path";

/** The largest upload (spec: upload size 0..1073741824). */
export const MAX_UPLOAD_BYTES = 1_073_741_824;

const ID = /^[0-9a-f-]{36}$/;
/** A stored name: a UUID, or the `.part` leftover of an upload that never finished. */
const NAME = /^[0-9a-f-]{36}(\.[0-9a-f-]{36}\.part)?$/;

/** True for a file or tenant id (ours, UUIDs), false for leftovers and anything else. */
export const isStoredId = (name: string) => ID.test(name);

/** The name itself when it is one of ours; anything else (a client's path) throws. */
export function checkName(name: string): string {
  if (!NAME.test(name)) throw new Error("invalid file or tenant id");
  return name;
}

/** `<dataDir>/files/<tenantId>/<fileId>`: where the local driver keeps a file; both ids are ours (UUIDs). */
export function storedFilePath(dataDir: string, tenantId: string, fileId: string): string {
  if (!ID.test(tenantId) || !ID.test(fileId)) throw new Error("invalid file or tenant id");
  return join(dataDir, "files", tenantId, fileId);
}

/** The byte count of an upload ended off its bound: more than allowed, or fewer than declared. */
export class UploadSizeError extends Error {
  constructor(readonly kind: "over" | "under") {
    super(`upload ${kind} its size`);
  }
}

export class UploadStalledError extends Error {}

/** The chunks of a stream; throws UploadStalledError (and cancels it) when no chunk comes for `ms`. */
export async function* withStallTimeout(body: ReadableStream<Uint8Array>, ms: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new UploadStalledError(`no bytes for ${ms} ms`)), ms);
      });
      const next = await Promise.race([reader.read(), stalled]).finally(() => clearTimeout(timer));
      if (next.done) return;
      yield next.value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Path separators, control characters (C0, DEL, C1) and bidirectional controls (U+202E "RTL override"…). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_IN_NAME = /[/\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file name as kept and offered for saving: separators, control and bidi characters become "_",
 * so "x/../../etc" cannot name a path and "invoice\u202Efdp.exe" cannot pose as "invoiceexe.pdf";
 * a name of dots only becomes "file".
 */
export function safeFileName(fileName: string): string {
  const name = fileName.toWellFormed().replace(UNSAFE_IN_NAME, "_").trim();
  return /^\.*$/.test(name) ? "file" : name;
}

/**
 * `Content-Disposition: attachment` for a file name of any characters (RFC 6266): an ASCII
 * `filename` fallback and the name as UTF-8 in `filename*` (RFC 5987/8187), both made safe.
 */
export function attachmentDisposition(rawName: string): string {
  const fileName = safeFileName(rawName);
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_").trim() || "file";
  const exact = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
