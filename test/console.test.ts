import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consoleModule } from "../src/modules/console";
import { createTenantFixture, useServer } from "./helpers/server";

const s = useServer();
const get = (path: string) => fetch(new URL(path, s.url));

describe("GET / — the web console", () => {
  test("serves an HTML page at / and at client routes, under a CSP without inline scripts", async () => {
    for (const path of ["/", "/members", "/roles?tab=grants"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      const csp = res.headers.get("content-security-policy");
      if (csp) expect(csp).toContain("script-src 'self';");
    }
  });

  test("leaves the API, docs, hosted pages and probes their own answers", async () => {
    const deep = await get("/no/such/path/123");
    expect(deep.status).toBe(404);
    expect(deep.headers.get("content-type")).toContain("application/problem+json");
    expect((await get("/api")).status).toBe(404);
    const api = await get("/api/v1/no-such-route");
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toContain("application/problem+json");
    expect((await get("/api/v1/members")).status).toBe(401);
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/openapi.json")).headers.get("content-type")).toContain("application/json");
    const hosted = await get("/t/no-such-school/login");
    expect(hosted.status).toBe(404);
    expect(await hosted.text()).not.toContain('id="root"');
  });

  test("a missing asset is 404, not the app page", async () => {
    expect((await get("/assets/missing-abc123.js")).status).toBe(404);
  });
});

describe("consoleModule over a built web/dist", () => {
  const dist = mkdtempSync(join(tmpdir(), "learnspace-web-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(
    join(dist, "index.html"),
    '<!doctype html><meta name="csp-nonce" content="__CSP_NONCE__"><div id="root"></div><script type="module" src="/assets/index-Ab12.js"></script>',
  );
  writeFileSync(join(dist, "assets", "index-Ab12.js"), "console.log(1)");
  // What scripts/compress-web.ts leaves beside a text asset.
  const big = `export const words = [${'"learnspace",'.repeat(400)}];`;
  writeFileSync(join(dist, "assets", "app-Cd34.js"), big);
  writeFileSync(join(dist, "assets", "app-Cd34.js.br"), Bun.gzipSync(big)); // content irrelevant: which file is served is the point
  writeFileSync(join(dist, "assets", "app-Cd34.js.gz"), Bun.gzipSync(big));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));
  const app = consoleModule(dist);
  const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));

  test("hashed assets are cached for a year as immutable", async () => {
    const res = await get("/assets/index-Ab12.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await res.text()).toBe("console.log(1)");
  });

  test("index.html answers every client route, never cached, with the strict CSP", async () => {
    for (const path of ["/", "/members", "/invitations?status=pending"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('id="root"');
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const csp = res.headers.get("content-security-policy") ?? "";
      // Radix's scroll-lock style tag is allowed by this response's nonce, handed to the app in a meta tag.
      const nonce = html.match(/name="csp-nonce" content="([^"]+)"/)?.[1] ?? "";
      expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).toContain("frame-ancestors 'none'");
    }
  });
  test("a precompressed asset is served by Accept-Encoding: brotli first, then gzip, else the plain file; Vary says so", async () => {
    const br = await get("/assets/app-Cd34.js", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.headers.get("content-type")).toStartWith("text/javascript");
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const gz = await get("/assets/app-Cd34.js", { "accept-encoding": "gzip, br;q=0" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer())).length).toBeGreaterThan(1000);
    const plain = await get("/assets/app-Cd34.js", { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect((await plain.text()).startsWith("export const words")).toBe(true);
    // A file without variants neither varies nor encodes.
    const small = await get("/assets/index-Ab12.js", { "accept-encoding": "br, gzip" });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(small.headers.get("vary")).toBeNull();
  });
});

describe("GET /t/{tenantKey}/login — hand-over to the console", () => {
  test("the sign-in forms go on to the console at / after signing in; the invitation form does not", async () => {
    const owner = await createTenantFixture(s.server);
    const login = await (await get(`/t/${owner.tenantKey}/login`)).text();
    expect(login).toContain('data-path="/auth/sign-in/password"');
    expect(login).toMatch(/data-path="\/auth\/sign-in\/password"[^>]*data-next="\/"/);
    const invitation = await (await get(`/t/${owner.tenantKey}/invitation?token=x`)).text();
    expect(invitation).not.toContain("data-next");
  });
});
