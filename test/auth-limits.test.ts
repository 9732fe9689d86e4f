import { describe, expect, test } from "bun:test";
import { fresh } from "./helpers/auth";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

const s = useServer({ devCodes: true });
const post = (path: string, json: unknown) => s.call("POST", `/api/v1${path}`, { json });
const otherThan = (code: string) => (code === "000000" ? "111111" : "000000");

describe("one-time code brute force", () => {
  test("the fifth wrong try invalidates the code: even the right one then fails", async () => {
    const t = await createTenantFixture(s.server);
    const code = (await post("/auth/sign-in/request-code", { email: t.email })).body.devCode;
    for (let i = 0; i < 5; i++) {
      expectProblem(await post("/auth/sign-in/check-code", { email: t.email, code: otherThan(code) }), 400, "INVALID_CODE");
    }
    expectProblem(await post("/auth/sign-in/check-code", { email: t.email, code }), 400, "INVALID_CODE");
    expectProblem(await post("/auth/sign-in/code", { email: t.email, tenantKey: t.tenantKey, code }), 400, "INVALID_CODE");
  });

  test("four wrong tries leave the code usable", async () => {
    const t = await createTenantFixture(s.server);
    const code = (await post("/auth/sign-in/request-code", { email: t.email })).body.devCode;
    for (let i = 0; i < 4; i++) await post("/auth/sign-in/check-code", { email: t.email, code: otherThan(code) });
    expect((await post("/auth/sign-in/code", { email: t.email, tenantKey: t.tenantKey, code })).status).toBe(200);
  });

  test("an expired code is refused", async () => {
    const t = await createTenantFixture(s.server);
    const code = (await post("/auth/sign-in/request-code", { email: t.email })).body.devCode;
    s.server.rt.platform.sqlite.query("UPDATE one_time_codes SET expires_at = ? WHERE email = ?").run(Date.now() - 1, t.email);
    expectProblem(await post("/auth/sign-in/check-code", { email: t.email, code }), 400, "INVALID_CODE");
  });

  test("codes are stored only as keyed hashes", async () => {
    const t = await createTenantFixture(s.server);
    const code = (await post("/auth/sign-in/request-code", { email: t.email })).body.devCode;
    const row = s.server.rt.platform.sqlite.query("SELECT code_hash FROM one_time_codes WHERE email = ?").get(t.email) as {
      code_hash: string;
    };
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toHaveLength(43);
  });
});

describe("resend cooldown", () => {
  test("a second request within 60 s gets 429 RESEND_TOO_SOON with Retry-After, for known and unknown e-mails alike", async () => {
    const t = await createTenantFixture(s.server);
    for (const email of [t.email, fresh().email]) {
      const first = await post("/auth/password-reset/request-code", { email });
      expect(first.status).toBe(200);
      const again = await post("/auth/password-reset/request-code", { email });
      expectProblem(again, 429, "RESEND_TOO_SOON");
      const wait = Number(again.headers.get("retry-after"));
      expect(wait).toBeGreaterThanOrEqual(59);
      expect(wait).toBeLessThanOrEqual(60);
    }
  });

  test("each purpose and tenant has its own cooldown", async () => {
    const t = await createTenantFixture(s.server);
    expect((await post("/auth/sign-in/request-code", { email: t.email })).status).toBe(200);
    expect((await post("/auth/password-reset/request-code", { email: t.email })).status).toBe(200);
    expect((await post(`/public/tenants/${t.tenantKey}/auth/request-code`, { email: t.email })).status).toBe(200);
  });
});

describe("password lock-out", () => {
  test("five wrong passwords lock the member with 429 and Retry-After; the lock grows with further failures", async () => {
    const t = await createTenantFixture(s.server);
    const signIn = (password: string) => post("/auth/sign-in/password", { identifier: t.email, password, tenantKey: t.tenantKey });
    for (let i = 0; i < 5; i++) expectProblem(await signIn("Wrong-pass1"), 401, "INVALID_CREDENTIALS");
    const locked = await signIn(t.password);
    expectProblem(locked, 429, "RATE_LIMITED");
    const first = Number(locked.headers.get("retry-after"));
    expect(first).toBeGreaterThan(55);
    expect(first).toBeLessThanOrEqual(60);
    // The lock passes (moved in the data); one more failure locks for twice as long.
    const unlock = () =>
      s.server.rt.tenants.use(t.tenantId, (h) =>
        h.sqlite.query("UPDATE members SET locked_until = ? WHERE id = ?").run(Date.now() - 1, t.memberId),
      );
    unlock();
    expectProblem(await signIn("Wrong-pass1"), 401, "INVALID_CREDENTIALS");
    const second = Number((await signIn(t.password)).headers.get("retry-after"));
    expect(second).toBeGreaterThan(115);
    expect(second).toBeLessThanOrEqual(120);
    // A success after the lock resets the count.
    unlock();
    expect((await signIn(t.password)).status).toBe(200);
    expectProblem(await signIn("Wrong-pass1"), 401, "INVALID_CREDENTIALS");
    expect((await signIn(t.password)).status).toBe(200);
  });

  test("the lock-out is per member: another member of the tenant is not affected", async () => {
    const t = await createTenantFixture(s.server);
    for (let i = 0; i < 5; i++)
      await post("/auth/sign-in/password", { identifier: t.email, password: "Wrong-pass1", tenantKey: t.tenantKey });
    const other = await createTenantFixture(s.server);
    expect(
      (await post("/auth/sign-in/password", { identifier: other.email, password: other.password, tenantKey: other.tenantKey })).status,
    ).toBe(200);
  });
});
