import type { AnyElysia } from "elysia";
import { ProblemSchema } from "./errors";
import recorded from "./openapi-examples.json" with { type: "json" };

/** Per operation: a request body and a body per response status, recorded from the tests (docs/rules/api-reference.md#examples). */
type Recorded = Record<string, { request?: unknown; responses?: Record<string, unknown> }>;
const EXAMPLES = recorded as Recorded;

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

const API_DESCRIPTION = [
  "learnspace API v1: one tenant's members, spaces, library and learning activities.",
  "",
  "- **Authentication**: send `Authorization: Bearer <accessToken>` (from a sign-in) on every operation except the public ones (`security: []`).",
  "- **Errors** are `application/problem+json` with a stable `code` to branch on; a 400 `VALIDATION_FAILED` lists each bad field in `errors[]`.",
  "- **Check order**: 401, then 403 for a missing tenant permission, then 400, then 404 (a record you cannot see is 404, never 403), then 403 for a space or content role, then 409 and 429.",
  "- **Lists** page with `cursor` and `limit` (1..100, default 30) and answer `nextCursor`, or with `page` and `pageSize`.",
  "- Each operation's description says who may call it and which error codes it answers.",
].join("\n");

/** Who may call an operation, from its auth rule (docs/rules/api-reference.md#operations). */
function whoMayCall(auth: string, path: string): string {
  if (auth === "public") return "Public: no access token.";
  if (auth === "signedUrl") return "The holder of the signed URL: its `token` query parameter is the authorization (no access token).";
  if (auth === "session") return "Any signed-in member of the tenant.";
  if (auth.startsWith("permission:")) return `Members holding the \`${auth.slice(11)}\` permission (by role or grant).`;
  if (auth === "spaceMember") return "Members enrolled in the space (ADMIN or PARTICIPANT).";
  if (auth === "spaceAdmin" && path.includes("/challenges/")) return "ADMINs of the space and the challenge's author.";
  if (auth === "spaceAdmin" && path.startsWith("/api/v1/posts"))
    return "ADMINs of the space; the author too, for a participant's post while the space's community menu is on.";
  if (auth === "spaceAdmin") return "ADMINs of the space (its owner included).";
  if (auth === "contentManager") return "The content's managers: its author and the ADMINs of the space that holds it.";
  if (auth === "contentViewer") return "Anyone who can see the content (its participants and its managers).";
  return `\`${auth}\``;
}

/** The errors every operation of its kind answers: bad input, credentials, and its auth rule's 403 and 404. */
function commonErrors(auth: string, path: string, inputs: { body: boolean; json: boolean; params: boolean }): string[] {
  const errors: string[] = [];
  if (inputs.body || inputs.params) errors.push("400 `VALIDATION_FAILED` when a field is missing or out of bounds, named in `errors[]`");
  if (inputs.json) errors.push("400 `INVALID_JSON` for a body that is not JSON");
  if (auth === "signedUrl") errors.push("401 `UNAUTHENTICATED` when `token` is missing, bad or expired");
  else if (auth !== "public") errors.push("401 `UNAUTHENTICATED` without a valid access token");
  if (auth.startsWith("permission:")) errors.push(`403 \`FORBIDDEN\` without \`${auth.slice(11)}\``);
  if ((auth === "spaceMember" || auth === "spaceAdmin") && /\{(spaceId|postId)\}/.test(path)) {
    const record = path.includes("{postId}") ? "post" : "space";
    errors.push(`403 \`FORBIDDEN\` when the caller can see the ${record} but is not ${auth === "spaceMember" ? "enrolled" : "its ADMIN"}`);
    errors.push(`404 \`NOT_FOUND\` for an unknown ${record} (or record in the path) or one the caller cannot see`);
  }
  if (auth === "contentManager") errors.push("403 `FORBIDDEN` when the caller can see the content but does not manage it");
  if (auth === "contentManager" || auth === "contentViewer")
    errors.push("404 `NOT_FOUND` for an unknown content, one the caller cannot see, or one of another type");
  return errors;
}

/** The description the reference shows: the route's own text, who may call it, and every error code it answers. */
function describe(detail: JsonObject, path: string, inputs: { body: boolean; json: boolean; params: boolean }): string | undefined {
  const auth = detail["x-auth"] as string | undefined;
  if (!detail.description || !auth) return detail.description as string | undefined;
  const errors = [...commonErrors(auth, path, inputs), ...((detail["x-error-codes"] as string[] | undefined) ?? [])];
  // stable: the common errors stay first within a status
  errors.sort((a, b) => Number(a.slice(0, 3)) - Number(b.slice(0, 3)));
  const list = errors.length ? `\n\n**Errors**:\n${errors.map((e) => `- ${e}`).join("\n")}` : "";
  return `${detail.description}\n\n**Who may call**: ${whoMayCall(auth, path)}${list}`;
}

/** Builds the OpenAPI 3.1 document from the routes: the same TypeBox schemas that validate. */
export function buildOpenApi(app: AnyElysia, info: { title: string; version: string }): JsonObject {
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
    const examples = EXAMPLES[detail.operationId as string] ?? {};
    const example = (value: unknown) => (value === undefined ? {} : { example: value });
    const body = clean(hooks.body);
    if (body) {
      const media = (detail["x-body-media"] as string | undefined) ?? "application/json";
      op.requestBody = { required: true, content: { [media]: { schema: body, ...example(examples.request) } } };
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
          : schema.type === "void"
            ? // a redirect: no body, its meaning is in the schema's description (`t.Void({ description })`)
              { description: schema.description ?? "Redirect", headers: { Location: { schema: { type: "string" } } } }
            : {
                description: "Success",
                content: {
                  [(detail["x-response-media"] as string) ?? "application/json"]: { schema, ...example(examples.responses?.[status]) },
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
        content: {
          "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" }, ...example(examples.responses?.[status]) },
        },
      };
    }
    op.responses = responses;
    const media = (detail["x-body-media"] as string | undefined) ?? "application/json";
    const description = describe(detail, path, {
      body: !!body,
      json: !!body && media === "application/json",
      params: parameters.length > 0,
    });
    if (description) op.description = description;
    delete op["x-error-codes"];
    paths[path] ??= {};
    (paths[path] as JsonObject)[r.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: info.version,
      description: API_DESCRIPTION,
      // learnspace is not published under an open licence (package.json is private).
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    // The committed document names no host; the served one names the appliance's LEARNSPACE_PUBLIC_URL.
    servers: [
      {
        url: "https://{host}",
        description: "A learnspace appliance, at its public URL (LEARNSPACE_PUBLIC_URL)",
        variables: { host: { default: "learn.example.org", description: "The appliance's host name" } },
      },
    ],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Problem: clean(ProblemSchema) },
    },
  };
}
