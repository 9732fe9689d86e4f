import { Elysia } from "elysia";
import type { AuthRule } from "../auth/context";

/**
 * The prefix of every API module's routes. Each module's Elysia instance carries it itself and is used
 * by the root directly: an intermediate `/api/v1` instance would add every route once more at start
 * (docs/rules/performance.md#start).
 */
export const API_PREFIX = "/api/v1";

type Add = (method: string, path: string, handle: unknown, localHook?: object, options?: object) => void;
type Internals = {
  add: Add;
  config: { prefix?: string };
  event: Record<string, unknown>;
  router: { history: { method: string; path: string; composed: null; handler: unknown; compile: undefined; hooks: object }[] };
  standaloneValidator: { local?: unknown; scoped?: unknown; global?: unknown };
  validator: { getCandidate(): Record<string, unknown> };
};
const elysiaAdd = (Elysia.prototype as unknown as Internals).add;
/** Module-level events a route takes nothing from: Elysia runs `request` hooks for every request of the app. */
const APP_WIDE_EVENTS = new Set(["request", "start", "stop"]);

/**
 * An API module's Elysia instance, `/api/v1` prefix included, whose routes are recorded, not added: the
 * instance that uses the module (the root) adds each of them once, with its own hooks and the macros
 * the module brings (Elysia's `use` merges a plugin's macros before it adds the plugin's routes). Added
 * by the module first, each route's hooks, macros and validators were merged twice at start, ~10 % of a
 * start's main thread (docs/rules/performance.md#start). A route is recorded as Elysia's `add` would
 * leave it for its parent only while that is the local hook alone: a module with a guard, a scoped
 * validator or a route-level event of its own (`onBeforeHandle` …) has its routes added the usual way.
 */
export function apiModule<const Name extends string>(name: Name) {
  const module = new Elysia({ name, prefix: API_PREFIX });
  const own = module as unknown as Internals;
  own.add = function (this: Internals, method, path, handle, localHook, options) {
    const candidate = this.validator.getCandidate();
    const plain =
      options === undefined &&
      typeof handle === "function" &&
      !this.standaloneValidator.local &&
      !this.standaloneValidator.scoped &&
      !this.standaloneValidator.global &&
      !Object.values(candidate).some(Boolean) &&
      Object.keys(this.event).every((type) => APP_WIDE_EVENTS.has(type));
    if (!plain) return elysiaAdd.call(this, method, path, handle, localHook, options);
    const full = `${API_PREFIX}${path !== "" && path.charCodeAt(0) !== 47 ? `/${path}` : path}`;
    this.router.history.push({ method, path: full, composed: null, handler: handle, compile: undefined, hooks: localHook ?? {} });
  };
  return module;
}

/**
 * What the API reference shows of an operation (docs/rules/api-reference.md#operations): a one-line
 * summary, a description of what it does, and the error codes particular to it, each as
 * "STATUS `CODE` when …". Who may call it and the errors every route of its kind answers (401, 400
 * for bad input, 403/404 of its auth rule) are added from the route itself by the OpenAPI builder.
 */
export type RouteDoc = { summary: string; description?: string; errors?: string[] };

/**
 * The catalog facts of one route, spread into its options: `...route("getMember", "members",
 * "permission:member:read", { summary: "Get a member", description: "…", errors: ["404 `NOT_FOUND` …"] })`.
 * The OpenAPI document reads operationId, tag, auth, summary, description and errors from here (a
 * plain string is a summary).
 */
export function route(operationId: string, tag: string, auth: AuthRule, doc?: string | RouteDoc) {
  const { summary, description, errors } =
    typeof doc === "string" ? { summary: doc, description: undefined, errors: undefined } : (doc ?? {});
  return {
    auth,
    detail: {
      operationId,
      tags: [tag],
      ...(summary ? { summary } : {}),
      ...(description ? { description } : {}),
      ...(errors?.length ? { "x-error-codes": errors } : {}),
      "x-auth": auth,
      security: auth === "public" || auth === "signedUrl" ? [] : [{ bearer: [] }],
    },
  };
}
