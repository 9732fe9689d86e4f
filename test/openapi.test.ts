import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { exampleValidator } from "../scripts/example-validator";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

type CatalogOp = { id: string; area: string; method: string; path: string; auth: string };
const catalogPath = join(import.meta.dir, "..", "..", "shared", "api", "operations.json");
const catalog: CatalogOp[] = existsSync(catalogPath) ? JSON.parse(readFileSync(catalogPath, "utf8")) : [];

const s = useServer();

async function documentOps() {
  const doc = (await s.call("GET", "/openapi.json")).body;
  const ops = new Map<string, { method: string; path: string; op: any }>();
  let count = 0;
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      ops.set(op.operationId, { method: method.toUpperCase(), path, op });
      count++;
    }
  }
  expect(ops.size).toBe(count); // operationIds are unique
  return { doc, ops };
}

const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name) => (name === "code" ? "member:read" : `unknown-${name}`));

describe("GET /openapi.json", () => {
  test("is the same whatever was requested before it (built once, before any route compiles)", async () => {
    await s.call("GET", "/healthz");
    await s.anon("POST", "/auth/sign-up", {});
    await s.anon("POST", "/auth/sign-in", { email: "x@example.com", password: "nope-nope" });
    const served = (await s.call("GET", "/openapi.json")).body;
    const committed = JSON.parse(readFileSync(join(import.meta.dir, "..", "openapi.json"), "utf8"));
    expect({ ...served, servers: committed.servers }).toEqual(committed);
  });

  test("is OpenAPI 3.1 with bearer security and the problem schema", async () => {
    const { doc } = await documentOps();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Problem.properties.code).toBeTruthy();
  });

  test("every /api/v1 route is documented with a unique operationId, a tag and error responses", async () => {
    const { ops } = await documentOps();
    // A hidden route is a hosted page that belongs to a documented operation (the unsubscribe confirm page).
    const routes = s.server.app.routes.filter((r) => r.path.startsWith("/api/v1") && !(r.hooks?.detail as { hide?: boolean })?.hide);
    const documented = new Set([...ops.values()].map((o) => `${o.method} ${o.path}`));
    for (const r of routes) expect(documented.has(`${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`)).toBe(true);
    for (const { op } of ops.values()) {
      expect(op.tags?.length).toBe(1);
      expect(op.responses["400"]).toBeTruthy();
    }
  });

  // An optional cross-check against the operation catalog the API was specified from, read when CI puts a copy
  // beside the checkout; without it these are skipped, not passed.
  test.skipIf(catalog.length === 0)("every documented operation matches the catalog's method, path and auth", async () => {
    const { ops } = await documentOps();
    const byId = new Map(catalog.map((c) => [c.id, c]));
    for (const [id, o] of ops) {
      if (id === "healthz" || id === "readyz") continue;
      const c = byId.get(id);
      expect(c ? `${id} ${c.method} ${c.path} ${c.auth}` : `${id} not in catalog`).toBe(`${id} ${o.method} ${o.path} ${o.op["x-auth"]}`);
    }
  });

  test("request bodies and responses declare integers as JSON numbers, never as numeric strings", async () => {
    const { ops } = await documentOps();
    const offenders: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (typeof node !== "object" || node === null) return;
      const o = node as Record<string, unknown>;
      if (o.type === "string" && (o.format === "integer" || o.format === "numeric")) offenders.push(where);
      for (const [k, v] of Object.entries(o)) walk(v, `${where}.${k}`);
    };
    for (const [id, { op }] of ops) {
      walk(op.requestBody, `${id} body`);
      walk(op.responses, `${id} responses`);
    }
    expect(offenders).toEqual([]);
  });

  test("GET /docs serves the interactive reference with its own assets", async () => {
    const page = await fetch(`${s.url}/docs`);
    expect(page.headers.get("content-type")).toStartWith("text/html");
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of html.match(/\/docs\/assets\/[\w.-]+/g) ?? []) expect((await fetch(`${s.url}${asset}`)).status).toBe(200);
  });
});

// What a reader of /docs needs of every operation (docs/rules/api-reference.md).
describe("the API reference", () => {
  test("every operation has a one-line summary and a description", async () => {
    const { ops } = await documentOps();
    const offenders: string[] = [];
    for (const [id, { op }] of ops) {
      const summary = op.summary as string | undefined;
      if (!summary?.trim()) offenders.push(`${id}: no summary`);
      else if (summary.includes("\n") || summary.length > 80 || summary.endsWith("."))
        offenders.push(`${id}: summary is not one line: ${summary}`);
      if (!(op.description as string | undefined)?.trim()) offenders.push(`${id}: no description`);
    }
    expect(offenders).toEqual([]);
  });

  test("every error an operation lists starts with its status and code", async () => {
    const { ops } = await documentOps();
    const offenders: string[] = [];
    for (const [id, { op }] of ops) {
      const list = (op.description as string | undefined)?.split("**Errors**:\n")[1];
      for (const line of list?.split("\n") ?? []) if (!/^- [45]\d\d `[A-Z_]+`/.test(line)) offenders.push(`${id}: ${line}`);
    }
    expect(offenders).toEqual([]);
  });

  test("every JSON body and every JSON 2xx answer has an example, and every example fits its schema", async () => {
    const { doc, ops } = await documentOps();
    const valid = exampleValidator(doc);
    const missing: string[] = [];
    const unfit: string[] = [];
    for (const [id, { op }] of ops) {
      const media: [string, any][] = [];
      for (const [type, m] of Object.entries<any>(op.requestBody?.content ?? {})) media.push([`${id} request ${type}`, m]);
      for (const [status, r] of Object.entries<any>(op.responses))
        for (const [type, m] of Object.entries<any>(r.content ?? {})) media.push([`${id} ${status} ${type}`, m]);
      for (const [where, m] of media) {
        const needed = where.endsWith("application/json") && !/ [345]\d\d /.test(where);
        if (m.example === undefined) {
          if (needed) missing.push(where);
        } else if (!valid(m.schema, m.example)) unfit.push(where);
      }
    }
    // Missing or unfit: record them from their tests (docs/rules/api-reference.md#examples).
    expect(missing).toEqual([]);
    expect(unfit).toEqual([]);
  });

  test("GET /readyz answers ready once the platform file is migrated (its example comes from here)", async () => {
    expect((await s.call("GET", "/readyz")).body).toEqual({ status: "ready" });
  });
});

describe.skipIf(catalog.length === 0)("access rules of the catalog", () => {
  test("every implemented non-public operation answers 401 without a token", async () => {
    const { ops } = await documentOps();
    for (const c of catalog) {
      if (!ops.has(c.id) || c.auth === "public" || c.auth === "signedUrl") continue;
      const res = await s.call(c.method, fill(c.path), c.method === "GET" || c.method === "DELETE" ? {} : { json: {} });
      expect(`${c.id} ${res.status}`).toBe(`${c.id} 401`);
    }
  });

  test("every implemented permission:* operation answers 403 to a member without that permission", async () => {
    const { ops } = await documentOps();
    const tenant = await createTenantFixture(s.server);
    const member = await createMemberFixture(s.server, tenant);
    let checked = 0;
    for (const c of catalog) {
      if (!ops.has(c.id) || !c.auth.startsWith("permission:")) continue;
      const res = await s.call(c.method, fill(c.path), {
        token: member.token,
        ...(c.method === "GET" || c.method === "DELETE" ? {} : { json: {} }),
      });
      expect(`${c.id} ${res.status} ${res.body?.code}`).toBe(`${c.id} 403 FORBIDDEN`);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  test("the tenant owner holds every permission: no permission:* operation answers 403", async () => {
    const { ops } = await documentOps();
    const tenant = await createTenantFixture(s.server);
    for (const c of catalog) {
      if (!ops.has(c.id) || !c.auth.startsWith("permission:")) continue;
      const res = await s.call(c.method, fill(c.path), {
        token: tenant.token,
        ...(c.method === "GET" || c.method === "DELETE" ? {} : { json: {} }),
      });
      expect(`${c.id} ${res.status}`).not.toBe(`${c.id} 403`);
    }
    expectProblem(await s.call("GET", "/api/v1/tenant", { token: "x" }), 401, "UNAUTHENTICATED");
  });
});
