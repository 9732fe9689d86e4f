import type { ElysiaAdapter } from "elysia/adapter";
import { BunAdapter } from "elysia/adapter/bun";
import { isFrozenThrough } from "../db/sqlite";

/** What Elysia's `Response.json` answers carry as their type. */
const JSON_TYPE = "application/json;charset=utf-8";

type Set = { headers: Record<string, unknown>; status?: unknown; cookie?: unknown };

/**
 * Elysia's Bun adapter with a cheaper answer for the common case: a JSON object or array with status
 * 200 (docs/rules/performance.md#per-request-work). Elysia answers it with `Response.json(value, set)`,
 * which builds the answer's headers anew from the request's header object (the fixed set copied in,
 * plus the request id): ~12k instructions per request. Here the fixed set with the JSON type is one
 * `Headers` built at start, copied natively into each answer, and only what differs from it (the
 * request id, CORS, a cluster node's name, a cookie) is set; a frozen value's JSON text (a cached
 * answer's) is written once. The value is the one Elysia validated and
 * cleaned against the route's response schema; anything else (another status, a cookie jar, a header
 * removed or not a string, a Response, a string, a stream) goes through Elysia's own mapping as before.
 */
export function answerAdapter(
  fixed: Record<string, string>,
  requestIdOf: (request: Request) => string | undefined = () => undefined,
): ElysiaAdapter {
  const base = new Headers({ ...fixed, "content-type": JSON_TYPE });
  const count = Object.keys(fixed).length;
  // No prototype: a header name such as "constructor" is not one of the set.
  const fixedSet: Record<string, string> = Object.assign(Object.create(null), fixed);
  const mapResponse = BunAdapter.handler.mapResponse;
  const mapEarlyResponse = BunAdapter.handler.mapEarlyResponse;
  // The request id, set at the request's start (requestStart, http/plugin.ts), goes on every answer mapped here.
  const withId = (set: Set, request: Request | undefined) => {
    if (set.headers["x-request-id"] !== undefined) return;
    const id = request && requestIdOf(request);
    if (id !== undefined) set.headers["x-request-id"] = id;
  };
  return {
    ...BunAdapter,
    handler: {
      ...BunAdapter.handler,
      mapEarlyResponse(response: unknown, set: Set, request?: Request) {
        if (response !== undefined) withId(set, request);
        return mapEarlyResponse(response, set as never, request);
      },
      mapResponse(response: unknown, set: Set, request?: Request) {
        withId(set, request);
        if (set.status === 200 && !set.cookie && response !== null && typeof response === "object") {
          const kind = response.constructor;
          if (kind === Object || kind === Array) {
            const answer = jsonAnswer(response, set.headers, fixedSet, count, base);
            if (answer) return answer;
          }
        }
        return mapResponse(response, set as never, request);
      },
    } as ElysiaAdapter["handler"],
  };
}

/** The JSON text of each frozen value answered (a cached answer): it cannot change, so it is written once. */
const texts = new WeakMap<object, string>();

function jsonOf(value: object): string {
  if (!isFrozenThrough(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** The answer, or null when `headers` lacks a fixed header or holds one that is not a string. */
function jsonAnswer(value: object, headers: Record<string, unknown>, fixed: Record<string, string>, count: number, base: Headers) {
  if (headers.constructor !== Object) return null;
  let kept = 0;
  let own = 0;
  for (const name in headers) {
    const v = headers[name];
    if (typeof v !== "string") return null;
    const f = fixed[name];
    if (f !== undefined) kept++;
    if (v !== f) own++;
  }
  // A fixed header removed: the prebuilt set would bring it back.
  if (kept !== count) return null;
  const answer = new Response(jsonOf(value), { headers: base });
  if (own > 0) {
    const h = answer.headers;
    for (const name in headers) {
      const v = headers[name] as string;
      if (v !== fixed[name]) h.set(name, v);
    }
  }
  return answer;
}
