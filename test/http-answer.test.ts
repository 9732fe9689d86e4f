import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { BunAdapter } from "elysia/adapter/bun";
import { frozen } from "../src/platform/db/sqlite";
import { answerAdapter } from "../src/platform/http/answer";
import { memoOfFrozen } from "../src/platform/http/clean";

const fixed = { "x-content-type-options": "nosniff", "cache-control": "no-store" };
const cachedAnswer = frozen({ a: 1, at: { startedAt: "2026-01-01T00:00:00.000Z" }, list: [1, "x", null] });

/** The same routes on Elysia's own adapter and on answerAdapter: every answer must be the same. */
function app(adapter?: ReturnType<typeof answerAdapter>) {
  return new Elysia(adapter ? { adapter } : {})
    .headers(fixed)
    .onRequest(({ set }) => {
      set.headers["x-request-id"] = "req-1";
    })
    .get("/object", () => ({ a: 1, nested: { b: [1, 2] } }), { response: { 200: Type.Object({ a: Type.Number(), nested: Type.Any() }) } })
    .get("/cleaned", () => ({ a: 1, secret: "x" }), { response: { 200: Type.Object({ a: Type.Number() }) } })
    .get("/array", () => [{ a: 1 }])
    .get("/frozen", () => cachedAnswer)
    .get("/created", ({ set }) => {
      set.status = 201;
      return { a: 1 };
    })
    .get("/own-type", ({ set }) => {
      set.headers["content-type"] = "application/problem+json";
      set.headers["cache-control"] = "max-age=60";
      return { a: 1 };
    })
    .get("/removed", ({ set }) => {
      delete set.headers["cache-control"];
      return { a: 1 };
    })
    .get("/number-header", ({ set }) => {
      (set.headers as Record<string, unknown>)["retry-after"] = 5;
      return { a: 1 };
    })
    .get("/cookie", ({ set }) => {
      set.headers["set-cookie"] = "s=1; HttpOnly";
      return { a: 1 };
    })
    .get("/text", () => "plain")
    .get("/response", () => new Response("own", { headers: { "x-own": "1" } }));
}

const paths = [
  "/object",
  "/cleaned",
  "/array",
  "/frozen",
  "/frozen",
  "/created",
  "/own-type",
  "/removed",
  "/number-header",
  "/cookie",
  "/text",
  "/response",
];

async function answer(a: ReturnType<typeof app>, path: string) {
  const res = await a.handle(new Request(`http://localhost${path}`));
  return { status: res.status, headers: res.headers.toJSON() as Record<string, string>, body: await res.text() };
}

describe("answerAdapter", () => {
  test("puts the request's id (requestIdOf) on a hook's early answer and on a route's, unless one is set", async () => {
    const ids = answerAdapter(fixed, () => "req-9");
    const a = new Elysia({ adapter: ids })
      .headers(fixed)
      .get("/early", () => ({ a: 1 }), {
        beforeHandle: ({ set }) => {
          set.status = 503;
          return { status: "not-ready" };
        },
      })
      .get("/late", () => ({ a: 1 }))
      .get("/own-id", ({ set }) => {
        set.headers["x-request-id"] = "req-1";
        return { a: 1 };
      });
    const early = await answer(a as never, "/early");
    expect(early.status).toBe(503);
    expect(early.headers["x-request-id"]).toBe("req-9");
    expect((await answer(a as never, "/late")).headers["x-request-id"]).toBe("req-9");
    expect((await answer(a as never, "/own-id")).headers["x-request-id"]).toBe("req-1");
  });

  test("answers every route as Elysia's own adapter does: status, headers and body", async () => {
    const own = app();
    const fast = app(answerAdapter(fixed));
    for (const path of paths) expect({ path, ...(await answer(fast, path)) }).toEqual({ path, ...(await answer(own, path)) });
  });

  test("a JSON answer keeps the fixed set, the request's own headers, and what the schema cleaned away stays away", async () => {
    const fast = app(answerAdapter(fixed));
    const res = await answer(fast, "/cleaned");
    expect(res.body).toBe('{"a":1}');
    expect(res.headers["content-type"]).toBe("application/json;charset=utf-8");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-request-id"]).toBe("req-1");
    expect((await answer(fast, "/removed")).headers["cache-control"]).toBeUndefined();
    expect((await answer(fast, "/own-type")).headers["cache-control"]).toBe("max-age=60");
  });

  test("only a 200 JSON object or array with the fixed set and string headers is answered without Elysia's mapping", async () => {
    const elysiaMap = BunAdapter.handler.mapResponse;
    const mapped: string[] = [];
    BunAdapter.handler.mapResponse = ((response: unknown, set: never, request?: Request) => {
      if (request) mapped.push(new URL(request.url).pathname);
      return elysiaMap(response, set, request);
    }) as typeof elysiaMap;
    try {
      const fast = app(answerAdapter(fixed));
      for (const path of paths) await answer(fast, path);
    } finally {
      BunAdapter.handler.mapResponse = elysiaMap;
    }
    expect(mapped).toEqual(["/created", "/removed", "/number-header", "/text", "/response"]);
  });
});

describe("memoOfFrozen", () => {
  test("a frozen value that passed is not checked again; other values are checked every time", () => {
    let calls = 0;
    const check = memoOfFrozen((v) => {
      calls++;
      return (v as { ok?: boolean }).ok === true;
    });
    const cached = frozen({ ok: true, at: { d: "2026-01-01T00:00:00.000Z" } });
    expect([check(cached), check(cached), check(cached)]).toEqual([true, true, true]);
    expect(calls).toBe(1);
    const plain = { ok: true };
    check(plain);
    check(plain);
    expect(calls).toBe(3);
    // Frozen by Object.freeze alone (its insides could change): checked every time.
    const shallow = Object.freeze({ ok: true, inner: { x: 1 } });
    check(shallow);
    check(shallow);
    expect(calls).toBe(5);
    // A frozen value that failed is checked again (and fails again).
    const bad = frozen({ ok: false });
    expect([check(bad), check(bad)]).toEqual([false, false]);
    expect(calls).toBe(7);
  });
});
