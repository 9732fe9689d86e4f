import { describe, expect, test } from "bun:test";
import { tenantSettings } from "../src/modules/tenant/tables";
import { cookieOf, signUpVerified } from "./helpers/auth";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

const s = useServer({ devCodes: true });
const refresh = (cookie?: string) => s.call("POST", "/api/v1/auth/session/refresh", { headers: cookie ? { cookie } : {} });
const signIn = (t: { email: string; password: string; tenantKey: string }, sessionType?: string) =>
  s.call("POST", "/api/v1/auth/sign-in/password", {
    json: { identifier: t.email, password: t.password, tenantKey: t.tenantKey, ...(sessionType ? { sessionType } : {}) },
  });

describe("refresh cookie", () => {
  test("is HttpOnly, SameSite=Lax, scoped to /api/v1/auth/session, not Secure on plain http, and expires with a personal session", async () => {
    const t = await createTenantFixture(s.server);
    const res = await signIn(t, "personal");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^lsp_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain("; Path=/api/v1/auth/session");
    expect(cookie).toContain("; HttpOnly");
    expect(cookie).toContain("; SameSite=Lax");
    expect(cookie).not.toContain("Secure");
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)?.[1] ?? "");
    expect(Math.abs(expires - (Date.now() + 30 * 24 * 3600_000))).toBeLessThan(5_000);
  });

  test("a public session's cookie has no expiry (it ends with the browser)", async () => {
    const t = await createTenantFixture(s.server);
    expect((await signIn(t, "public")).headers.get("set-cookie")).not.toContain("Expires=");
  });

  test("is Secure when the public URL is https", async () => {
    const t = await createTenantFixture(s.server);
    const before = s.server.rt.config.publicUrl;
    s.server.rt.config.publicUrl = "https://learn.example.com";
    try {
      expect((await signIn(t)).headers.get("set-cookie")).toContain("; Secure");
      const out = await s.call("POST", "/api/v1/auth/session/sign-out");
      expect(out.headers.get("set-cookie")).toContain("; Secure");
    } finally {
      s.server.rt.config.publicUrl = before;
    }
  });
});

describe("POST /api/v1/auth/session/refresh — refreshSession", () => {
  test("returns a new access token and user, and rotates the cookie on every call", async () => {
    const a = await signUpVerified(s);
    const r1 = await refresh(a.cookie);
    expect(r1.status).toBe(200);
    expect(typeof r1.body.accessToken).toBe("string");
    expect(r1.body.user).toMatchObject({ email: a.email, tenantKey: a.tenantKey, role: { key: "owner" } });
    const c1 = cookieOf(r1);
    expect(c1).not.toBe(a.cookie);
    const me = await s.call("GET", "/api/v1/me", { token: r1.body.accessToken });
    expect(me.body).toMatchObject({ email: a.email });
    const r2 = await refresh(c1);
    expect(r2.status).toBe(200);
    expect(cookieOf(r2)).not.toBe(c1);
  });

  test("a reused (already rotated) refresh token revokes the whole session", async () => {
    const a = await signUpVerified(s);
    const r1 = await refresh(a.cookie);
    const r2 = await refresh(cookieOf(r1));
    expect(r2.status).toBe(200);
    // The first cookie again, two rotations later: a replay.
    expectProblem(await refresh(a.cookie), 401, "SESSION_EXPIRED");
    expectProblem(await refresh(cookieOf(r2)), 401, "SESSION_EXPIRED");
    expectProblem(await s.call("GET", "/api/v1/me", { token: r2.body.accessToken }), 401, "UNAUTHENTICATED");
    expectProblem(await s.call("GET", "/api/v1/me", { token: a.token }), 401, "UNAUTHENTICATED");
  });

  test("two tabs refreshing with the same cookie at once both get a token; the session lives on", async () => {
    const a = await signUpVerified(s);
    const [r1, r2] = await Promise.all([refresh(a.cookie), refresh(a.cookie)]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(cookieOf(r1)).not.toBe(cookieOf(r2));
    const latest = await refresh(cookieOf(r2));
    expect(latest.status).toBe(200);
    expect((await s.call("GET", "/api/v1/me", { token: latest.body.accessToken })).status).toBe(200);
  });

  test("the previous cookie presented more than 30 s after its rotation still revokes the session", async () => {
    const a = await signUpVerified(s);
    const r1 = await refresh(a.cookie);
    expect(r1.status).toBe(200);
    s.server.rt.platform.sqlite.query("UPDATE rotated_refresh_tokens SET rotated_at = rotated_at - 31000").run();
    expectProblem(await refresh(a.cookie), 401, "SESSION_EXPIRED");
    expectProblem(await refresh(cookieOf(r1)), 401, "SESSION_EXPIRED");
    expectProblem(await s.call("GET", "/api/v1/me", { token: r1.body.accessToken }), 401, "UNAUTHENTICATED");
  });

  test("returns 401 SESSION_EXPIRED without a cookie and with an unknown one; ignores a bearer token", async () => {
    const a = await signUpVerified(s);
    expectProblem(await refresh(), 401, "SESSION_EXPIRED");
    expectProblem(await refresh("lsp_session=forged"), 401, "SESSION_EXPIRED");
    expectProblem(await s.call("POST", "/api/v1/auth/session/refresh", { token: a.token }), 401, "SESSION_EXPIRED");
  });

  test("a session without a tenant refreshes with the account as user", async () => {
    const a = await signUpVerified(s, { tenantKey: null });
    const r = await refresh(a.cookie);
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ email: a.email, tenantKey: null });
  });

  test("returns 401 once the member is deactivated", async () => {
    const t = await createTenantFixture(s.server);
    const res = await signIn(t);
    s.server.rt.tenants.use(t.tenantId, (h) => h.sqlite.query("UPDATE members SET is_active = 0 WHERE id = ?").run(t.memberId));
    expectProblem(await refresh(cookieOf(res)), 401, "SESSION_EXPIRED");
  });
});

describe("POST /api/v1/auth/session/sign-out — signOut", () => {
  test("revokes the session, clears the cookie and answers 204", async () => {
    const a = await signUpVerified(s);
    const out = await s.call("POST", "/api/v1/auth/session/sign-out", { headers: { cookie: a.cookie } });
    expect(out.status).toBe(204);
    expect(out.body).toBeNull();
    expect(out.headers.get("set-cookie")).toMatch(/^lsp_session=; Path=\/api\/v1\/auth\/session; HttpOnly; SameSite=Lax; Max-Age=0/);
    expectProblem(await refresh(a.cookie), 401, "SESSION_EXPIRED");
    expectProblem(await s.call("GET", "/api/v1/me", { token: a.token }), 401, "UNAUTHENTICATED");
  });

  test("answers 204 also without a cookie and with an unknown one", async () => {
    expect((await s.call("POST", "/api/v1/auth/session/sign-out")).status).toBe(204);
    expect((await s.call("POST", "/api/v1/auth/session/sign-out", { headers: { cookie: "lsp_session=zzz" } })).status).toBe(204);
  });
});

describe("PUT /api/v1/auth/session/type — setSessionType", () => {
  test("sets the type, confirms it and restarts the absolute lifetime from now", async () => {
    const t = await createTenantFixture(s.server);
    s.server.rt.tenants.use(t.tenantId, (h) => h.db.update(tenantSettings).set({ publicAbsoluteTimeoutMinutes: 45 }).run());
    const pub = await s.call("PUT", "/api/v1/auth/session/type", { token: t.token, json: { sessionType: "public" } });
    expect(pub.status).toBe(200);
    expect(pub.body.sessionType).toBe("public");
    expect(pub.body.confirmed).toBe(true);
    expect(Math.abs(Date.parse(pub.body.absoluteExpiresAt) - (Date.now() + 45 * 60_000))).toBeLessThan(5_000);
    const per = await s.call("PUT", "/api/v1/auth/session/type", { token: t.token, json: { sessionType: "personal" } });
    expect(Math.abs(Date.parse(per.body.absoluteExpiresAt) - (Date.now() + 30 * 24 * 3600_000))).toBeLessThan(5_000);
  });

  test("rotates the refresh cookie and re-sends it: session-only for public, 30 days for personal", async () => {
    const t = await createTenantFixture(s.server);
    const signedIn = await signIn(t, "personal");
    expect(signedIn.headers.get("set-cookie")).toContain("Expires=");
    const token = signedIn.body.accessToken;
    const pub = await s.call("PUT", "/api/v1/auth/session/type", { token, json: { sessionType: "public" } });
    const pubCookie = pub.headers.get("set-cookie") ?? "";
    expect(pubCookie).toMatch(/^lsp_session=[A-Za-z0-9_-]{43}; Path=\/api\/v1\/auth\/session; HttpOnly; SameSite=Lax/);
    expect(pubCookie).not.toContain("Expires=");
    expect(pubCookie).not.toContain("Max-Age");
    expect(cookieOf(pub)).not.toBe(cookieOf(signedIn));
    const r = await refresh(cookieOf(pub));
    expect(r.status).toBe(200);
    expect(r.headers.get("set-cookie")).not.toContain("Expires=");
    const per = await s.call("PUT", "/api/v1/auth/session/type", { token, json: { sessionType: "personal" } });
    const expires = Date.parse(/Expires=([^;]+)/.exec(per.headers.get("set-cookie") ?? "")?.[1] ?? "");
    expect(Math.abs(expires - (Date.now() + 30 * 24 * 3600_000))).toBeLessThan(5_000);
    expect((await refresh(cookieOf(per))).status).toBe(200);
  });

  test("returns 400 for an unknown or missing type and 401 without a token", async () => {
    const t = await createTenantFixture(s.server);
    expectProblem(
      await s.call("PUT", "/api/v1/auth/session/type", { token: t.token, json: { sessionType: "kiosk" } }),
      400,
      "VALIDATION_FAILED",
    );
    expectProblem(await s.call("PUT", "/api/v1/auth/session/type", { token: t.token, json: {} }), 400, "VALIDATION_FAILED");
    expectProblem(await s.call("PUT", "/api/v1/auth/session/type", { json: { sessionType: "public" } }), 401, "UNAUTHENTICATED");
  });
});

describe("public session absolute timeout", () => {
  test("the access token (accessTokenExpiresAt and its exp) never outlives the session", async () => {
    const t = await createTenantFixture(s.server);
    s.server.rt.tenants.use(t.tenantId, (h) => h.db.update(tenantSettings).set({ publicAbsoluteTimeoutMinutes: 1 }).run());
    const res = await signIn(t, "public");
    const row = s.server.rt.platform.sqlite
      .query("SELECT absolute_expires_at AS at FROM sessions ORDER BY created_at DESC LIMIT 1")
      .get() as { at: number };
    const expOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString()).exp as number;
    for (const r of [res, await refresh(cookieOf(res))]) {
      expect(r.status).toBe(200);
      expect(Date.parse(r.body.accessTokenExpiresAt)).toBe(row.at);
      expect(expOf(r.body.accessToken) * 1000).toBeLessThanOrEqual(row.at);
    }
    const personal = await signIn(t, "personal");
    expect(Math.abs(Date.parse(personal.body.accessTokenExpiresAt) - (Date.now() + 15 * 60_000))).toBeLessThan(5_000);
  });

  test("after publicAbsoluteTimeoutMinutes neither the access token nor the refresh cookie works", async () => {
    const t = await createTenantFixture(s.server);
    s.server.rt.tenants.use(t.tenantId, (h) => h.db.update(tenantSettings).set({ publicAbsoluteTimeoutMinutes: 1 }).run());
    const res = await signIn(t, "public");
    const row = s.server.rt.platform.sqlite
      .query("SELECT id, absolute_expires_at - created_at AS life FROM sessions ORDER BY created_at DESC LIMIT 1")
      .get() as { id: string; life: number };
    expect(row.life).toBe(60_000);
    expect((await refresh(cookieOf(res))).status).toBe(200);
    // One minute later (moved in the data, not waited for).
    s.server.rt.platform.sqlite.query("UPDATE sessions SET absolute_expires_at = ? WHERE id = ?").run(Date.now() - 1, row.id);
    expectProblem(await s.call("GET", "/api/v1/me", { token: res.body.accessToken }), 401, "UNAUTHENTICATED");
    const latest = s.server.rt.platform.sqlite.query("SELECT refresh_hash FROM sessions WHERE id = ?").get(row.id);
    expect(latest).not.toBeNull();
    expectProblem(await refresh(cookieOf(res)), 401, "SESSION_EXPIRED");
  });
});
