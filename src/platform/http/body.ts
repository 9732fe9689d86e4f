import { invalidJsonProblem, invalidMany, type Problem, payloadTooLarge } from "./errors";

/** JSON, form and any other request bodies: at most 4 MiB (docs/rules/errors.md#body-size). Uploads stream. */
const BODY_LIMIT = 4 * 1024 * 1024;

const streamed = new WeakSet<Request>();

/** A request whose body its route reads as a stream itself (cluster mode's node-to-node calls) is marked in onRequest. */
export function markStreamedBody(request: Request) {
  streamed.add(request);
}

/** A method and a pattern matched on the whole `request.url` (no `new URL()` per request). */
type BodyRoute = { method: string; url: RegExp };

const streamedRoutes: BodyRoute[] = [];
const formRoutes: BodyRoute[] = [];

const matches = (routes: BodyRoute[], request: Request) => {
  for (const r of routes) if (r.method === request.method && r.url.test(request.url)) return true;
  return false;
};

const register = (routes: BodyRoute[], method: string, url: RegExp) => {
  if (!routes.some((r) => r.method === method && r.url.source === url.source)) routes.push({ method, url });
};

/**
 * A route that reads its body as a stream itself (file uploads), whatever its type: the body parser
 * leaves it unread. Declared once by the module, looked up only for a request with a body, not marked
 * in an `onRequest` hook, which every request of the app would run (docs/rules/performance.md#per-request-work).
 */
export const streamBodiesOf = (method: string, url: RegExp) => register(streamedRoutes, method, url);

export const isStreamedBody = (request: Request) => streamed.has(request) || matches(streamedRoutes, request);

/**
 * The routes that take a browser form (the SAML ACS, the e-mail unsubscribe); every other body must
 * be JSON (docs/rules/trust.md#json-bodies-only). Declared as streamBodiesOf is, looked up only for a form body.
 */
export const takeFormBodiesOf = (method: string, url: RegExp) => register(formRoutes, method, url);

export const acceptsFormBody = (request: Request) => matches(formRoutes, request);

const refused = new WeakMap<Request, Problem>();

/**
 * What is wrong with a JSON body (malformed, not an object, text that is not well-formed Unicode) is
 * remembered while parsing, not thrown, so that the check order (docs/rules/errors.md#check-order) holds (401 and
 * permission 403 before any 400): the auth macro reports it after authenticating.
 */
export const bodyProblem = (request: Request) => refused.get(request);

/**
 * TypeBox's Value.Clean keeps a key named like an Object.prototype member (`constructor`,
 * `toString`, …) as if declared, so it would reach handlers and stored JSON; no schema declares one.
 */
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);

function dropPrototypeKeys(value: unknown) {
  if (typeof value !== "object" || value === null) return;
  if (!Array.isArray(value))
    for (const key of PROTOTYPE_KEYS) if (Object.hasOwn(value, key)) delete (value as Record<string, unknown>)[key];
  for (const item of Array.isArray(value) ? value : Object.values(value)) dropPrototypeKeys(item);
}

/** Parses a JSON body text; on a problem, remembers it for the request and yields `{}`. */
export function parseJsonBody(request: Request, text: string): unknown {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refused.set(request, invalidJsonProblem());
    return {};
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    refused.set(request, invalidMany([{ in: "body", field: "body", message: "must be a JSON object" }]));
    return {};
  }
  if (deeperThan(value, MAX_DEPTH)) {
    refused.set(request, invalidMany([{ in: "body", field: "body", message: `is nested deeper than ${MAX_DEPTH} levels` }]));
    return {};
  }
  dropPrototypeKeys(value);
  if (refuseBadText(request, value)) return {};
  return value;
}

/** Far deeper than any body schema (6 levels): validation's error text would recurse into it without end. */
const MAX_DEPTH = 32;

function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (deeperThan(item, levels - 1)) return true;
  return false;
}

/**
 * Remembers a problem when a string (or key) of a parsed body is not well-formed Unicode or holds
 * a NUL character (neither is ever stored); true when it did.
 */
export function refuseBadText(request: Request, value: unknown): boolean {
  const bad = badTextPath(value, "");
  if (bad === null) return false;
  refused.set(request, invalidMany([{ in: "body", field: bad.path || "body", message: bad.message }]));
  return true;
}

type BadText = { path: string; message: string };

const textProblem = (s: string): string | null =>
  !s.isWellFormed() ? "is not well-formed Unicode text" : s.includes("\u0000") ? "must not contain NUL characters" : null;

/** The field path of the first string (or key) that is ill-formed or holds a NUL, else null. */
function badTextPath(value: unknown, path: string): BadText | null {
  if (typeof value === "string") {
    const message = textProblem(value);
    return message ? { path, message } : null;
  }
  if (typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = badTextPath(value[i], `${path}[${i}]`);
      if (bad !== null) return bad;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const message = textProblem(key);
    if (message) return { path: at, message };
    const bad = badTextPath(item, at);
    if (bad !== null) return bad;
  }
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads a body stream, failing with 413 as soon as it passes the limit (chunked bodies too). Bytes
 * that are not UTF-8 are refused (remembered as the request's body problem), never replaced by U+FFFD.
 */
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
  try {
    return utf8.decode(Buffer.concat(chunks));
  } catch {
    refused.set(request, invalidMany([{ in: "body", field: "body", message: "is not valid UTF-8" }]));
    return "";
  }
}

/** Where `nullsToAbsent` looks: keys of this object, and the items of its list fields. */
export type NullableLists = { drop?: readonly string[]; items?: Readonly<Record<string, NullableLists>> };

/**
 * For list fields that may be null ("absent, null or empty"): null becomes absent before validation,
 * so that the schemas stay plain arrays and a bad item is named (`questions[0].options[1].body`)
 * rather than the whole union. Runs in a route's `transform`.
 */
export function nullsToAbsent(body: unknown, shape: NullableLists) {
  if (!body || typeof body !== "object") return;
  const o = body as Record<string, unknown>;
  for (const k of shape.drop ?? []) if (o[k] === null) delete o[k];
  for (const [k, inner] of Object.entries(shape.items ?? {})) {
    const list = o[k];
    if (Array.isArray(list)) for (const item of list) nullsToAbsent(item, inner);
  }
}
