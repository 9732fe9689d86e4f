import { describe, expect, test } from "bun:test";
import { createTenantFixture, eventually, useServer } from "./helpers/server";

const direct = useServer({}, { LEARNSPACE_IP_RATE_LIMIT: "2" });
const proxied = useServer({}, { LEARNSPACE_IP_RATE_LIMIT: "2", LEARNSPACE_TRUSTED_PROXIES: "127.0.0.1, ::1, 10.0.0.0/8" });

type Api = typeof direct;
const signUp = (api: Api, forwardedFor?: string) =>
  api.call("POST", "/api/v1/auth/sign-up", { json: {}, headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });

/** The log lines of the requests `fn` makes; the last one's line is awaited (logged after the response). */
async function logged(api: Api, fn: () => Promise<{ headers: Headers }>) {
  const lines: Record<string, unknown>[] = [];
  const rt = api.server.rt;
  const log = rt.log;
  rt.log = (line) => lines.push(line as Record<string, unknown>);
  try {
    const last = (await fn()).headers.get("x-request-id");
    await eventually(() => lines.some((l) => l.requestId === last));
  } finally {
    rt.log = log;
  }
  return lines;
}

describe("LEARNSPACE_TRUSTED_PROXIES", () => {
  test("without it, X-Forwarded-For is never believed: every client of one peer shares its budget", async () => {
    const statuses = [];
    for (const ip of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) statuses.push((await signUp(direct, ip)).status);
    expect(statuses).toEqual([400, 400, 429]);
  });

  test("from a trusted proxy, each forwarded client has its own budget", async () => {
    const statuses = [];
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.1", "198.51.100.1"])
      statuses.push((await signUp(proxied, ip)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });

  test("the client is the rightmost address that is not a trusted proxy; a forged left part does not help", async () => {
    const lines = await logged(proxied, () => signUp(proxied, "1.2.3.4, 198.51.100.9, 10.1.2.3"));
    expect(lines.at(-1)?.client).toBe("198.51.100.9");
  });
});

describe("access log lines", () => {
  test("carry the client address, tenant and member", async () => {
    const owner = await createTenantFixture(direct.server);
    const lines = await logged(direct, () => direct.as(owner).get("/me"));
    expect(lines.at(-1)).toMatchObject({ route: "/api/v1/me", status: 200, tenantId: owner.tenantId, memberId: owner.memberId });
    expect(String(lines.at(-1)?.client)).toMatch(/127\.0\.0\.1|::1/);
  });

  test("an incoming X-Request-Id is kept when it is a sane token, replaced otherwise", async () => {
    const sane = await direct.call("GET", "/api/v1/me", { headers: { "x-request-id": "edge-4f2a.9b:01" } });
    expect(sane.headers.get("x-request-id")).toBe("edge-4f2a.9b:01");
    expect(sane.body.requestId ?? sane.headers.get("x-request-id")).toBe("edge-4f2a.9b:01");
    for (const bad of ["has space", "x".repeat(200), "<script>", "\u00e9t\u00e9"]) {
      const res = await direct.call("GET", "/api/v1/me", { headers: { "x-request-id": encodeURI(bad) === bad ? bad : "a b" } });
      expect(res.headers.get("x-request-id")).not.toBe(bad);
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test("/healthz and /readyz are not logged when they succeed", async () => {
    const lines = await logged(direct, async () => {
      await direct.call("GET", "/healthz");
      await direct.call("GET", "/readyz");
      return direct.call("GET", "/openapi.json");
    });
    expect(lines.map((l) => l.route).filter((r) => r !== "/api/v1/me")).toEqual(["/openapi.json"]);
  });
});
