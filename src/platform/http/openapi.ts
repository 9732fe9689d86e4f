import type { AnyElysia } from "elysia";
import { ProblemSchema } from "./errors";

type JsonObject = Record<string, unknown>;

/**
 * Plain JSON Schema out of a TypeBox schema: symbols gone, TypeBox-only keys dropped. So is the
 * `additionalProperties: false` that compiling a route writes into its (shared) schemas on first
 * use: unknown fields are stripped, not refused, and the document must not depend on request order.
 */
function clean(schema: unknown): JsonObject | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const drop = (k: string, v: unknown) => (k === "error" && typeof v === "string") || (k === "additionalProperties" && v === false);
  return JSON.parse(JSON.stringify(schema, (k, v) => (drop(k, v) ? undefined : v))) as JsonObject;
}

const ERROR_STATUSES: Record<string, string> = {
  "400": "Invalid input (VALIDATION_FAILED, INVALID_JSON, …)",
  "401": "Missing, invalid or expired credentials",
  "403": "Not allowed",
  "404": "Not found or not visible",
  "409": "Conflicts with the current state",
  "413": "Body larger than 4 MiB",
  "415": "The body is not JSON (UNSUPPORTED_MEDIA_TYPE); only the SAML ACS takes a form",
  "429": "Too many requests",
  "500": "Internal error",
  "503": "Busy (SERVER_BUSY: the password-hashing queue is full); retry after Retry-After",
};

/** Builds the OpenAPI 3.1 document from the routes: the same TypeBox schemas that validate. */
export function buildOpenApi(app: AnyElysia, info: { title: string; version: string; serverUrl: string }): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const r of app.routes) {
    const hooks = (r.hooks ?? {}) as JsonObject;
    const detail = hooks.detail as JsonObject | undefined;
    if (!detail?.operationId || detail.hide) continue;
    const path = r.path.replace(/:(\w+)/g, "{$1}");
    const op: JsonObject = { ...detail };
    const parameters: JsonObject[] = [];
    const params = clean(hooks.params);
    for (const [name, s] of Object.entries((params?.properties as JsonObject) ?? {})) {
      parameters.push({ name, in: "path", required: true, schema: s });
    }
    const query = clean(hooks.query);
    const required = new Set((query?.required as string[]) ?? []);
    for (const [name, s] of Object.entries((query?.properties as JsonObject) ?? {})) {
      const schema = s as JsonObject;
      parameters.push({
        name,
        in: "query",
        required: required.has(name),
        schema,
        ...(schema.type === "array" ? { style: "form", explode: true } : {}),
      });
    }
    if (parameters.length) op.parameters = parameters;
    const body = clean(hooks.body);
    if (body) {
      const media = (detail["x-body-media"] as string | undefined) ?? "application/json";
      op.requestBody = { required: true, content: { [media]: { schema: body } } };
      delete op["x-body-media"];
    }
    const responses: JsonObject = {};
    const response = hooks.response as JsonObject | undefined;
    const byStatus: JsonObject =
      response && (response as { type?: string }).type === undefined && !("anyOf" in response) ? response : { 200: response };
    for (const [status, s] of Object.entries(byStatus)) {
      if (!s) continue;
      const schema = clean(s);
      responses[status] =
        status === "204" || !schema
          ? { description: "No content" }
          : {
              description: "Success",
              content: {
                [(detail["x-response-media"] as string) ?? "application/json"]: { schema },
                // other media types the route answers with, chosen by Accept (e.g. the gradebook's text/csv)
                ...(status === "200" ? (detail["x-response-also"] as JsonObject | undefined) : undefined),
              },
            };
    }
    delete op["x-response-media"];
    delete op["x-response-also"];
    if (Object.keys(responses).length === 0) responses["200"] = { description: "Success" };
    // A route may name further problem statuses it answers (`x-errors`, e.g. 503).
    const extraErrors = (detail["x-errors"] as Record<string, string> | undefined) ?? {};
    delete op["x-errors"];
    for (const [status, description] of Object.entries({ ...ERROR_STATUSES, ...extraErrors })) {
      responses[status] ??= {
        description,
        content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
      };
    }
    op.responses = responses;
    paths[path] ??= {};
    (paths[path] as JsonObject)[r.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: info.version,
      description:
        "learnspace API v1. Send `Authorization: Bearer <accessToken>` on every non-public operation. Errors are application/problem+json.",
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Problem: clean(ProblemSchema) },
    },
  };
}
