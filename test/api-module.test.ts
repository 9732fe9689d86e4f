// An API module's routes are recorded by the module and added once by the root (docs/rules/performance.md#start):
// the root ends with the routes, hooks and answers Elysia's own double add gives.
import { expect, test } from "bun:test";
import { type AnyElysia, Elysia, t } from "elysia";
import { API_PREFIX, apiModule } from "../src/platform/http/route";

/** A macro plugin like authPlugin: a named plugin of macros only. */
const macros = () =>
  new Elysia({ name: "test.macros" }).macro({
    who: (name: string) => ({ resolve: () => ({ who: name }) }),
    tagged: (tag: string) => ({
      beforeHandle: ({ set }) => {
        set.headers["x-tag"] = tag;
      },
    }),
  });

/** The same module built on either kind of instance: a macro plugin, an app-wide request hook, three routes. */
function items<M extends Elysia<typeof API_PREFIX>>(module: M, seen: string[]) {
  return module
    .use(macros())
    .onRequest(({ request }) => void seen.push(new URL(request.url).pathname))
    .get("/items/:id", ({ params, who }) => ({ id: params.id, who }), { who: "reader", params: t.Object({ id: t.String() }) })
    .post("items", ({ body, status }) => status(201, body), { tagged: "made", body: t.Object({ name: t.String({ minLength: 1 }) }) })
    .delete("/items/:id", () => ({ ok: true }), { detail: { operationId: "deleteItem" }, response: t.Object({ ok: t.Boolean() }) });
}

/** A root with its own global hook before the module, as src/app.ts has. */
const root = (module: AnyElysia) =>
  new Elysia({ name: "root", normalize: "typebox" })
    .onAfterHandle({ as: "global" }, ({ set }) => {
      set.headers["x-root"] = "1";
    })
    .use(macros())
    .use(module);

/** Each route's hooks with functions named by first appearance; `request` left out (Elysia runs the app's request hooks, never a route's). */
function shape(app: AnyElysia) {
  const ids = new Map<unknown, number>();
  const norm = (v: unknown): unknown => {
    if (typeof v === "function") return `fn${ids.get(v) ?? ids.set(v, ids.size).get(v)}`;
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).map((k) => [k, norm((v as Record<string, unknown>)[k])]));
    return v;
  };
  return app.router.history.map(({ method, path, handler, hooks }) => {
    const { request: _request, ...rest } = hooks as Record<string, unknown>;
    return { method, path, handler: norm(handler), hooks: norm(rest) };
  });
}

async function answers(app: AnyElysia) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers: body ? { "content-type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      }),
    );
    return { status: res.status, tag: res.headers.get("x-tag"), root: res.headers.get("x-root"), body: await res.text() };
  };
  return [
    await call("GET", "/api/v1/items/a1"),
    await call("POST", "/api/v1/items", { name: "pen", extra: 1 }),
    await call("POST", "/api/v1/items", { name: "" }),
    await call("DELETE", "/api/v1/items/a1"),
    await call("GET", "/items/a1"),
  ];
}

test("a module's routes are recorded, not added, and its root adds them as Elysia's double add does", async () => {
  const seenPlain: string[] = [];
  const seenOnce: string[] = [];
  const plainModule = items(new Elysia({ name: "module.items", prefix: API_PREFIX }), seenPlain);
  const onceModule = items(apiModule("module.items"), seenOnce);
  // The module's history holds the routes with their prefix; it has added none of them (below: it answers none itself).
  expect(onceModule.router.history.map((r) => `${r.method} ${r.path}`)).toEqual([
    "GET /api/v1/items/:id",
    "POST /api/v1/items",
    "DELETE /api/v1/items/:id",
  ]);

  const plain = root(plainModule);
  const once = root(onceModule);
  expect(shape(once)).toEqual(shape(plain));
  const expected = await answers(plain);
  expect(expected.map((a) => a.status)).toEqual([200, 201, 422, 200, 404]);
  expect(expected[0]?.body).toBe('{"id":"a1","who":"reader"}');
  expect(expected[1]).toMatchObject({ tag: "made", root: "1", body: '{"name":"pen"}' });
  expect(await answers(once)).toEqual(expected);
  // The module's request hook runs for every request of the app, as before.
  expect(seenOnce).toEqual(seenPlain);
  expect(seenOnce).toHaveLength(5);
  // Compared before any request: a composed route caches what it learnt of a hook on the hook itself.
  expect((await plainModule.handle(new Request("http://localhost/api/v1/items/a1"))).status).toBe(200);
  expect((await onceModule.handle(new Request("http://localhost/api/v1/items/a1"))).status).toBe(404);
});

test("a module with a guard of its own adds its routes the usual way", async () => {
  const guarded = apiModule("module.guarded")
    .guard({ headers: t.Object({ "x-key": t.String() }) })
    .get("/guarded", () => "ok");
  expect(guarded.router.history.map((r) => r.path)).toEqual(["/api/v1/guarded"]);
  const ask = (headers: Record<string, string>) => guarded.handle(new Request("http://localhost/api/v1/guarded", { headers }));
  expect((await ask({ "x-key": "k" })).status).toBe(200);
  expect((await ask({})).status).toBe(422);
});
