import type { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { ssoSettings } from "../src/modules/sso/tables";
import { limitPasswordWork, verifyPassword } from "../src/platform/auth/password";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

// No waiting room: only as many sign-ins as there are cores hash at once; the rest are shed.
const s = useServer({ signinQueue: 0 });
const signIn = (t: { email: string; tenantKey: string }) =>
  s.call("POST", "/api/v1/auth/sign-in/password", { json: { identifier: t.email, password: "Passw0rd!", tenantKey: t.tenantKey } });

afterEach(() => limitPasswordWork({ queue: 0 }));

describe("sign-in storms", () => {
  test("a shed sign-in is answered before anything of the tenant is read: the same 503 for a member, an unknown identifier and an SSO-only tenant", async () => {
    const t = await createTenantFixture(s.server);
    // a tenant that allows only single sign-on answers 403 SSO_ONLY once its settings are read
    const sso = await createTenantFixture(s.server);
    const row = {
      id: 1,
      enabled: false,
      allowedLoginMethods: "SSO_ONLY" as const,
      attributeMappings: [],
      partnerProviders: [],
      updatedAt: Date.now(),
    };
    s.server.rt.tenants.use(sso.tenantId, (h) =>
      h.db.insert(ssoSettings).values(row).onConflictDoUpdate({ target: ssoSettings.id, set: row }).run(),
    );
    // One thread, no waiting room: while the test's own slow verify runs on it (a stored hash's parameters
    // raised to 20 passes, ~0.5 s; not awaited, it ends in the background), every sign-in is shed.
    limitPasswordWork({ queue: 0, concurrency: 1, hashMs: 2000 });
    const quick = await Bun.password.hash("x", { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 });
    const slow = quick.replace("m=1024,t=1", "m=19456,t=20");
    for (let tries = 0; ; tries++) {
      verifyPassword("x", slow).catch(() => false);
      const answers = await Promise.all([signIn(t), signIn({ ...t, email: "nobody@example.test" }), signIn(sso)]);
      // the verify may have ended before the sign-ins came: then one was admitted, try again
      if (answers.some((r) => r.status !== 503) && tries < 5) continue;
      for (const r of answers) expectProblem(r, 503, "SERVER_BUSY");
      expect(answers[0]?.body).toEqual(answers[1]?.body);
      break;
    }
  });

  test("a sign-in's two writes (the session, lastLoginAt) join the turn's group commit, not commits of their own on the event loop", async () => {
    const t = await createTenantFixture(s.server);
    const rt = s.server.rt;
    const begun: string[] = [];
    const spy = (sqlite: Database, name: string) => {
      const exec = sqlite.exec.bind(sqlite);
      sqlite.exec = ((sql: string, ...rest: unknown[]) => {
        if (sql === "BEGIN IMMEDIATE") begun.push(name);
        return (exec as (sql: string, ...rest: unknown[]) => unknown)(sql, ...rest);
      }) as typeof sqlite.exec;
      return () => {
        sqlite.exec = exec;
      };
    };
    const tenant = rt.tenants.acquire(t.tenantId);
    const restore = [spy(rt.platform.sqlite, "platform"), spy(tenant.sqlite, "tenant")];
    try {
      expect((await signIn(t)).status).toBe(200);
    } finally {
      for (const r of restore) r();
      rt.tenants.release(tenant);
    }
    expect(begun).toContain("platform");
    expect(begun).toContain("tenant");
  });

  test("sign-ins beyond the hashing queue get 503 SERVER_BUSY with Retry-After; the rest sign in, and later ones succeed", async () => {
    const t = await createTenantFixture(s.server);
    const storm = await Promise.all(Array.from({ length: 12 }, () => signIn(t)));
    const busy = storm.filter((r) => r.status === 503);
    expect(storm.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length + storm.filter((r) => r.status === 200).length).toBe(12);
    for (const r of busy) {
      expectProblem(r, 503, "SERVER_BUSY");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    expect((await signIn(t)).status).toBe(200);
  });

  test("the hosted login page retries a SERVER_BUSY answer after Retry-After, then shows the result", async () => {
    const t = await createTenantFixture(s.server);
    const html = await (await fetch(`${s.url}/t/${t.tenantKey}/login`)).text();
    const script = /<script[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] as string;
    const sent: string[] = [];
    const waits: number[] = [];
    const answers = [
      new Response(JSON.stringify({ code: "SERVER_BUSY" }), { status: 503, headers: { "retry-after": "2" } }),
      new Response(JSON.stringify({ accessToken: "a" }), { status: 200 }),
    ];
    const fakeFetch = async (path: string) => {
      sent.push(path);
      return answers.shift() as Response;
    };
    const fakeTimeout = (fn: () => void, ms: number) => {
      waits.push(ms);
      fn();
    };
    const fakeDocument = { body: { dataset: {} }, querySelectorAll: () => [], getElementById: () => null };
    const fakeLocation = { pathname: `/t/${t.tenantKey}/login`, search: "" };
    const call = new Function("document", "fetch", "setTimeout", "location", `${script};return call`)(
      fakeDocument,
      fakeFetch,
      fakeTimeout,
      fakeLocation,
    );
    const r = await call("/auth/sign-in/password", { identifier: "x" });
    expect(r).toEqual({ ok: true, j: { accessToken: "a" } });
    expect(sent).toEqual(["/api/v1/auth/sign-in/password", "/api/v1/auth/sign-in/password"]);
    // Retry-After and up to 1 s more (the server spaces the returns; docs/rules/sign-in.md#retry-after-paces-the-returns)
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThan(3000);
  });
});
