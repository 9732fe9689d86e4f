import { mac, sameMac } from "../platform/crypto";
import { type FieldError, Problem } from "../platform/http/errors";

/** The header that proves a call between nodes (or from a command) knows the cluster's shared secret. */
export const PEER_HEADER = "x-learnspace-cluster";
const SKEW_MS = 60_000;

const signature = (secret: string, at: number, method: string, path: string) => mac(secret, "cluster", `${at} ${method} ${path}`);

/** Signs one call: method and path, valid for a minute (docs/rules/cluster.md#node-to-node-calls). */
export function peerHeader(secret: string, method: string, path: string, now = Date.now()): string {
  return `${now}.${signature(secret, now, method, path)}`;
}

export function checkPeer(secret: string, request: Request, now = Date.now()) {
  const [at = "", sig = ""] = (request.headers.get(PEER_HEADER) ?? "").split(".");
  const t = Number(at);
  const path = new URL(request.url).pathname;
  if (!Number.isInteger(t) || Math.abs(now - t) > SKEW_MS || !sameMac(sig, signature(secret, t, request.method, path))) {
    throw new Problem(401, "UNAUTHENTICATED", "This call needs the cluster's signature.");
  }
}

/** A call to another node's `/_cluster/…` endpoint; throws with the node's problem text when it refuses. */
export async function callPeer(secret: string, base: string, method: string, path: string, body?: BodyInit | object): Promise<Response> {
  const raw = body === undefined || body instanceof Uint8Array || body instanceof ReadableStream || body instanceof Blob;
  const res = await fetch(base + path, {
    method,
    headers: {
      [PEER_HEADER]: peerHeader(secret, method, path),
      ...(raw ? { "content-type": "application/octet-stream" } : { "content-type": "application/json" }),
    },
    body: raw ? (body as BodyInit | undefined) : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`${method} ${base}${path}: ${res.status} ${await res.text()}`);
  return res;
}

/**
 * A JSON call to another node's `/_cluster/…` endpoint on behalf of a request: the node's problem
 * comes back as the same Problem (status, code, fields, Retry-After); a node out of reach is 503.
 */
export async function askPeer<T>(secret: string, base: string, path: string, body: unknown, timeoutMs = 10_000): Promise<T> {
  let res: Response;
  try {
    res = await fetch(base + path, {
      method: "POST",
      headers: { [PEER_HEADER]: peerHeader(secret, "POST", path), "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw nodeUnavailable();
  }
  if (res.ok) return (await res.json()) as T;
  const p = (await res.json().catch(() => null)) as { code?: string; detail?: string; errors?: FieldError[] } | null;
  if (!p?.code) throw nodeUnavailable();
  const retry = res.headers.get("retry-after");
  throw new Problem(res.status, p.code, p.detail ?? p.code, p.errors, retry ? { "retry-after": retry } : undefined);
}

const nodeUnavailable = () =>
  new Problem(503, "NODE_UNAVAILABLE", "Another node of the cluster could not be reached; retry shortly.", undefined, {
    "retry-after": "2",
  });
