import { mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { type FileHandle, open, rm } from "node:fs/promises";
import { join } from "node:path";

/** The largest upload (spec: upload size 0..1073741824). */
export const MAX_UPLOAD_BYTES = 1_073_741_824;

/** Bytes gathered before one write(2): few syscalls, and memory stays at one buffer per upload. */
const WRITE_BUFFER = 1024 * 1024;

const ID = /^[0-9a-f-]{36}$/;

/** `<dataDir>/files/<tenantId>/<fileId>`; both ids are ours (UUIDs), never a client's path. */
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

async function writeAll(fh: FileHandle, data: Uint8Array) {
  let done = 0;
  while (done < data.byteLength) done += (await fh.write(data, done, data.byteLength - done)).bytesWritten;
}

/**
 * Streams a request body into a temporary file beside its final place, counting bytes, and never
 * holds more than one write buffer. Stops as soon as the count passes `max`; with `exact` the final
 * count must equal it; a body that sends nothing for `stallMs` is given up. Any failure (size,
 * stall, disconnect, disk) removes the partial file.
 */
export async function receiveFile(
  finalPath: string,
  body: ReadableStream<Uint8Array> | null,
  bound: { max: number; exact?: number },
  stallMs = 30_000,
): Promise<{ tempPath: string; size: number }> {
  const dir = join(finalPath, "..");
  mkdirSync(dir, { recursive: true });
  const tempPath = `${finalPath}.${crypto.randomUUID()}.part`;
  const fh = await open(tempPath, "wx", 0o600);
  let size = 0;
  try {
    const buffer = Buffer.allocUnsafe(WRITE_BUFFER);
    let filled = 0;
    if (body) {
      for await (const chunk of withStallTimeout(body, stallMs)) {
        size += chunk.byteLength;
        if (size > bound.max) throw new UploadSizeError("over");
        if (filled + chunk.byteLength > WRITE_BUFFER && filled > 0) {
          await writeAll(fh, buffer.subarray(0, filled));
          filled = 0;
        }
        if (chunk.byteLength >= WRITE_BUFFER) {
          await writeAll(fh, chunk);
        } else {
          buffer.set(chunk, filled);
          filled += chunk.byteLength;
        }
      }
    }
    if (filled > 0) await writeAll(fh, buffer.subarray(0, filled));
    if (bound.exact !== undefined && size !== bound.exact) throw new UploadSizeError("under");
    // "ready" promises the bytes: make them durable before the rename publishes them.
    await fh.datasync();
    await fh.close();
    return { tempPath, size };
  } catch (e) {
    await fh.close().catch(() => {});
    await rm(tempPath, { force: true });
    throw e;
  }
}

export class UploadStalledError extends Error {}

/** The chunks of a stream; throws UploadStalledError (and cancels it) when no chunk comes for `ms`. */
async function* withStallTimeout(body: ReadableStream<Uint8Array>, ms: number): AsyncGenerator<Uint8Array> {
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

/** Publishes a received file under its final name (atomic within the directory). */
export function commitFile(tempPath: string, finalPath: string) {
  renameSync(tempPath, finalPath);
}

export function discardFile(path: string) {
  rmSync(path, { force: true });
}

/** The size on disk, or null when the file is gone. */
export function storedSize(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
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
