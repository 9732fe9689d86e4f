import { describe, expect, test } from "bun:test";
import { APP_CSP } from "../src/platform/http/security";
import { createTenantFixture, useServer } from "./helpers/server";

const s = useServer({ devCodes: true });
const cors = useServer({}, { LEARNSPACE_CORS_ORIGINS: "https://app.example.com", LEARNSPACE_PUBLIC_URL: "https://learn.example.com" });

const h = (res: { headers: Headers }, name: string) => res.headers.get(name);

describe("security headers", () => {
  test("every answer (JSON, problem, 404) is nosniff, no-referrer, unframeable, deny-all CSP, no-store", async () => {
    const owner = await createTenantFixture(s.server);
    const answers = [
      await s.as(owner).get("/me"),
      await s.anon("GET", "/me"),
      await s.call("GET", "/no/such/route"),
      await s.anon("POST", "/auth/sign-in/password", { identifier: "x@example.com", password: "wrong-password" }),
    ];
    for (const res of answers) {
      expect(h(res, "x-content-type-options")).toBe("nosniff");
      expect(h(res, "referrer-policy")).toBe("no-referrer");
      expect(h(res, "x-frame-options")).toBe("DENY");
      expect(h(res, "content-security-policy")).toContain("frame-ancestors 'none'");
      expect(h(res, "cache-control")).toBe("no-store");
      expect(h(res, "strict-transport-security")).toBeNull();
      expect(h(res, "access-control-allow-origin")).toBeNull();
    }
  });

  test("auth results are no-store", async () => {
    const up = await s.anon("POST", "/auth/sign-up", { email: "hdr@example.com", password: "Passw0rd!", displayName: "H" });
    const verified = await s.anon("POST", "/auth/sign-up/verify", { email: "hdr@example.com", code: up.body.devCode });
    expect(verified.status).toBe(200);
    expect(verified.body.accessToken).toBeString();
    expect(h(verified, "cache-control")).toBe("no-store");
  });

  test("the API reference page runs no inline script and may not be framed", async () => {
    const page = await fetch(`${s.url}/docs`);
    const html = await page.text();
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect((await fetch(`${s.url}/docs/assets/init.js`)).status).toBe(200);
    expect(APP_CSP).toContain("script-src 'self';");
    expect(APP_CSP).not.toContain("unsafe");
  });

  test("HSTS when the public URL is https", async () => {
    const res = await cors.call("GET", "/healthz");
    expect(h(res, "strict-transport-security")).toBe("max-age=31536000");
  });
});

describe("CORS", () => {
  test("off by default: no CORS headers for any origin, preflights are not granted", async () => {
    const res = await s.call("GET", "/healthz", { headers: { origin: "https://app.example.com" } });
    expect(h(res, "access-control-allow-origin")).toBeNull();
    const pre = await s.call("OPTIONS", "/api/v1/me", {
      headers: { origin: "https://app.example.com", "access-control-request-method": "GET" },
    });
    expect(h(pre, "access-control-allow-origin")).toBeNull();
  });

  test("opened only to LEARNSPACE_CORS_ORIGINS", async () => {
    const pre = await cors.call("OPTIONS", "/api/v1/me", {
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(pre.status).toBe(204);
    expect(h(pre, "access-control-allow-origin")).toBe("https://app.example.com");
    expect(h(pre, "access-control-allow-headers")).toContain("authorization");
    const get = await cors.call("GET", "/api/v1/me", { headers: { origin: "https://app.example.com" } });
    expect(h(get, "access-control-allow-origin")).toBe("https://app.example.com");
    expect(h(get, "vary")).toContain("Origin");
    const other = await cors.call("OPTIONS", "/api/v1/me", {
      headers: { origin: "https://evil.example.com", "access-control-request-method": "GET" },
    });
    expect(h(other, "access-control-allow-origin")).toBeNull();
    const otherGet = await cors.call("GET", "/api/v1/me", { headers: { origin: "https://evil.example.com" } });
    expect(h(otherGet, "access-control-allow-origin")).toBeNull();
  });
});
