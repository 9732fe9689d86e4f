// Requests built from the served openapi.json against the fuzz fixture, shared by the fuzzer
// (api.fuzz.ts) and the route-rule test (route-rules.test.ts).
import type { Schema } from "./arbitraries";
import { PoolRef } from "./arbitraries";
import type { Fixture } from "./fixture";

export type Param = { name: string; in: string; required?: boolean; schema: Schema };
export type Op = {
  path: string;
  method: string;
  id: string;
  /** The route's declared `auth` rule (docs/rules/access.md#auth-values). */
  auth: string;
  params: Param[];
  body?: { type: string; schema: Schema };
  responses: Record<string, any>;
};
export type Input = {
  path: Record<string, unknown>;
  query: unknown;
  rawQuery: string;
  /** What the anonymous caller sends as Authorization, if anything. */
  anonAuth: string | null;
  body: { kind: "json"; value: unknown } | { kind: "raw"; text: string; type: string } | { kind: "none" };
};

export function operations(doc: any, only: Set<string> | null = null): Op[] {
  const ops: Op[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      // A live stream never ends, so its answer cannot be awaited here (test/notifications.test.ts reads it).
      if (op.responses?.["200"]?.content?.["text/event-stream"]) continue;
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content)[0];
      ops.push({
        path,
        method,
        id: op.operationId,
        auth: op["x-auth"],
        params: op.parameters ?? [],
        body: type ? { type, schema: content[type].schema } : undefined,
        responses: op.responses,
      });
    }
  }
  // Deletions and sign-out last: they would take the fixture's records away from the rest.
  const last = (o: Op) => (o.method === "delete" || /sign-out|bulk-delete|leave/.test(o.path) ? 1 : 0);
  return ops.filter((o) => !only || only.has(o.id)).sort((a, b) => last(a) - last(b));
}

/** A path segment; lone surrogates are sent as the invalid UTF-8 they would be in WTF-8. */
function segment(v: string) {
  try {
    return encodeURIComponent(v);
  } catch {
    return [...v]
      .map((c) => {
        const u = c.charCodeAt(0);
        if (c.length === 1 && u >= 0xd800 && u <= 0xdfff)
          return `%${(0xe0 | (u >> 12)).toString(16)}%${(0x80 | ((u >> 6) & 63)).toString(16)}%${(0x80 | (u & 63)).toString(16)}`;
        return encodeURIComponent(c);
      })
      .join("");
  }
}

export function resolveDeep(fx: Fixture, v: unknown, path: string): unknown {
  if (v instanceof PoolRef) return v.name.startsWith("other:") ? fx.otherId(v.name.slice(6)) : fx.resolve(v.name, v.pick, path);
  if (Array.isArray(v)) return v.map((x) => resolveDeep(fx, x, path));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveDeep(fx, x, path)]));
  return v;
}

export function requestOf(fx: Fixture, op: Op, input: Input) {
  let url = op.path.replace(/\{(\w+)\}/g, (_, name) => {
    const v = resolveDeep(fx, input.path[name], op.path);
    return segment(typeof v === "string" ? v : JSON.stringify(v));
  });
  const q = new URLSearchParams();
  const query = resolveDeep(fx, input.query, op.path);
  // A broken query whose root was replaced (null, a list) sends no parameters.
  for (const [k, v] of Object.entries(query && typeof query === "object" && !Array.isArray(query) ? query : {})) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) q.append(k, typeof x === "string" ? x : JSON.stringify(x));
  }
  const qs = [q.toString(), input.rawQuery].filter(Boolean).join("&");
  if (qs) url += `?${qs}`;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (input.body.kind === "json") {
    const value = resolveDeep(fx, input.body.value, op.path);
    if (op.body?.type === "application/x-www-form-urlencoded" && value && typeof value === "object") {
      headers["content-type"] = op.body.type;
      body = new URLSearchParams(Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString();
    } else {
      headers["content-type"] = op.body?.type === "*/*" ? "application/octet-stream" : "application/json";
      body = JSON.stringify(value);
    }
  } else if (input.body.kind === "raw") {
    headers["content-type"] = input.body.type;
    body = input.body.text;
  }
  return { url, headers, body };
}
