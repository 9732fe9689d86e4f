import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { type FileHandle, open, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { checkName, UploadSizeError, withStallTimeout } from "./storage";
import { chunksOf, type FileStore, type Received, type StoredObject } from "./store";

/** Bytes gathered before one write(2): few syscalls, and memory stays at one buffer per upload. */
const WRITE_BUFFER = 1024 * 1024;

async function writeAll(fh: FileHandle, data: Uint8Array) {
  let done = 0;
  while (done < data.byteLength) done += (await fh.write(data, done, data.byteLength - done)).bytesWritten;
}

/**
 * Streams chunks into a new 0600 file through one write buffer, counting bytes against `bound`;
 * the file is made durable before it is returned. Any failure removes it.
 */
async function writeNew(path: string, chunks: AsyncIterable<Uint8Array>, bound: { max: number; exact?: number }): Promise<number> {
  const fh = await open(path, "wx", 0o600);
  let size = 0;
  try {
    const buffer = Buffer.allocUnsafe(WRITE_BUFFER);
    let filled = 0;
    for await (const chunk of chunks) {
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
    if (filled > 0) await writeAll(fh, buffer.subarray(0, filled));
    if (bound.exact !== undefined && size !== bound.exact) throw new UploadSizeError("under");
    // "ready" promises the bytes: make them durable before the rename publishes them.
    await fh.datasync();
    await fh.close();
    return size;
  } catch (e) {
    await fh.close().catch(() => {});
    await rm(path, { force: true });
    throw e;
  }
}

/**
 * The local driver: `<root>/<tenantId>/<fileId>`, written to a `.part` file beside its final place
 * and renamed into it (atomic within the folder), folders 0700 and files 0600.
 */
export function localFileStore(root: string): FileStore {
  const dirOf = (tenantId: string) => join(root, checkName(tenantId));
  const pathOf = (tenantId: string, fileId: string) => join(dirOf(tenantId), checkName(fileId));
  const staged = async (tenantId: string, fileId: string, chunks: AsyncIterable<Uint8Array>, bound: { max: number; exact?: number }) => {
    const finalPath = pathOf(tenantId, fileId);
    mkdirSync(dirOf(tenantId), { recursive: true, mode: 0o700 });
    const tempPath = `${finalPath}.${crypto.randomUUID()}.part`;
    const size = await writeNew(tempPath, chunks, bound);
    let published = false;
    const received: Received = {
      size,
      publish() {
        renameSync(tempPath, finalPath);
        published = true;
      },
      async discard() {
        if (!published) await rm(tempPath, { force: true });
      },
    };
    return received;
  };
  return {
    kind: "local",
    label: root,
    receive(tenantId, fileId, body, bound, stallMs = 30_000) {
      return staged(tenantId, fileId, body ? withStallTimeout(body, stallMs) : emptyChunks(), bound);
    },
    async put(tenantId, fileId, source) {
      const r = await staged(tenantId, fileId, chunksOf(source), { max: Number.MAX_SAFE_INTEGER });
      r.publish();
      return r.size;
    },
    async size(tenantId, fileId) {
      try {
        return (await stat(pathOf(tenantId, fileId))).size;
      } catch {
        return null;
      }
    },
    open: (tenantId, fileId) => Bun.file(pathOf(tenantId, fileId)),
    // Bun sends a file slice with sendfile(2): no copy through memory.
    body: (tenantId, fileId, start, end) => Bun.file(pathOf(tenantId, fileId)).slice(start, end),
    async remove(tenantId, fileId) {
      await rm(pathOf(tenantId, fileId), { force: true });
    },
    async removeTenant(tenantId) {
      rmSync(dirOf(tenantId), { recursive: true, force: true });
    },
    async *list(tenantId) {
      const dir = dirOf(tenantId);
      const names = existsSync(dir) ? await readdir(dir) : [];
      for (const name of names) {
        try {
          const s = statSync(join(dir, name));
          if (s.isFile()) yield { fileId: name, size: s.size, modifiedAt: s.mtimeMs } satisfies StoredObject;
        } catch {} // removed meanwhile
      }
    },
    async tenants() {
      return existsSync(root) ? readdirSync(root) : [];
    },
  };
}

async function* emptyChunks(): AsyncGenerator<Uint8Array> {}
