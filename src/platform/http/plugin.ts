import type { TSchema } from "@sinclair/typebox";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { Elysia, ValidationError } from "elysia";
import { releaseActor } from "../auth/context";
import { settledFor } from "../db/group-commit";
import { silentLog } from "../log";
import type { Runtime } from "../runtime";
import { acceptsFormBody, bodyProblem, isStreamedBody, parseJsonBody, readLimited, refuseBadText } from "./body";
import { installCheckedCleaners } from "./clean";
import { clientAddress } from "./client-address";
import { type FieldError, invalidJsonProblem, Problem, problemBody, problemResponse, unsupportedMediaType } from "./errors";
import { enterRequest } from "./request-context";

const started = new WeakMap<Request, { id: string; at: number; client: string }>();

/** An incoming X-Request-Id is kept when it is a sane token (a proxy's id ties its log to ours). */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;

/** Probes answered many times a minute: logged only when they fail. */
const QUIET_ROUTES = new Set(["/healthz", "/readyz"]);

/** TypeBox paths ("/tasks/0/title") become field paths ("tasks[0].title"). */
export function fieldPath(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
}

type ItemError = {
  type?: number;
  path: string;
  message: string;
  value?: unknown;
  schema?: { error?: unknown };
  errors?: Iterable<ItemError>[];
};

/**
 * A union's error says only "Expected union value"; when one variant got further (e.g. the array
 * of a `Nullable(Array)`), report that variant's innermost error, which names the item. When none
 * did and the union has no error text of its own (a bound inside `Nullable(...)`), report the
 * first variant's error that has one, so the declared message is shown.
 */
function innermost(item: ItemError): ItemError {
  if (item.type !== ValueErrorType.Union || !item.errors?.length) return item;
  let best = item;
  let declared: ItemError | undefined;
  for (const variant of item.errors) {
    for (const inner of variant) {
      if (inner.path.length > best.path.length) best = innermost(inner);
      else if (!declared && typeof inner.schema?.error === "string") declared = inner;
      break;
    }
  }
  if (best !== item || typeof item.schema?.error === "string") return best;
  return declared ?? item;
}

function validationErrors(e: ValidationError): FieldError[] {
  const where: FieldError["in"] = e.type === "query" ? "query" : e.type === "params" ? "path" : "body";
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const raw of e.all as ItemError[]) {
    const item = innermost(raw);
    const field = fieldPath(item.path ?? "") || where;
    if (seen.has(field)) continue;
    seen.add(field);
    const custom = typeof item.schema?.error === "string" ? item.schema.error : null;
    const message =
      item.type === ValueErrorType.ObjectRequiredProperty || item.value === undefined
        ? "is required"
        : (custom ?? (item.message === "Expected union value" ? "has the wrong type or value" : item.message));
    out.push({ in: where, field, message });
  }
  return out.length ? out : [{ in: where, field: where, message: "is not valid" }];
}

type Schema = TSchema & { type?: string; anyOf?: Schema[]; items?: Schema; error?: string; minItems?: number; maxItems?: number };
type QuerySchema = { properties?: Record<string, Schema>; required?: string[] };

const isNumeric = (s: Schema) => [s.type, ...(s.anyOf ?? []).map((a) => a.type)].some((t) => t === "integer" || t === "number");

/** The error of one scalar query value, with numbers explained by the numeric member of a union. */
function scalarError(prop: Schema, raw: string): string | null {
  const value = isNumeric(prop) && raw !== "" && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  if (Value.Check(prop, value)) return null;
  if (prop.error) return prop.error;
  if (typeof value !== "number") return "has the wrong type or value";
  const target = prop.anyOf?.find((a) => a.type === "integer" || a.type === "number") ?? prop;
  return Value.Errors(target, value).First()?.message ?? "is not valid";
}

/**
 * Elysia checks numeric and array query parameters one at a time and reports them without a name
 * (or as a decode error); find the offending parameter again from the route's query schema so that
 * the error names it, e.g. `page` or `statuses[0]`.
 */
function queryPropertyErrors(schema: QuerySchema | undefined, url: string): FieldError[] {
  const params = new URL(url).searchParams;
  const out: FieldError[] = [];
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const raw = params.getAll(name);
    if (raw.length === 0) {
      if (schema?.required?.includes(name)) out.push({ in: "query", field: name, message: "is required" });
      continue;
    }
    const array = prop.type === "array" ? prop : prop.anyOf?.find((a) => a.type === "array");
    if (array) {
      if ((array.minItems !== undefined && raw.length < array.minItems) || (array.maxItems !== undefined && raw.length > array.maxItems)) {
        out.push({
          in: "query",
          field: name,
          message: array.error ?? `must have ${array.minItems ?? 0}..${array.maxItems ?? "any"} items`,
        });
      }
      raw.forEach((r, i) => {
        const message = array.items ? scalarError(array.items, r) : null;
        if (message) out.push({ in: "query", field: `${name}[${i}]`, message });
      });
    } else {
      const message = scalarError(prop, raw[0] as string);
      if (message) out.push({ in: "query", field: name, message });
    }
  }
  return out;
}

type RouteList = () => { method: string; path: string; hooks: unknown }[];

type ErrorContext = { error: unknown; code: unknown; request: Request; route: string };

/** Every error as a problem+json Response (docs/rules/errors.md#problem-body). */
function problemFor({ error, code, request, route }: ErrorContext, rt: Runtime, routes: RouteList): Response {
  const id = started.get(request)?.id ?? Bun.randomUUIDv7();
  if (error instanceof Problem) return problemResponse(error, id);
  // Elysia wraps whatever the parse hook throws (413 PAYLOAD_TOO_LARGE) in a ParseError.
  const cause = (error as { cause?: unknown }).cause;
  if (code === "PARSE" && cause instanceof Problem) return problemResponse(cause, id);
  // A body refused while parsing (routes without the auth macro meet it here, as a validation error).
  const refused = bodyProblem(request);
  if (refused && (error instanceof ValidationError || code === "VALIDATION")) return problemResponse(refused, id);
  // Query errors are re-derived per parameter: Elysia reports some without a name or as a decode error.
  const queryError = error instanceof ValidationError ? error.type === "property" || error.type === "query" : code === "VALIDATION";
  if (queryError) {
    const r = routes().find((x) => x.method === request.method && x.path === route);
    const errors = queryPropertyErrors((r?.hooks as { query?: QuerySchema } | undefined)?.query, request.url);
    return problemResponse(
      new Problem(
        400,
        "VALIDATION_FAILED",
        "The request is not valid.",
        errors.length ? errors : [{ in: "query", field: "query", message: "is not valid" }],
      ),
      id,
    );
  }
  if (error instanceof ValidationError) {
    return problemResponse(new Problem(400, "VALIDATION_FAILED", "The request is not valid.", validationErrors(error)), id);
  }
  if (code === "PARSE") return problemResponse(invalidJsonProblem(), id);
  if (code === "NOT_FOUND") return problemResponse(new Problem(404, "NOT_FOUND", "Not found."), id);
  if (code === "INVALID_COOKIE_SIGNATURE") return problemResponse(new Problem(401, "SESSION_EXPIRED", "The session has expired."), id);
  return internalProblem(rt, id, error);
}

function internalProblem(rt: Runtime, id: string, error: unknown): Response {
  rt.log({ level: "error", requestId: id, error: error instanceof Error ? error.stack : String(error) });
  return new Response(JSON.stringify(problemBody(500, "INTERNAL", `Internal error (request ${id}).`, undefined, id)), {
    status: 500,
    headers: { "content-type": "application/problem+json", "x-request-id": id },
  });
}

/** Told of every answered request (the /metrics series): method, route pattern, status, seconds. */
export type ResponseObserver = (method: string, route: string, status: number | string, seconds: number) => void;

/** The id of a request being served (started by `requestStart`), if any. */
export const requestIdOf = (request: Request) => started.get(request)?.id;

/**
 * The start of every request: its id (an incoming sane `X-Request-Id`, else a fresh UUID), the draining
 * 503, the log line's start and client, `inFlight`, the request context. Elysia's higher-order function
 * around each route's handler (`app.wrap`, on the root app), not an `onRequest` hook: any app-wide
 * `onRequest` hook makes every route read `request.url` and run the hooks in a try block, and this
 * bookkeeping as a hook was ~8k of a tenant read's ~56k instructions (docs/rules/performance.md#per-request-work).
 * The answer gets the id in the http plugin's `afterHandle` hook, an early answer from the adapter
 * (`answerAdapter`), a problem from `problemFor`.
 */
export function requestStart(rt: Runtime, fixed: Record<string, string>) {
  return function start(handle: (request: Request) => unknown, request: Request) {
    const incoming = request.headers.get("x-request-id");
    const id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : Bun.randomUUIDv7();
    if (rt.draining) return () => shuttingDown(id, fixed);
    // The peer's address is read only for the access log line: `requestIP` formats it anew each call.
    const client = rt.log === silentLog ? "" : clientAddress(rt.config, request, rt.server());
    started.set(request, { id, at: performance.now(), client });
    rt.inFlight++;
    enterRequest(id);
    return handle;
  };
}

/** 503 SHUTTING_DOWN with the fixed headers and `Connection: close`, as every answer carries them. */
function shuttingDown(id: string, fixed: Record<string, string>): Response {
  const res = problemResponse(new Problem(503, "SHUTTING_DOWN", "The server is shutting down; retry shortly."), id);
  for (const [name, value] of Object.entries(fixed)) res.headers.set(name, value);
  res.headers.set("connection", "close");
  return res;
}

/** Request ids, one JSON log line per request, body limits and problem+json for every error. */
export function httpPlugin(rt: Runtime, routes: RouteList = () => [], observe?: ResponseObserver, fixed: Record<string, string> = {}) {
  // Before any route compiles its validators (on its first request).
  installCheckedCleaners();
  return (
    new Elysia({ name: "learnspace.http" })
      // Around each route's handler (Elysia passes it on to the root), not an onRequest hook (requestStart).
      .wrap(requestStart(rt, fixed))
      .onParse({ as: "global" }, async ({ request, contentType }) => {
        // Left unread for its route, whatever its type: a value (null) stops Elysia's own parsers too.
        if (isStreamedBody(request)) return null;
        const type = contentType?.split(";")[0]?.trim().toLowerCase();
        const text = await readLimited(request);
        if (type === "application/json" || type?.endsWith("+json")) return parseJsonBody(request, text);
        if (type === "application/x-www-form-urlencoded" && acceptsFormBody(request)) {
          const form = Object.fromEntries(new URLSearchParams(text));
          return refuseBadText(request, form) ? {} : form;
        }
        // No body at all reads as an empty object, whatever the declared type.
        if (text === "") return {};
        // A form or text body could come from a cross-site form (docs/rules/trust.md#json-bodies-only).
        throw unsupportedMediaType();
      })
      // Group commit: an answer leaves only once the commits it could show, or made, are durable
      // (docs/rules/performance.md#durability); one that touched no such file does not wait.
      .onAfterHandle({ as: "global" }, async ({ request, set }) => {
        const id = started.get(request)?.id;
        if (id !== undefined) set.headers["x-request-id"] = id;
        const durable = settledFor(rt.platform.sqlite);
        if (durable) await durable;
      })
      // Destructured, not `ctx`: Elysia reads a hook's parameters to decide what every route prepares, and
      // a whole context handed on made it parse cookies and the query on every request (docs/rules/performance.md#per-request-work).
      .onError({ as: "global" }, async ({ error, code, request, route, set }) => {
        let failed: Pick<ErrorContext, "error" | "code"> = { error, code };
        // A failed request may have written too (a sign-in's failure count); a failed commit is a 500.
        await settledFor(rt.platform.sqlite)?.catch((e) => {
          failed = { error: e, code: "UNKNOWN" };
        });
        let res: Response;
        try {
          res = problemFor({ ...failed, request, route }, rt, routes);
        } catch (e) {
          // Mapping the error failed too: still one problem+json 500, never an error escaping the server.
          res = internalProblem(rt, started.get(request)?.id ?? Bun.randomUUIDv7(), e);
        }
        // Headers that name who answered (the cluster node) are kept on errors too.
        for (const [name, value] of Object.entries(set.headers)) {
          if (name.startsWith("x-learnspace-") && typeof value === "string" && !res.headers.has(name)) res.headers.set(name, value);
        }
        // The log line reports what was sent, not Elysia's provisional 422 of a validation error.
        set.status = res.status;
        return res;
      })
      .onAfterResponse({ as: "global" }, ({ request, set, route, responseValue }) => {
        const actor = releaseActor(rt, request);
        const s = started.get(request);
        if (!s) return;
        started.delete(request);
        rt.inFlight--;
        // A handler that returns a Response (a redirect) sets its own status; set.status stays 200.
        const status = responseValue instanceof Response ? responseValue.status : (set.status ?? 200);
        const ms = performance.now() - s.at;
        observe?.(request.method, route, status, ms / 1000);
        if (rt.log === silentLog || (QUIET_ROUTES.has(route) && !(Number(status) >= 500))) return;
        rt.log({
          requestId: s.id,
          method: request.method,
          route,
          status,
          ms: Math.round(ms * 100) / 100,
          client: s.client,
          ...(actor ? { tenantId: actor.tenantId, memberId: actor.memberId } : {}),
        });
      })
  );
}
