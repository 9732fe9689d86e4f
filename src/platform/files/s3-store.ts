import { type NetworkSink, S3Client } from "bun";
import { parseS3Url } from "./s3-url";
import { checkName, UploadSizeError, withStallTimeout } from "./storage";
import { chunksOf, type FileStore, type Received } from "./store";

/** Multipart part size: S3's minimum. An upload holds at most PART_SIZE × QUEUE bytes. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE = 2;

/**
 * Streams chunks to an object through Bun's multipart writer, counting bytes against `bound`; an
 * error (size, stall, network) aborts the upload so no part is left behind.
 */
async function streamTo(sink: NetworkSink, chunks: AsyncIterable<Uint8Array>, bound: { max: number; exact?: number }) {
  let size = 0;
  let unsent = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > bound.max) throw new UploadSizeError("over");
      await sink.write(chunk);
      unsent += chunk.byteLength;
      // write() buffers without limit: flushing each full part is the back-pressure (a part is never under S3's 5 MiB minimum).
      if (unsent >= PART_SIZE) {
        await sink.flush();
        unsent = 0;
      }
    }
    if (bound.exact !== undefined && size !== bound.exact) throw new UploadSizeError("under");
    await sink.end();
    return size;
  } catch (e) {
    await Promise.resolve(sink.end(e as Error)).catch(() => {});
    throw e;
  }
}

/**
 * The S3 driver (docs/rules/storage.md#s3-urls): object `<prefix><tenantId>/<fileId>`. An upload is
 * written under its final name (S3 has no rename): the file's record turns ready only after, one
 * upload per file at a time (files/service.ts), and a failed or refused one is deleted.
 */
export function s3FileStore(url: string, env: Record<string, string | undefined>): FileStore {
  const loc = parseS3Url(url, env);
  const client = new S3Client(loc.options);
  const keyOf = (tenantId: string, fileId: string) => `${loc.prefix}${checkName(tenantId)}/${checkName(fileId)}`;
  const writer = (key: string) => client.file(key).writer({ partSize: PART_SIZE, queueSize: QUEUE, retry: 3 });
  /** Every page of a listing (1,000 keys a request), with `delimiter` its common prefixes too. */
  async function* pages(prefix: string, delimiter?: string) {
    let continuationToken: string | undefined;
    for (;;) {
      const page = await client.list({
        prefix,
        maxKeys: 1000,
        ...(delimiter ? { delimiter } : {}),
        ...(continuationToken ? { continuationToken } : {}),
      });
      yield page;
      continuationToken = page.nextContinuationToken;
      if (!page.isTruncated || !continuationToken) return;
    }
  }
  async function* keys(prefix: string) {
    for await (const page of pages(prefix)) yield* page.contents ?? [];
  }
  const store: FileStore = {
    kind: "s3",
    label: loc.label,
    async receive(tenantId, fileId, body, bound, stallMs = 30_000) {
      const key = keyOf(tenantId, fileId);
      const size = await streamTo(writer(key), body ? withStallTimeout(body, stallMs) : (async function* () {})(), bound);
      let published = false;
      const received: Received = {
        size,
        publish() {
          published = true;
        },
        async discard() {
          if (!published) await client.delete(key).catch(() => {});
        },
      };
      return received;
    },
    put(tenantId, fileId, source) {
      return streamTo(writer(keyOf(tenantId, fileId)), chunksOf(source), {
        max: Number.MAX_SAFE_INTEGER,
      });
    },
    async size(tenantId, fileId) {
      try {
        return (await client.stat(keyOf(tenantId, fileId))).size;
      } catch (e) {
        if ((e as { code?: string }).code === "NoSuchKey" || /not ?found|404/i.test(String((e as Error).message))) return null;
        throw e;
      }
    },
    open: (tenantId, fileId) => client.file(keyOf(tenantId, fileId)),
    // A ranged GET, read as it is sent: a 1 GiB download never sits in memory.
    body: (tenantId, fileId, start, end) => client.file(keyOf(tenantId, fileId)).slice(start, end).stream(),
    async remove(tenantId, fileId) {
      await client.delete(keyOf(tenantId, fileId));
    },
    async removeTenant(tenantId) {
      for await (const o of keys(`${loc.prefix}${checkName(tenantId)}/`)) await client.delete(o.key);
    },
    async *list(tenantId) {
      const prefix = `${loc.prefix}${checkName(tenantId)}/`;
      for await (const o of keys(prefix)) {
        yield { fileId: o.key.slice(prefix.length), size: o.size ?? 0, modifiedAt: o.lastModified ? Date.parse(o.lastModified) : 0 };
      }
    },
    async tenants() {
      const out: string[] = [];
      for await (const page of pages(loc.prefix, "/")) {
        for (const p of page.commonPrefixes ?? []) out.push(p.prefix.slice(loc.prefix.length).replace(/\/$/, ""));
      }
      return out;
    },
  };
  return store;
}
