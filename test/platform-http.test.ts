import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia, t } from "elysia";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { authPlugin } from "../src/platform/auth/context";
import { httpPlugin } from "../src/platform/http/plugin";
import { route } from "../src/platform/http/route";
import { DateTimeInput, DisplayName, Email, Enum, Nullable, PageQuery, Password } from "../src/platform/http/schemas";
import { createRuntime, type Runtime } from "../src/platform/runtime";
import { eventually } from "./helpers/server";

// The platform's HTTP behaviour (errors, limits, request ids) on a probe module built with the same
// plugins as the real app, so that each rule is tested once, apart from any domain module.
let rt: Runtime;
let app: Elysia<any, any, any, any, any, any, any>;
let base = "";
const dataDir = mkdtempSync(join(tmpdir(), "learnspace-http-"));

beforeAll(() => {
  rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true }), resolveMember);
  const probe = new Elysia()
    .use(authPlugin(rt))
    .post("/probe", ({ body }) => ({ ok: true, tasks: body.tasks?.length ?? 0 }), {
      ...route("probe", "probe", "public"),
      body: t.Object({
        email: Email,
        password: t.Optional(Password),
        displayName: t.Optional(DisplayName),
        tasks: t.Optional(t.Array(t.Object({ title: t.String({ minLength: 1, maxLength: 30 }) }))),
      }),
    })
    .get("/paged", ({ query }) => query, {
      ...route("paged", "probe", "public"),
      query: t.Object({ ...PageQuery, kinds: t.Optional(t.Array(Enum(["a", "b"]), { minItems: 1, maxItems: 2 })) }),
    })
    .get("/needs", ({ query }) => query, { ...route("needs", "probe", "public"), query: t.Object({ spaceId: t.String({ minLength: 1 }) }) })
    .post("/lists", ({ body }) => body, {
      ...route("lists", "probe", "public"),
      body: t.Object({
        options: t.Optional(Nullable(t.Array(t.Object({ label: t.String({ minLength: 1 }) })))),
        limit: t.Optional(Nullable(t.Integer({ minimum: 1, error: "must be an integer >= 1 or null" }))),
        kind: t.Optional(Nullable(Enum(["a", "b"]))),
      }),
    })
    .get("/redirect", () => new Response(null, { status: 302, headers: { location: "/elsewhere" } }), route("redirect", "probe", "public"))
    .post("/guarded", () => ({ ok: true }), { ...route("guarded", "probe", "session"), body: t.Object({ a: t.String() }) })
    .post("/optional", ({ body }) => body, {
      ...route("optional", "probe", "public"),
      body: t.Object({ note: t.Optional(t.String()), at: t.Optional(DateTimeInput) }),
    })
    .get(
      "/boom",
      () => {
        throw new Error("secret stack detail");
      },
      route("boom", "probe", "public"),
    )
    .get(
      "/boom-twice",
      () => {
        // An error that fails again while it is being mapped to a problem.
        throw Object.defineProperty(new Error("first"), "cause", {
          get() {
            throw new RangeError("second");
          },
        });
      },
      route("boomTwice", "probe", "public"),
    );
  app = new Elysia({ normalize: "typebox" })
    .use(httpPlugin(rt, () => app.routes))
    .use(new Elysia({ prefix: "/api/v1" }).use(probe))
    .listen({ port: 0, reusePort: false, maxRequestBodySize: 2 ** 31 });
  base = `http://localhost:${app.server?.port}/api/v1`;
});

afterAll(async () => {
  await app.stop(true);
  rt.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: any | null, headers: Record<string, string> = { "content-type": "application/json" }) =>
  fetch(`${base}${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit);

async function problem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toStartWith("application/problem+json");
  expect(res.headers.get("x-request-id")).toBeTruthy();
  const body: any = await res.json();
  expect(body).toMatchObject({ type: "about:blank", status, code });
  expect(body.message).toBe(body.detail);
  return body;
}

describe("validation errors", () => {
  test("answers 400 VALIDATION_FAILED naming each field with its path, without echoing values", async () => {
    const res = await post("/probe", JSON.stringify({ email: "..bad@@x", password: "onlyletters", tasks: [{ title: "" }] }));
    const body = await problem(res, 400, "VALIDATION_FAILED");
    const fields = body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(["email", "password", "tasks[0].title"]);
    expect(body.errors.every((e: { in: string }) => e.in === "body")).toBe(true);
    expect(JSON.stringify(body)).not.toContain("onlyletters");
    expect(JSON.stringify(body)).not.toContain("..bad@@x");
  });

  test("a missing required field is named as required", async () => {
    const body = await problem(await post("/probe", "{}"), 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([{ in: "body", field: "email", message: "is required" }]);
  });

  test("e-mail rule 6: leading dot, double dot and over 255 characters are refused; a plain address passes", async () => {
    for (const email of [".a@example.com", "a..b@example.com", `${"a".repeat(250)}@example.com`]) {
      await problem(await post("/probe", JSON.stringify({ email })), 400, "VALIDATION_FAILED");
    }
    expect((await post("/probe", JSON.stringify({ email: "Kim.Minji+1@example.co.kr" }))).status).toBe(200);
  });

  test("password rule 8: two kinds of characters, allowed punctuation only, 8..255", async () => {
    for (const password of ["short1!", "allletters", "12345678", "abc 12345", `a1${"x".repeat(254)}`]) {
      await problem(await post("/probe", JSON.stringify({ email: "a@b.co", password })), 400, "VALIDATION_FAILED");
    }
    for (const password of ["abcdefg1", "abcdefg!", "12345678!", 'Pa"ss<w>or{d}']) {
      expect((await post("/probe", JSON.stringify({ email: "a@b.co", password }))).status).toBe(200);
    }
  });

  test("display-name rule 9: letters of any script, digits, spaces and _-[](){}/* only", async () => {
    expect((await post("/probe", JSON.stringify({ email: "a@b.co", displayName: "김민지 (3-1) [A]/*_" }))).status).toBe(200);
    for (const displayName of ["", "bad!", "semi;colon", "a".repeat(256)]) {
      await problem(await post("/probe", JSON.stringify({ email: "a@b.co", displayName })), 400, "VALIDATION_FAILED");
    }
  });
});

describe("query parameters", () => {
  test("page and pageSize out of range are 400 naming the parameter; there is no clamping", async () => {
    for (const [q, field] of [
      ["page=0", "page"],
      ["pageSize=101", "pageSize"],
      ["pageSize=0", "pageSize"],
      ["page=abc", "page"],
      ["page=1.5", "page"],
    ]) {
      const res = await fetch(`${base}/paged?${q}`);
      const body = await problem(res, 400, "VALIDATION_FAILED");
      expect(body.errors[0]).toMatchObject({ in: "query", field });
    }
    expect(await (await fetch(`${base}/paged?page=3&pageSize=100`)).json()).toEqual({ page: 3, pageSize: 100 });
  });

  test("a repeated-key array names the bad item or the bad count", async () => {
    for (const [q, field] of [
      ["kinds=x", "kinds[0]"],
      ["kinds=a&kinds=zz", "kinds[1]"],
      ["kinds=a&kinds=b&kinds=a", "kinds"],
    ]) {
      const body = await problem(await fetch(`${base}/paged?${q}`), 400, "VALIDATION_FAILED");
      expect(body.errors[0]).toMatchObject({ in: "query", field });
    }
    expect(await (await fetch(`${base}/paged?kinds=a&kinds=b`)).json()).toEqual({ page: 1, pageSize: 20, kinds: ["a", "b"] });
  });
});

describe("required query parameters and nested lists", () => {
  test("a missing required query parameter is 400 naming it", async () => {
    const body = await problem(await fetch(`${base}/needs`), 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([{ in: "query", field: "spaceId", message: "is required" }]);
  });

  test("an item error inside a nullable list names the item's field", async () => {
    const body = await problem(
      await post("/lists", JSON.stringify({ options: [{ label: "a" }, { label: "" }] })),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors[0].field).toBe("options[1].label");
    expect((await post("/lists", JSON.stringify({ options: null }))).status).toBe(200);
  });

  test("a bound inside Nullable(...) reports the declared error text", async () => {
    for (const limit of [0, 1.5, "x"]) {
      const body = await problem(await post("/lists", JSON.stringify({ limit })), 400, "VALIDATION_FAILED");
      expect(body.errors).toEqual([{ in: "body", field: "limit", message: "must be an integer >= 1 or null" }]);
    }
    const kind = await problem(await post("/lists", JSON.stringify({ kind: "c" })), 400, "VALIDATION_FAILED");
    expect(kind.errors).toEqual([{ in: "body", field: "kind", message: "must be one of: a, b" }]);
    expect((await post("/lists", JSON.stringify({ limit: null, kind: null }))).status).toBe(200);
  });
});

describe("bodies", () => {
  test("malformed JSON is 400 INVALID_JSON", async () => {
    await problem(await post("/probe", "{not json"), 400, "INVALID_JSON");
  });

  test("a body over 4 MiB is 413 PAYLOAD_TOO_LARGE, by Content-Length", async () => {
    await problem(await post("/probe", JSON.stringify({ email: "x".repeat(4 * 1024 * 1024 + 10) })), 413, "PAYLOAD_TOO_LARGE");
  });

  test("a chunked body over 4 MiB is 413 PAYLOAD_TOO_LARGE, by counting", async () => {
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(chunk);
        c.close();
      },
    });
    await problem(await post("/probe", stream as unknown as any), 413, "PAYLOAD_TOO_LARGE");
  });

  test("a JSON body must be an object, even where every field is optional", async () => {
    for (const raw of ['"x"', "[1,2]", "3", "true", "null"]) {
      const body = await problem(await post("/optional", raw), 400, "VALIDATION_FAILED");
      expect(body.errors).toEqual([{ in: "body", field: "body", message: "must be a JSON object" }]);
    }
    expect((await post("/optional", "{}")).status).toBe(200);
  });

  test("text that is not well-formed Unicode (a lone surrogate) is refused, naming the field", async () => {
    const body = await problem(await post("/optional", '{"note":"ok \\ud800 and \\ud800x"}'), 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([{ in: "body", field: "note", message: "is not well-formed Unicode text" }]);
    const ok = await post("/optional", JSON.stringify({ note: "emoji 🔥 and 한글" }));
    expect(((await ok.json()) as { note: string }).note).toBe("emoji 🔥 and 한글");
  });

  test("unknown fields named like Object.prototype members are dropped like any other unknown field", async () => {
    const sent = '{"note":"x","constructor":{"a":1},"toString":"y","__proto__":{"z":1},"hasOwnProperty":2}';
    expect(await (await post("/optional", sent)).json()).toEqual({ note: "x" });
  });

  test("a body nested thousands of levels deep is refused with a 400, and the server keeps answering", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const body = await problem(await post("/probe", `{"email":"a@example.com","tasks":${deep}}`), 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([{ in: "body", field: "body", message: "is nested deeper than 32 levels" }]);
    expect((await post("/probe", JSON.stringify({ email: "a@example.com", tasks: [{ title: "x" }] }))).status).toBe(200);
  });

  test("a date-time must name a real instant", async () => {
    for (const at of ["2025-02-30T00:00:00Z", "2025-13-01T00:00:00Z", "0000-01-01T00:00:00Z", "2025-01-01T24:00:00Z", "2025-01-01"]) {
      const body = await problem(await post("/optional", JSON.stringify({ at })), 400, "VALIDATION_FAILED");
      expect(body.errors[0].field).toBe("at");
    }
    for (const at of ["2024-02-29T12:00:00Z", "2025-06-30T23:59:59.999+09:00"])
      expect((await post("/optional", JSON.stringify({ at }))).status).toBe(200);
  });

  test("a body of any other type is held to the same 4 MiB and then refused as 415 (docs/rules/trust.md#json-bodies-only)", async () => {
    const big = "x".repeat(4 * 1024 * 1024 + 1);
    await problem(await post("/probe", big, { "content-type": "text/plain" }), 413, "PAYLOAD_TOO_LARGE");
    await problem(await post("/probe", big, { "content-type": "application/octet-stream" }), 413, "PAYLOAD_TOO_LARGE");
    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(1024 * 1024));
        c.close();
      },
    });
    await problem(await post("/probe", chunked, { "content-type": "text/plain" }), 413, "PAYLOAD_TOO_LARGE");
    await problem(await post("/guarded", big, { "content-type": "text/plain" }), 413, "PAYLOAD_TOO_LARGE");
    await problem(await post("/probe", "hello", { "content-type": "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  test("a body just under 4 MiB is read", async () => {
    const tasks = Array.from({ length: 80_000 }, () => ({ title: "t".repeat(30) }));
    const res = await post("/probe", JSON.stringify({ email: "a@b.co", tasks }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).tasks).toBe(80_000);
  });
});

describe("errors and request ids", () => {
  test("authentication is checked before validation (401 before 400)", async () => {
    await problem(await post("/guarded", "{}"), 401, "UNAUTHENTICATED");
    await problem(
      await post("/guarded", "{}", { "content-type": "application/json", authorization: "Bearer not-a-token" }),
      401,
      "UNAUTHENTICATED",
    );
  });

  test("an unexpected error is 500 INTERNAL with the request id and no stack", async () => {
    const res = await fetch(`${base}/boom`);
    const body = await problem(res, 500, "INTERNAL");
    const id = res.headers.get("x-request-id");
    expect(body.instance).toBe(id);
    expect(body.detail).toContain(id);
    expect(JSON.stringify(body)).not.toContain("secret stack detail");
  });

  test("an error that fails again while being mapped is still a 500 INTERNAL problem, and the server keeps answering", async () => {
    await problem(await fetch(`${base}/boom-twice`), 500, "INTERNAL");
    await problem(await fetch(`${base}/boom`), 500, "INTERNAL");
  });

  test("an unknown route is 404 NOT_FOUND problem+json", async () => {
    await problem(await fetch(`${base}/no-such-route`), 404, "NOT_FOUND");
  });

  test("the log line of a request reports the status that was sent, without the body", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = rt.log;
    rt.log = (line) => lines.push(line as Record<string, unknown>);
    try {
      const res = await post("/probe", JSON.stringify({ email: "not-an-email", password: "hunter2-secret" }));
      expect(res.status).toBe(400);
      await eventually(() => lines.some((l) => l.requestId === res.headers.get("x-request-id")));
      const line = lines.find((l) => l.requestId === res.headers.get("x-request-id"));
      expect(line).toMatchObject({ method: "POST", route: "/api/v1/probe", status: 400 });
      expect(JSON.stringify(lines)).not.toContain("hunter2-secret");
    } finally {
      rt.log = log;
    }
  });

  test("the log line reports the status of a Response the handler returned (a 302 redirect)", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = rt.log;
    rt.log = (line) => lines.push(line as Record<string, unknown>);
    try {
      const res = await fetch(`${base}/redirect`, { redirect: "manual" });
      expect(res.status).toBe(302);
      await eventually(() => lines.some((l) => l.route === "/api/v1/redirect"));
      expect(lines.filter((l) => l.route === "/api/v1/redirect")).toEqual([expect.objectContaining({ method: "GET", status: 302 })]);
    } finally {
      rt.log = log;
    }
  });

  test("every response carries a distinct X-Request-Id", async () => {
    const a = await post("/probe", JSON.stringify({ email: "a@b.co" }));
    const b = await post("/probe", JSON.stringify({ email: "a@b.co" }));
    expect(a.headers.get("x-request-id")).toBeTruthy();
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});
