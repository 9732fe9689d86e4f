import type { AuthRule } from "../auth/context";

/**
 * The prefix of every API module's routes. Each module's Elysia instance carries it itself and is used
 * by the root directly: an intermediate `/api/v1` instance would add every route once more at start
 * (docs/rules/performance.md#start).
 */
export const API_PREFIX = "/api/v1";

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
