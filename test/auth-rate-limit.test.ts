import { describe, expect, test } from "bun:test";
import { createRateLimiter } from "../src/platform/http/rate-limit";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

const s = useServer({ devCodes: true }, { LEARNSPACE_IP_RATE_LIMIT: "5" });

describe("per-IP rate limit on public auth operations (LEARNSPACE_IP_RATE_LIMIT=5)", () => {
  test("the sixth request in a minute gets 429 RATE_LIMITED with Retry-After, before validation", async () => {
    const t = await createTenantFixture(s.server);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const path = i % 2 ? "/api/v1/auth/sign-in/password" : `/api/v1/public/tenants/${t.tenantKey}/auth/identifier-lookup`;
      statuses.push((await s.call("POST", path, { json: { identifier: "x", password: "y", tenantKey: t.tenantKey } })).status);
    }
    expect(statuses).not.toContain(429);
    const limited = await s.call("POST", "/api/v1/auth/sign-up", { json: {} });
    expectProblem(limited, 429, "RATE_LIMITED");
    const wait = Number(limited.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });

  test("acceptInvitation (public, takes a token and a password) is limited too", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await s.call("POST", "/api/v1/public/invitations/no-such-token/accept", { json: { password: "Passw0rd!!" } })).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  test("session refresh, sign-out and tenant operations do not count", async () => {
    const t = await createTenantFixture(s.server);
    expect((await s.call("POST", "/api/v1/auth/session/sign-out")).status).toBe(204);
    expectProblem(await s.call("POST", "/api/v1/auth/session/refresh"), 401, "SESSION_EXPIRED");
    expect((await s.call("GET", "/api/v1/me", { token: t.token })).status).toBe(200);
  });
});

describe("per-IP rate limit on the public login page and SAML operations", () => {
  const own = useServer({}, { LEARNSPACE_IP_RATE_LIMIT: "3" });
  test("startSamlSignIn and consumeSamlAssertion count with the sign-in operations: the fourth gets 429", async () => {
    const t = await createTenantFixture(own.server);
    const base = `/api/v1/public/tenants/${t.tenantKey}`;
    expect((await own.call("GET", `${base}/saml/login`)).status).toBe(404);
    expect((await own.call("GET", `${base}/saml/login`)).status).toBe(404);
    expect((await own.call("POST", "/api/v1/auth/sign-in/password", { json: { identifier: "x", password: "y" } })).status).not.toBe(429);
    const form = new URLSearchParams({ SAMLResponse: "eA==", RelayState: "x" }).toString();
    const limited = await own.call("POST", `${base}/saml/acs`, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expectProblem(limited, 429, "RATE_LIMITED");
  });

  test("getPublicLoginPage and getSamlMetadata have their own budget of page loads: the fourth gets 429", async () => {
    const t = await createTenantFixture(own.server);
    const base = `/api/v1/public/tenants/${t.tenantKey}`;
    expect((await own.call("GET", `${base}/login-page`)).status).toBe(200);
    expect((await own.call("GET", `${base}/saml/metadata`)).status).toBe(200);
    expect((await own.call("GET", `${base}/login-page`)).status).toBe(200);
    expectProblem(await own.call("GET", `${base}/saml/metadata`), 429, "RATE_LIMITED");
    expectProblem(await own.call("GET", `${base}/login-page`), 429, "RATE_LIMITED");
  });
});

describe("createRateLimiter", () => {
  test("counts per key in a one-minute window; 0 turns it off", () => {
    const l = createRateLimiter(2);
    expect([l.hit("a", 0), l.hit("a", 1), l.hit("b", 1)]).toEqual([0, 0, 0]);
    expect(l.hit("a", 30_000)).toBe(30);
    expect(l.hit("a", 60_000)).toBe(0);
    const off = createRateLimiter(0);
    for (let i = 0; i < 100; i++) expect(off.hit("a", i)).toBe(0);
  });
});
