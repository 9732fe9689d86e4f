import type { AuthRule } from "../auth/context";

/**
 * The catalog facts of one route, spread into its options: `...route("getMember", "members",
 * "permission:member:read")`. The OpenAPI document reads operationId, tag and auth from here.
 */
export function route(operationId: string, tag: string, auth: AuthRule, summary?: string) {
  return {
    auth,
    detail: {
      operationId,
      tags: [tag],
      ...(summary ? { summary } : {}),
      "x-auth": auth,
      security: auth === "public" || auth === "signedUrl" ? [] : [{ bearer: [] }],
    },
  };
}
