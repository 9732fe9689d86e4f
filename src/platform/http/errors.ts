import { Type } from "@sinclair/typebox";
import { t } from "elysia";

export type FieldError = { in: "body" | "query" | "path"; field: string; message: string };

/** An error that becomes an application/problem+json response (RFC 9457, docs/rules/errors.md#problem-body). */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const invalid = (field: string, message: string, where: FieldError["in"] = "body") =>
  new Problem(400, "VALIDATION_FAILED", "The request is not valid.", [{ in: where, field, message }]);
export const invalidMany = (errors: FieldError[]) => new Problem(400, "VALIDATION_FAILED", "The request is not valid.", errors);
export const badRequest = (code: string, message: string, errors?: FieldError[]) => new Problem(400, code, message, errors);
export const unauthenticated = (code = "UNAUTHENTICATED", message = "Authentication is required.") => new Problem(401, code, message);
export const forbidden = (code = "FORBIDDEN", message = "You may not do this.") => new Problem(403, code, message);
export const notFound = (message = "Not found.") => new Problem(404, "NOT_FOUND", message);
export const conflict = (code: string, message: string) => new Problem(409, code, message);
export const tooMany = (code: string, message: string, retryAfterSeconds: number) =>
  new Problem(429, code, message, undefined, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const providerUnavailable = () =>
  new Problem(503, "PROVIDER_UNAVAILABLE", "The sign-in provider cannot be reached; try again later.");
export const serverBusy = (retryAfterSeconds: number) =>
  new Problem(503, "SERVER_BUSY", "The server is busy signing other people in; try again shortly.", undefined, {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const invalidJsonProblem = () => new Problem(400, "INVALID_JSON", "The request body is not valid JSON.");
export const unsupportedMediaType = () =>
  new Problem(415, "UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON (Content-Type: application/json).");
export const payloadTooLarge = () => new Problem(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 4 MiB.");

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  421: "Misdirected Request",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function problemBody(status: number, code: string, message: string, errors?: FieldError[], instance?: string) {
  return {
    type: "about:blank",
    title: titles[status] ?? "Error",
    status,
    detail: message,
    code,
    message,
    ...(errors ? { errors } : {}),
    ...(instance ? { instance } : {}),
  };
}

export function problemResponse(p: Problem, requestId: string): Response {
  return new Response(JSON.stringify(problemBody(p.status, p.code, p.message, p.errors)), {
    status: p.status,
    headers: { "content-type": "application/problem+json", "x-request-id": requestId, ...p.headers },
  });
}

/** The error body as an OpenAPI schema, for every route's error responses. */
export const ProblemSchema = t.Object(
  {
    type: t.String(),
    title: t.String(),
    status: Type.Integer(),
    detail: t.String(),
    code: t.String(),
    message: t.String(),
    errors: t.Optional(
      t.Array(
        t.Object({ in: t.Union([t.Literal("body"), t.Literal("query"), t.Literal("path")]), field: t.String(), message: t.String() }),
      ),
    ),
    instance: t.Optional(t.String()),
  },
  { $id: "#/components/schemas/Problem", title: "Problem" },
);
