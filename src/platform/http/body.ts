import { payloadTooLarge } from "./errors";

/** JSON, form and any other request bodies: at most 4 MiB (DECISIONS §3 413). Uploads stream. */
export const BODY_LIMIT = 4 * 1024 * 1024;

const streamed = new WeakSet<Request>();
const invalidJson = new WeakSet<Request>();

/** A route that reads its body as a stream itself (file uploads) marks the request in onRequest. */
export function markStreamedBody(request: Request) {
  streamed.add(request);
}

export const isStreamedBody = (request: Request) => streamed.has(request);

/**
 * Malformed JSON is remembered, not thrown while parsing, so that the check order of DECISIONS §3
 * holds (401 and permission 403 before any 400): the auth macro reports it after authenticating.
 */
export function markInvalidJson(request: Request) {
  invalidJson.add(request);
}

export const hasInvalidJson = (request: Request) => invalidJson.has(request);

/** Reads a body stream, failing with 413 as soon as it passes the limit (chunked bodies too). */
export async function readLimited(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > BODY_LIMIT) throw payloadTooLarge();
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > BODY_LIMIT) throw payloadTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
