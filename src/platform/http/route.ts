import type { AuthRule } from "../auth/context";

/** What the API reference shows of an operation: a one-line summary and a longer description. */
export type RouteDoc = { summary: string; description?: string };

/**
 * The catalog facts of one route, spread into its options: `...route("getMember", "members",
 * "permission:member:read", { summary: "Get a member", description: "…" })`. The OpenAPI document
 * reads operationId, tag, auth, summary and description from here (a plain string is a summary).
 */
export function route(operationId: string, tag: string, auth: AuthRule, doc?: string | RouteDoc) {
  const { summary, description } = typeof doc === "string" ? { summary: doc, description: undefined } : (doc ?? {});
  return {
    auth,
    detail: {
      operationId,
      tags: [tag],
      ...(summary ? { summary } : {}),
      ...(description ? { description } : {}),
      "x-auth": auth,
      security: auth === "public" || auth === "signedUrl" ? [] : [{ bearer: [] }],
    },
  };
}
