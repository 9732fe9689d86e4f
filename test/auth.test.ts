import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { accounts, oneTimeCodes } from "../src/modules/auth/platform-tables";
import { tenantJoinCodes } from "../src/modules/join-codes/tables";
import { ssoSettings } from "../src/modules/sso/tables";
import { tenantSettings } from "../src/modules/tenant/tables";
import { tenantByKey } from "../src/platform/db/registry";
import { cookieOf, fresh, signUpVerified } from "./helpers/auth";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const s = useServer({ devCodes: true });
const post = (path: string, json: unknown, token?: string) => s.call("POST", `/api/v1${path}`, { json, token });

function setTenant(key: string, values: Partial<typeof tenantSettings.$inferInsert>) {
  const tenant = tenantByKey(s.server.rt.platform.db, key);
  if (!tenant) throw new Error("no tenant");
  s.server.rt.tenants.use(tenant.id, (h) => h.db.update(tenantSettings).set(values).run());
  return tenant;
}

describe("POST /api/v1/auth/sign-up — signUp", () => {
  test("creates the account and tenant and answers 201 with a dev code", async () => {
    const f = fresh();
    const res = await post("/auth/sign-up", {
      email: f.email.toUpperCase(),
      password: "Passw0rd!",
      displayName: "Ann",
      tenantKey: f.tenantKey,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ email: f.email, verificationRequired: true, devCode: expect.stringMatching(/^\d{6}$/) });
    expect(tenantByKey(s.server.rt.platform.db, f.tenantKey)?.name).toBe(f.tenantKey);
  });

  test("returns 409 ALREADY_EXISTS for an e-mail that has an account (any case)", async () => {
    const { email } = await signUpVerified(s, { tenantKey: null });
    expectProblem(
      await post("/auth/sign-up", { email: email.toUpperCase(), password: "Passw0rd!", displayName: "B" }),
      409,
      "ALREADY_EXISTS",
    );
  });

  test("returns 409 ALREADY_EXISTS for a taken tenantKey and leaves no account behind", async () => {
    const { tenantKey } = await signUpVerified(s);
    const f = fresh();
    expectProblem(
      await post("/auth/sign-up", { email: f.email, password: "Passw0rd!", displayName: "B", tenantKey }),
      409,
      "ALREADY_EXISTS",
    );
    const again = await post("/auth/sign-up", { email: f.email, password: "Passw0rd!", displayName: "B" });
    expect(again.status).toBe(201);
  });

  test.each([
    ["email", { email: "not-an-email" }],
    ["email", { email: ".lead@example.com" }],
    ["email", { email: "two..dots@example.com" }],
    ["email", { email: `${"a".repeat(250)}@example.com` }],
    ["password", { password: "Short1!" }],
    ["password", { password: "onlyletters" }],
    ["password", { password: "Passw0rd with space" }],
    ["password", { password: `A1${"a".repeat(254)}` }],
    ["displayName", { displayName: "" }],
    ["displayName", { displayName: "Bad<name>" }],
    ["displayName", { displayName: "a".repeat(256) }],
    ["tenantKey", { tenantKey: "Upper" }],
    ["tenantKey", { tenantKey: "has_underscore" }],
    ["tenantKey", { tenantKey: "" }],
    ["tenantKey", { tenantKey: "a".repeat(256) }],
    ["tenantName", { tenantName: "" }],
  ])("returns 400 naming %s when it breaks its rule", async (field, patch) => {
    const f = fresh();
    const res = await post("/auth/sign-up", {
      email: f.email,
      password: "Passw0rd!",
      displayName: "Ann",
      tenantKey: f.tenantKey,
      ...patch,
    });
    const body = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(JSON.stringify(body)).not.toContain("Passw0rd");
  });

  test("a tenantKey held by a stale unverified sign-up is freed; a recent or used one stays taken", async () => {
    const rt = s.server.rt;
    const squat = fresh();
    const up = await post("/auth/sign-up", { email: squat.email, password: "Passw0rd!", displayName: "S", tenantKey: squat.tenantKey });
    expect(up.status).toBe(201);
    const other = fresh();
    const body = { email: other.email, password: "Passw0rd!", displayName: "B", tenantKey: squat.tenantKey };
    expectProblem(await post("/auth/sign-up", body), 409, "ALREADY_EXISTS");
    // The sign-up ages past a code's life and its code expires.
    const past = Date.now() - 11 * 60_000;
    rt.platform.db.update(accounts).set({ createdAt: past }).where(eq(accounts.email, squat.email)).run();
    rt.platform.db.update(oneTimeCodes).set({ expiresAt: past }).where(eq(oneTimeCodes.email, squat.email)).run();
    const old = tenantByKey(rt.platform.db, squat.tenantKey);
    expect((await post("/auth/sign-up", body)).status).toBe(201);
    expect(tenantByKey(rt.platform.db, squat.tenantKey)?.id).not.toBe(old?.id);
    expect(tenantByKey(rt.platform.db, squat.tenantKey)?.ownerEmail).toBe(other.email);
    // The squatter's unverified account went with it: the e-mail can sign up again.
    expect((await post("/auth/sign-up", { email: squat.email, password: "Passw0rd!", displayName: "S" })).status).toBe(201);
    // A verified sign-up's tenantKey is never freed.
    const v = await signUpVerified(s);
    rt.platform.db.update(accounts).set({ createdAt: past }).where(eq(accounts.email, v.email)).run();
    expectProblem(await post("/auth/sign-up", { ...body, email: fresh().email, tenantKey: v.tenantKey }), 409, "ALREADY_EXISTS");
  });

  test("returns 400 for missing required fields", async () => {
    const body = expectProblem(await post("/auth/sign-up", {}), 400, "VALIDATION_FAILED");
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["displayName", "email", "password"]);
  });

  test("accepts boundary values: 8- and 255-character passwords, 255-character display name and tenantKey", async () => {
    const f = fresh();
    const res = await post("/auth/sign-up", {
      email: f.email,
      password: "abcdefg1",
      displayName: "a".repeat(255),
      tenantKey: `k${"a".repeat(254)}`,
    });
    expect(res.status).toBe(201);
    const g = fresh();
    expect((await post("/auth/sign-up", { email: g.email, password: `A1${"a".repeat(253)}`, displayName: "x" })).status).toBe(201);
  });
});

describe("POST /api/v1/auth/sign-up/verify — verifySignUpCode", () => {
  test("signs into the tenant made at sign-up as its owner", async () => {
    const { res, email, tenantKey } = await signUpVerified(s);
    expect(res.body).toMatchObject({
      result: "authenticated",
      email,
      hasOwnedTenant: true,
      tenants: [{ key: tenantKey, name: `Tenant ${tenantKey}`, kind: "owner", logoImageUrl: null }],
      user: { tenantKey, email, displayName: "Owner One", role: { key: "owner" }, mustChangePassword: false, needsAgreementConsent: false },
    });
    expect(Date.parse(res.body.accessTokenExpiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(res.body.user.permissions).toContain("tenant-settings:manage");
    expect((await s.call("GET", "/api/v1/me", { token: res.body.accessToken })).status).toBe(200);
  });

  test("without a tenant the token carries none: tenant operations answer 403 NO_TENANT", async () => {
    const { res } = await signUpVerified(s, { tenantKey: null });
    expect(res.body.user).toMatchObject({ tenantKey: null, role: null, permissions: [] });
    expect(res.body.tenants).toEqual([]);
    expectProblem(await s.call("GET", "/api/v1/me", { token: res.body.accessToken }), 403, "NO_TENANT");
  });

  test("returns 400 INVALID_CODE for a wrong code and for a code used twice", async () => {
    const f = fresh();
    const up = await post("/auth/sign-up", { email: f.email, password: "Passw0rd!", displayName: "Ann" });
    const wrong = up.body.devCode === "000000" ? "111111" : "000000";
    expectProblem(await post("/auth/sign-up/verify", { email: f.email, code: wrong }), 400, "INVALID_CODE");
    expect((await post("/auth/sign-up/verify", { email: f.email, code: up.body.devCode })).status).toBe(200);
    expectProblem(await post("/auth/sign-up/verify", { email: f.email, code: up.body.devCode }), 400, "INVALID_CODE");
  });

  test.each(["12345", "1234567", ""])("returns 400 naming code for %p (exactly 6 characters)", async (code) => {
    const body = expectProblem(await post("/auth/sign-up/verify", { email: "x@example.com", code }), 400, "VALIDATION_FAILED");
    expect(body.errors[0].field).toBe("code");
  });

  test("returns 400 naming sessionType for an unknown type", async () => {
    const body = expectProblem(
      await post("/auth/sign-up/verify", { email: "x@example.com", code: "123456", sessionType: "kiosk" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors[0].field).toBe("sessionType");
  });
});

describe("POST /api/v1/auth/sign-up/resend-code — resendSignUpCode", () => {
  test("an unverified account gets a new code after the cooldown; the old one stops working", async () => {
    const f = fresh();
    const up = await post("/auth/sign-up", { email: f.email, password: "Passw0rd!", displayName: "Ann" });
    const early = await post("/auth/sign-up/resend-code", { email: f.email });
    expectProblem(early, 429, "RESEND_TOO_SOON");
    expect(Number(early.headers.get("retry-after"))).toBeGreaterThan(50);
    // Jump past the cooldown.
    s.server.rt.platform.sqlite.query("UPDATE one_time_codes SET resend_available_at = 0 WHERE email = ?").run(f.email);
    const res = await post("/auth/sign-up/resend-code", { email: f.email });
    expect(res.status).toBe(200);
    expect(res.body.devCode).toMatch(/^\d{6}$/);
    expect(Date.parse(res.body.nextResendAvailableAt) - Date.now()).toBeGreaterThan(55_000);
    if (res.body.devCode !== up.body.devCode) {
      expectProblem(await post("/auth/sign-up/verify", { email: f.email, code: up.body.devCode }), 400, "INVALID_CODE");
    }
    expect((await post("/auth/sign-up/verify", { email: f.email, code: res.body.devCode })).status).toBe(200);
  });

  test("an unknown e-mail gets the same 200 shape, without a devCode", async () => {
    const res = await post("/auth/sign-up/resend-code", { email: fresh().email });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["nextResendAvailableAt"]);
  });

  test("returns 400 for a bad e-mail", async () => {
    expectProblem(await post("/auth/sign-up/resend-code", { email: "nope" }), 400, "VALIDATION_FAILED");
  });
});

describe("password reset — requestPasswordResetCode, confirmPasswordReset", () => {
  test("resets the account and every member with the e-mail, and ends their sessions", async () => {
    const a = await signUpVerified(s);
    const other = await createTenantFixture(s.server);
    await createMemberFixture(s.server, other, { email: a.email });
    const req = await post("/auth/password-reset/request-code", { email: a.email });
    expect(req.status).toBe(200);
    const res = await post("/auth/password-reset/confirm", { email: a.email, code: req.body.devCode, newPassword: "N3w-secret" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updatedAccounts: 3 });
    expectProblem(await s.call("GET", "/api/v1/me", { token: a.token }), 401, "UNAUTHENTICATED");
    const old = await post("/auth/sign-in/password", { identifier: a.email, password: a.password, tenantKey: a.tenantKey });
    expectProblem(old, 401, "INVALID_CREDENTIALS");
    expect((await post("/auth/sign-in/password", { identifier: a.email, password: "N3w-secret", tenantKey: other.tenantKey })).status).toBe(
      200,
    );
  });

  test("an unknown e-mail gets 200 without a devCode; confirming then fails with INVALID_CODE", async () => {
    const f = fresh();
    const req = await post("/auth/password-reset/request-code", { email: f.email });
    expect(req.status).toBe(200);
    expect(req.body.devCode).toBeUndefined();
    expectProblem(
      await post("/auth/password-reset/confirm", { email: f.email, code: "123456", newPassword: "N3w-secret" }),
      400,
      "INVALID_CODE",
    );
  });

  test("returns 400 naming newPassword when it breaks the password rule", async () => {
    const body = expectProblem(
      await post("/auth/password-reset/confirm", { email: "a@example.com", code: "123456", newPassword: "short" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors[0].field).toBe("newPassword");
  });
});

describe("code sign-in — requestSignInCode, checkSignInCode, signInWithCode", () => {
  test("check lists the tenants without using the code; sign-in uses it", async () => {
    const a = await signUpVerified(s);
    const other = await createTenantFixture(s.server);
    await createMemberFixture(s.server, other, { email: a.email });
    const req = await post("/auth/sign-in/request-code", { email: a.email });
    const code = req.body.devCode;
    const check = await post("/auth/sign-in/check-code", { email: a.email, code });
    expect(check.status).toBe(200);
    expect(check.body.hasOwnedTenant).toBe(true);
    expect(check.body.tenants.map((t: { key: string; kind: string }) => [t.key, t.kind])).toEqual([
      [a.tenantKey, "owner"],
      [other.tenantKey, "member"],
    ]);
    const res = await post("/auth/sign-in/code", { email: a.email, tenantKey: other.tenantKey, code, sessionType: "public" });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ tenantKey: other.tenantKey, role: { key: "member" } });
    expect(cookieOf(res)).toStartWith("lsp_session=");
    expectProblem(await post("/auth/sign-in/code", { email: a.email, tenantKey: a.tenantKey, code }), 400, "INVALID_CODE");
  });

  test("a tenant code (requestTenantCode) signs into that tenant", async () => {
    const t = await createTenantFixture(s.server);
    const req = await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: t.email });
    const res = await post("/auth/sign-in/code", { email: t.email, tenantKey: t.tenantKey, code: req.body.devCode });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(t.memberId);
  });

  test("returns 401 INVALID_CREDENTIALS for a tenant the e-mail is not a member of, keeping the code", async () => {
    const a = await signUpVerified(s);
    const other = await createTenantFixture(s.server);
    const code = (await post("/auth/sign-in/request-code", { email: a.email })).body.devCode;
    expectProblem(await post("/auth/sign-in/code", { email: a.email, tenantKey: other.tenantKey, code }), 401, "INVALID_CREDENTIALS");
    expectProblem(await post("/auth/sign-in/code", { email: a.email, tenantKey: "no-such-tenant", code }), 401, "INVALID_CREDENTIALS");
    expect((await post("/auth/sign-in/code", { email: a.email, tenantKey: a.tenantKey, code })).status).toBe(200);
  });

  test("an unknown e-mail gets 200 without a devCode", async () => {
    const res = await post("/auth/sign-in/request-code", { email: fresh().email });
    expect(res.status).toBe(200);
    expect(res.body.devCode).toBeUndefined();
  });

  test("returns 400 for an empty tenantKey and a 7-character code", async () => {
    const body = expectProblem(
      await post("/auth/sign-in/code", { email: "a@example.com", tenantKey: "", code: "1234567" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["code", "tenantKey"]);
  });
});

describe("POST /api/v1/auth/sign-in/password — signInWithPassword", () => {
  test("an owner whose sign-up is not verified gets 401 INVALID_CREDENTIALS, with or without tenantKey, until it is", async () => {
    const f = fresh();
    const up = await post("/auth/sign-up", { email: f.email, password: "Passw0rd!", displayName: "Ann", tenantKey: f.tenantKey });
    expect(up.status).toBe(201);
    const byKey = { identifier: f.email, password: "Passw0rd!", tenantKey: f.tenantKey };
    const wrongPw = expectProblem(await post("/auth/sign-in/password", { ...byKey, password: "Wrong000!" }), 401, "INVALID_CREDENTIALS");
    const unverified = expectProblem(await post("/auth/sign-in/password", byKey), 401, "INVALID_CREDENTIALS");
    expect(unverified.detail).toBe(wrongPw.detail);
    expectProblem(await post("/auth/sign-in/password", { identifier: f.email, password: "Passw0rd!" }), 401, "INVALID_CREDENTIALS");
    expect((await post("/auth/sign-up/verify", { email: f.email, code: up.body.devCode })).status).toBe(200);
    expect((await post("/auth/sign-in/password", byKey)).status).toBe(200);
  });

  test("signs in with tenantKey by e-mail or by userId, case-insensitively", async () => {
    const t = await createTenantFixture(s.server);
    const m = await createMemberFixture(s.server, t, { userId: "Kim.Lee" });
    const byEmail = await post("/auth/sign-in/password", {
      identifier: m.email.toUpperCase(),
      password: m.password,
      tenantKey: t.tenantKey,
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user).toMatchObject({ id: m.memberId, userId: "Kim.Lee", tenantKey: t.tenantKey });
    const byUserId = await post("/auth/sign-in/password", { identifier: "kim.lee", password: m.password, tenantKey: t.tenantKey });
    expect(byUserId.status).toBe(200);
  });

  test('a member without an e-mail gets this tenant in tenants and email ""', async () => {
    const t = await createTenantFixture(s.server);
    const created = await s.call("POST", "/api/v1/members", {
      token: t.token,
      json: { displayName: "No Mail", userId: "no_mail_1", password: "Passw0rd!" },
    });
    expect(created.status).toBe(201);
    const res = await post("/auth/sign-in/password", { identifier: "no_mail_1", password: "Passw0rd!", tenantKey: t.tenantKey });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe("");
    expect(res.body.user).toMatchObject({ userId: "no_mail_1", email: "", tenantKey: t.tenantKey });
    expect(res.body.tenants).toEqual([{ key: t.tenantKey, name: t.tenantName, kind: "member", logoImageUrl: null }]);
    expect(res.body.hasOwnedTenant).toBe(false);
  });

  test("without tenantKey: the owned tenant, else the only one, else 400 TENANT_REQUIRED", async () => {
    const a = await signUpVerified(s);
    const t1 = await createTenantFixture(s.server);
    await createMemberFixture(s.server, t1, { email: a.email });
    const owned = await post("/auth/sign-in/password", { identifier: a.email, password: a.password });
    expect(owned.body.user.tenantKey).toBe(a.tenantKey);

    const t2 = await createTenantFixture(s.server);
    const m = await createMemberFixture(s.server, t2);
    const only = await post("/auth/sign-in/password", { identifier: m.email, password: m.password });
    expect(only.body.user.tenantKey).toBe(t2.tenantKey);
    await createMemberFixture(s.server, t1, { email: m.email });
    expectProblem(await post("/auth/sign-in/password", { identifier: m.email, password: m.password }), 400, "TENANT_REQUIRED");
  });

  test("an account without a tenant signs in without one", async () => {
    const a = await signUpVerified(s, { tenantKey: null });
    const res = await post("/auth/sign-in/password", { identifier: a.email, password: a.password });
    expect(res.status).toBe(200);
    expect(res.body.user.tenantKey).toBeNull();
  });

  test("returns 401 INVALID_CREDENTIALS for a wrong password, an unknown identifier and an unknown tenant", async () => {
    const t = await createTenantFixture(s.server);
    expectProblem(
      await post("/auth/sign-in/password", { identifier: t.email, password: "Wrong-pass1", tenantKey: t.tenantKey }),
      401,
      "INVALID_CREDENTIALS",
    );
    expectProblem(
      await post("/auth/sign-in/password", { identifier: "nobody", password: "x", tenantKey: t.tenantKey }),
      401,
      "INVALID_CREDENTIALS",
    );
    expectProblem(
      await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: "missing" }),
      401,
      "INVALID_CREDENTIALS",
    );
    expectProblem(await post("/auth/sign-in/password", { identifier: fresh().email, password: "x" }), 401, "INVALID_CREDENTIALS");
  });

  test("returns 400 for an empty identifier and password", async () => {
    const body = expectProblem(await post("/auth/sign-in/password", { identifier: "", password: "" }), 400, "VALIDATION_FAILED");
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["identifier", "password"]);
  });

  test("applies the tenant's default session type unconfirmed, and the given type confirmed", async () => {
    const t = await createTenantFixture(s.server);
    setTenant(t.tenantKey, { defaultSessionType: "public", publicAbsoluteTimeoutMinutes: 30 });
    const res = await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: t.tenantKey });
    expect(res.headers.get("set-cookie")).not.toContain("Expires=");
    const row = s.server.rt.platform.sqlite
      .query("SELECT session_type, confirmed, absolute_expires_at - created_at AS life FROM sessions ORDER BY created_at DESC LIMIT 1")
      .get() as { session_type: string; confirmed: number; life: number };
    expect(row).toEqual({ session_type: "public", confirmed: 0, life: 30 * 60_000 });
  });

  test("upgrades a hash made with other parameters on sign-in", async () => {
    const t = await createTenantFixture(s.server);
    const old = await Bun.password.hash(t.password, { algorithm: "argon2id", memoryCost: 8192, timeCost: 1 });
    s.server.rt.tenants.use(t.tenantId, (h) => h.sqlite.query("UPDATE members SET password_hash = ? WHERE id = ?").run(old, t.memberId));
    expect((await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: t.tenantKey })).status).toBe(200);
    const hash = s.server.rt.tenants.use(
      t.tenantId,
      (h) => (h.sqlite.query("SELECT password_hash FROM members WHERE id = ?").get(t.memberId) as { password_hash: string }).password_hash,
    );
    expect(hash).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
  });
});

describe("GET /api/v1/me — getCurrentUser", () => {
  test("returns the SessionUser of the token", async () => {
    const t = await createTenantFixture(s.server);
    const m = await createMemberFixture(s.server, t, { permissions: ["member:read"], displayName: "Mina" });
    const res = await s.call("GET", "/api/v1/me", { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: m.memberId,
      email: m.email,
      displayName: "Mina",
      tenantKey: t.tenantKey,
      permissions: ["member:read"],
    });
  });

  test("returns 401 without a token and with a bad one", async () => {
    expectProblem(await s.call("GET", "/api/v1/me"), 401, "UNAUTHENTICATED");
    expectProblem(await s.call("GET", "/api/v1/me", { token: "nope" }), 401, "UNAUTHENTICATED");
  });
});

describe("PUT /api/v1/me/password — changeOwnPassword", () => {
  test("changes the password (204) and ends the member's other sessions, keeping this one", async () => {
    const t = await createTenantFixture(s.server);
    const second = await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: t.tenantKey });
    // The other session's request just before: its Actor (one per cached member and session) is not this one's.
    expect((await s.call("GET", "/api/v1/me", { token: second.body.accessToken })).status).toBe(200);
    const res = await s.call("PUT", "/api/v1/me/password", {
      token: t.token,
      json: { currentPassword: t.password, newPassword: "Br4nd-new" },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await s.call("GET", "/api/v1/me", { token: t.token })).status).toBe(200);
    expectProblem(await s.call("GET", "/api/v1/me", { token: second.body.accessToken }), 401, "UNAUTHENTICATED");
    expectProblem(
      await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: t.tenantKey }),
      401,
      "INVALID_CREDENTIALS",
    );
    expect((await post("/auth/sign-in/password", { identifier: t.email, password: "Br4nd-new", tenantKey: t.tenantKey })).status).toBe(200);
  });

  test("returns 400 INVALID_CURRENT_PASSWORD for a wrong current password", async () => {
    const t = await createTenantFixture(s.server);
    expectProblem(
      await s.call("PUT", "/api/v1/me/password", { token: t.token, json: { currentPassword: "nope", newPassword: "Br4nd-new" } }),
      400,
      "INVALID_CURRENT_PASSWORD",
    );
  });

  test("wrong current passwords lock the member out like sign-in: 429 RATE_LIMITED with Retry-After", async () => {
    const t = await createTenantFixture(s.server);
    const change = (currentPassword: string) =>
      s.call("PUT", "/api/v1/me/password", { token: t.token, json: { currentPassword, newPassword: "Br4nd-new" } });
    for (let i = 0; i < 5; i++) expectProblem(await change(`Wrong-${i}00`), 400, "INVALID_CURRENT_PASSWORD");
    const locked = await change(t.password);
    expectProblem(locked, 429, "RATE_LIMITED");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(50);
    expectProblem(
      await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: t.tenantKey }),
      429,
      "RATE_LIMITED",
    );
  });

  test("returns 400 for an empty current password and a new one breaking the rule", async () => {
    const t = await createTenantFixture(s.server);
    const body = expectProblem(
      await s.call("PUT", "/api/v1/me/password", { token: t.token, json: { currentPassword: "", newPassword: "abcdefgh" } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["currentPassword", "newPassword"]);
  });

  test("returns 401 without a token", async () => {
    expectProblem(
      await s.call("PUT", "/api/v1/me/password", { json: { currentPassword: "a", newPassword: "Br4nd-new" } }),
      401,
      "UNAUTHENTICATED",
    );
  });
});

describe("profiles — getMyProfileId, listMyProfiles", () => {
  test("returns the main profile id and the profile list", async () => {
    const t = await createTenantFixture(s.server);
    const m = await createMemberFixture(s.server, t, { displayName: "Pat" });
    const id = await s.call("GET", "/api/v1/me/profile-id", { token: m.token });
    expect(id.body).toEqual({ profileId: m.profileId });
    const list = await s.call("GET", "/api/v1/me/profiles", { token: m.token });
    expect(list.body).toEqual({
      profiles: [
        { id: m.profileId, displayName: "Pat", pictureUrl: null, affiliation: null, externalMemberCode: null, isMain: true, isNew: true },
      ],
    });
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("GET", "/api/v1/me/profile-id"), 401, "UNAUTHENTICATED");
    expectProblem(await s.call("GET", "/api/v1/me/profiles"), 401, "UNAUTHENTICATED");
  });
});

describe("tenant join — requestTenantCode, joinTenant, joinTenantWithJoinCode", () => {
  test("joinTenant creates a member (201) and signs in when self sign-up is on", async () => {
    const t = await createTenantFixture(s.server);
    setTenant(t.tenantKey, { allowUserSelfSignUp: true });
    const f = fresh();
    const code = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: f.email })).body.devCode;
    const res = await post(`/public/tenants/${t.tenantKey}/auth/join`, {
      email: f.email,
      code,
      password: "Passw0rd!",
      displayName: "Joiner",
      userId: "joiner1",
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ userId: "joiner1", tenantKey: t.tenantKey, role: { key: "member" }, permissions: [] });
    expect(res.body.tenants).toEqual([{ key: t.tenantKey, name: expect.any(String), kind: "member", logoImageUrl: null }]);
    expect(cookieOf(res)).toStartWith("lsp_session=");
    // The directory now knows the e-mail: code sign-in lists the tenant.
    const check = await post("/auth/sign-in/request-code", { email: f.email });
    expect((await post("/auth/sign-in/check-code", { email: f.email, code: check.body.devCode })).body.tenants).toHaveLength(1);
  });

  test("joinTenant returns 403 while self sign-up is off", async () => {
    const t = await createTenantFixture(s.server);
    const f = fresh();
    const code = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: f.email })).body.devCode;
    expectProblem(
      await post(`/public/tenants/${t.tenantKey}/auth/join`, { email: f.email, code, password: "Passw0rd!", displayName: "J" }),
      403,
      "FORBIDDEN",
    );
  });

  test("joinTenant returns 409 ALREADY_EXISTS for a member's e-mail and 400 INVALID_CODE for a wrong code", async () => {
    const t = await createTenantFixture(s.server);
    setTenant(t.tenantKey, { allowUserSelfSignUp: true });
    const code = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: t.email })).body.devCode;
    const wrong = code === "000000" ? "111111" : "000000";
    expectProblem(
      await post(`/public/tenants/${t.tenantKey}/auth/join`, { email: t.email, code: wrong, password: "Passw0rd!", displayName: "J" }),
      400,
      "INVALID_CODE",
    );
    expectProblem(
      await post(`/public/tenants/${t.tenantKey}/auth/join`, { email: t.email, code, password: "Passw0rd!", displayName: "J" }),
      409,
      "ALREADY_EXISTS",
    );
  });

  test("joinTenant refuses a userId that is an e-mail (400) or another member's userId in any case (409)", async () => {
    const t = await createTenantFixture(s.server);
    setTenant(t.tenantKey, { allowUserSelfSignUp: true });
    await createMemberFixture(s.server, t, { userId: "taken_id" });
    const f = fresh();
    const code = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: f.email })).body.devCode;
    const join = (userId: string) =>
      post(`/public/tenants/${t.tenantKey}/auth/join`, { email: f.email, code, password: "Passw0rd!", displayName: "J", userId });
    const asEmail = expectProblem(await join(t.email), 400, "VALIDATION_FAILED");
    expect(asEmail.errors.map((e: { field: string }) => e.field)).toEqual(["userId"]);
    expectProblem(await join("TAKEN_ID"), 409, "ALREADY_EXISTS");
    expect((await join("free_id")).status).toBe(201);
    // The owner still signs in by e-mail into its own member.
    const owner = await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: t.tenantKey });
    expect(owner.body.user.id).toBe(t.memberId);
  });

  test("returns 404 for an unknown tenant and 400 for bad join input", async () => {
    expectProblem(await post("/public/tenants/no-such/auth/request-code", { email: "a@example.com" }), 404, "NOT_FOUND");
    const t = await createTenantFixture(s.server);
    const body = expectProblem(
      await post(`/public/tenants/${t.tenantKey}/auth/join`, {
        email: "a@example.com",
        code: "123",
        password: "x",
        displayName: "<b>",
        userId: "",
      }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["code", "displayName", "password", "userId"]);
  });

  test("joinTenantWithJoinCode admits the e-mail with self sign-up off; a bad, disabled or expired join code gets INVALID_CODE on joinCode", async () => {
    const t = await createTenantFixture(s.server);
    const now = Date.now();
    s.server.rt.tenants.use(t.tenantId, (h) =>
      h.db
        .insert(tenantJoinCodes)
        .values([
          { id: Bun.randomUUIDv7(), code: "OPEN-1", enabled: true, expiresAt: null, createdAt: now },
          { id: Bun.randomUUIDv7(), code: "OFF-1", enabled: false, expiresAt: null, createdAt: now },
          { id: Bun.randomUUIDv7(), code: "OLD-1", enabled: true, expiresAt: now - 1000, createdAt: now },
        ])
        .run(),
    );
    const f = fresh();
    const code = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: f.email })).body.devCode;
    const body = { email: f.email, code, password: "Passw0rd!", displayName: "Via Code" };
    for (const joinCode of ["NOPE", "OFF-1", "OLD-1"]) {
      const p = expectProblem(await post(`/public/tenants/${t.tenantKey}/auth/join-with-code`, { ...body, joinCode }), 400, "INVALID_CODE");
      expect(p.errors[0].field).toBe("joinCode");
    }
    // Typed by hand: case and surrounding spaces do not matter.
    const res = await post(`/public/tenants/${t.tenantKey}/auth/join-with-code`, { ...body, joinCode: " open-1 " });
    expect(res.status).toBe(201);
    expect(res.body.user.role.key).toBe("member");
    const again = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: f.email })).status;
    expect(again).toBe(429);
    s.server.rt.platform.sqlite.query("UPDATE one_time_codes SET resend_available_at = 0 WHERE email = ?").run(f.email);
    const code2 = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: f.email })).body.devCode;
    expectProblem(
      await post(`/public/tenants/${t.tenantKey}/auth/join-with-code`, { ...body, code: code2, joinCode: "OPEN-1" }),
      409,
      "ALREADY_EXISTS",
    );
  });

  test("joinTenantWithJoinCode returns 400 naming joinCode when it is missing", async () => {
    const t = await createTenantFixture(s.server);
    const p = expectProblem(
      await post(`/public/tenants/${t.tenantKey}/auth/join-with-code`, {
        email: "a@example.com",
        code: "123456",
        password: "Passw0rd!",
        displayName: "J",
      }),
      400,
      "VALIDATION_FAILED",
    );
    expect(p.errors[0].field).toBe("joinCode");
  });
});

describe("POST /api/v1/public/tenants/{tenantKey}/auth/identifier-lookup — lookupLoginIdentifier", () => {
  test("reports whether the identifier exists, its methods and the self sign-up flag", async () => {
    const t = await createTenantFixture(s.server);
    await createMemberFixture(s.server, t, { userId: "Lookup.Me" });
    setTenant(t.tenantKey, { allowUserSelfSignUp: true });
    const hit = await post(`/public/tenants/${t.tenantKey}/auth/identifier-lookup`, { identifier: "lookup.me" });
    expect(hit.body).toEqual({ exists: true, methods: ["password"], allowUserSelfSignUp: true });
    const miss = await post(`/public/tenants/${t.tenantKey}/auth/identifier-lookup`, { identifier: "ghost" });
    expect(miss.body).toEqual({ exists: false, methods: [], allowUserSelfSignUp: true });
  });

  test("returns 404 for an unknown tenant and 400 for an empty or 256-character identifier", async () => {
    expectProblem(await post("/public/tenants/no-such/auth/identifier-lookup", { identifier: "a" }), 404, "NOT_FOUND");
    const t = await createTenantFixture(s.server);
    expectProblem(await post(`/public/tenants/${t.tenantKey}/auth/identifier-lookup`, { identifier: "" }), 400, "VALIDATION_FAILED");
    expectProblem(
      await post(`/public/tenants/${t.tenantKey}/auth/identifier-lookup`, { identifier: "a".repeat(256) }),
      400,
      "VALIDATION_FAILED",
    );
  });
});

function setSso(tenantId: string, values: Partial<typeof ssoSettings.$inferInsert>) {
  const row = { id: 1, enabled: false, attributeMappings: [], partnerProviders: [], updatedAt: Date.now(), ...values };
  s.server.rt.tenants.use(tenantId, (h) =>
    h.db.insert(ssoSettings).values(row).onConflictDoUpdate({ target: ssoSettings.id, set: row }).run(),
  );
}

describe("allowedLoginMethods = SSO_ONLY", () => {
  test("password and code sign-in get 403 SSO_ONLY; the lookup offers no password method", async () => {
    const t = await createTenantFixture(s.server);
    setSso(t.tenantId, { allowedLoginMethods: "SSO_ONLY" });
    expectProblem(
      await post("/auth/sign-in/password", { identifier: t.email, password: t.password, tenantKey: t.tenantKey }),
      403,
      "SSO_ONLY",
    );
    const code = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: t.email })).body.devCode;
    expectProblem(await post("/auth/sign-in/code", { email: t.email, tenantKey: t.tenantKey, code }), 403, "SSO_ONLY");
    const lookup = await post(`/public/tenants/${t.tenantKey}/auth/identifier-lookup`, { identifier: t.email });
    expect(lookup.body).toMatchObject({ exists: true, methods: [] });
  });

  test("joinTenantWithJoinCode and joinTenant get 403 SSO_ONLY even with a usable join code or self sign-up on", async () => {
    const t = await createTenantFixture(s.server);
    setTenant(t.tenantKey, { allowUserSelfSignUp: true });
    setSso(t.tenantId, { allowedLoginMethods: "SSO_ONLY" });
    s.server.rt.tenants.use(t.tenantId, (h) =>
      h.db
        .insert(tenantJoinCodes)
        .values({ id: Bun.randomUUIDv7(), code: "SSO-1", enabled: true, expiresAt: null, createdAt: Date.now() })
        .run(),
    );
    const f = fresh();
    const code = (await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: f.email })).body.devCode;
    const body = { email: f.email, code, password: "Passw0rd!", displayName: "J" };
    expectProblem(await post(`/public/tenants/${t.tenantKey}/auth/join-with-code`, { ...body, joinCode: "SSO-1" }), 403, "SSO_ONLY");
    expectProblem(await post(`/public/tenants/${t.tenantKey}/auth/join`, body), 403, "SSO_ONLY");
  });
});

describe("POST /api/v1/auth/external/{provider}/start — startExternalSignIn", () => {
  test("returns the SAML login URL of a tenant whose IdP is available", async () => {
    const t = await createTenantFixture(s.server);
    setSso(t.tenantId, { enabled: true, idpSsoUrl: "https://idp.example/sso", idpEntityUrl: "https://idp.example", x509Cert: "MIIB" });
    const res = await post("/auth/external/saml/start", { tenantKey: t.tenantKey, sessionType: "public", returnTo: "/home?x=1" });
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(url.pathname).toBe(`/api/v1/public/tenants/${t.tenantKey}/saml/login`);
    expect(url.searchParams.get("returnTo")).toBe("/home?x=1");
    expect(url.searchParams.get("sessionType")).toBe("public");
    expect(url.origin).toBe(s.server.rt.config.publicUrl);
    expectProblem(await post("/auth/external/partner/start", { tenantKey: t.tenantKey }), 404, "NOT_FOUND");
    expectProblem(await post("/auth/external/saml/start", { tenantKey: "no-such-tenant" }), 404, "NOT_FOUND");
  });

  test("returns 404 for a provider that is not available (no SSO configured)", async () => {
    const t = await createTenantFixture(s.server);
    expectProblem(await post("/auth/external/saml/start", { tenantKey: t.tenantKey }), 404, "NOT_FOUND");
    expectProblem(await post("/auth/external/social_a/start", {}), 404, "NOT_FOUND");
  });

  test.each(["https://evil.example/", "//evil.example", "/\\evil", "relative", "/a\nb"])(
    "returns 400 naming returnTo for %p",
    async (returnTo) => {
      const p = expectProblem(await post("/auth/external/saml/start", { returnTo }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("returnTo");
    },
  );

  test("returns 400 for a tenantKey over 255 characters", async () => {
    const p = expectProblem(await post("/auth/external/saml/start", { tenantKey: "a".repeat(256) }), 400, "VALIDATION_FAILED");
    expect(p.errors[0].field).toBe("tenantKey");
  });
});

describe("GET /api/v1/auth/external/{provider}/callback — completeExternalSignIn", () => {
  test("a missing state is 400 naming state, with no redirect", async () => {
    const res = await s.call("GET", "/api/v1/auth/external/partner/callback?code=abc");
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.body.errors[0]).toMatchObject({ in: "query", field: "state" });
  });

  test("an unknown state is 400 naming state, with no redirect and no cookie", async () => {
    const res = await s.call("GET", "/api/v1/auth/external/partner/callback?state=forged&code=abc");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors[0].field).toBe("state");
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});
