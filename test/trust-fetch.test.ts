// Server-side fetches a tenant asked for (docs/rules/trust.md#server-side-fetches): public https
// only, private and loopback addresses refused unless LEARNSPACE_FETCH_ALLOW lists them, redirects
// checked again, and no request ever reaches a refused listener.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { FetchRefused, fetchProblem, guardedFetch } from "../src/platform/http/outbound";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

/** A listener that only counts what reaches it (the internal service an attacker aims at). */
function target() {
  const hits: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      hits.push(new URL(req.url).pathname);
      return Response.json({ keys: [], access_token: "x", token_type: "bearer", id_token: "x" });
    },
  });
  return { hits, server, url: `http://127.0.0.1:${server.port}` };
}

/** A partner IdP at http://localhost:PORT whose discovery names `internal` for its token endpoint and JWKS. */
function idp(internal: string) {
  let discoveries = 0;
  let issuer = "";
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req: Request): Response {
      const path = new URL(req.url).pathname;
      if (path === "/.well-known/openid-configuration") {
        discoveries++;
        return Response.json({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${internal}/token`,
          jwks_uri: `${internal}/metrics`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        });
      }
      if (path === "/redirect") return Response.redirect(`${internal}/after-redirect`, 302);
      return new Response("no", { status: 404 });
    },
  });
  issuer = `http://localhost:${server.port}`;
  return {
    server,
    issuer,
    get discoveries() {
      return discoveries;
    },
  };
}

async function partner(api: ReturnType<typeof useServer>, issuer: string) {
  const t = await createTenantFixture(api.server);
  const page = await api.as(t).get("/login-page-settings");
  expect((await api.as(t).put("/login-page-settings", { ...page.body, methods: { email: true, partner: true } })).status).toBe(200);
  const res = await api.as(t).patch("/sso-settings", {
    partnerProviders: [{ key: "corp", oidc: { issuer, clientId: "ls", clientSecret: "partner-secret-0123456789" } }],
  });
  expect(res.status).toBe(200);
  return t;
}

const start = (api: ReturnType<typeof useServer>, tenantKey: string) => api.anon("POST", "/auth/external/corp/start", { tenantKey });

describe("without LEARNSPACE_FETCH_ALLOW", () => {
  const api = useServer();
  const internal = target();
  afterAll(() => internal.server.stop(true));

  test("a loopback issuer is refused before any request: 503 PROVIDER_UNAVAILABLE, nothing reaches it", async () => {
    const t = await partner(api, internal.url);
    expectProblem(await start(api, t.tenantKey), 503, "PROVIDER_UNAVAILABLE");
    expect(internal.hits).toEqual([]);
  });
});

describe("with the IdP's host listed (LEARNSPACE_FETCH_ALLOW=localhost)", () => {
  const api = useServer({}, { LEARNSPACE_FETCH_ALLOW: "localhost" });
  const internal = target();
  const provider = idp(internal.url);
  afterAll(() => {
    internal.server.stop(true);
    provider.server.stop(true);
  });

  test("discovery works; its token endpoint and jwks_uri at 127.0.0.1 are refused at the callback: SSO_FAILED, no request reaches them", async () => {
    const t = await partner(api, provider.issuer);
    const started = await start(api, t.tenantKey);
    expect(started.status).toBe(200);
    expect(provider.discoveries).toBe(1);
    const state = new URL(started.body.url).searchParams.get("state");
    const cookie = started.headers.get("set-cookie")?.split(";")[0] ?? "";
    const back = await api.call("GET", `/api/v1/auth/external/corp/callback?code=abc&state=${state}`, { headers: { cookie } });
    expect(new URL(back.headers.get("location") ?? "", "http://x").searchParams.get("error")).toBe("SSO_FAILED");
    expect(internal.hits).toEqual([]);
  });
});

describe("the guard itself", () => {
  const internal = target();
  const provider = idp(internal.url);
  afterAll(() => {
    internal.server.stop(true);
    provider.server.stop(true);
  });
  const resolveTo = (address: string) => async () => [address];

  test("refuses non-public and own addresses, names that resolve to them, http and credentials", async () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "2002:7f00:1::1",
      "64:ff9b::a00:1",
    ]) {
      const literal = address.includes(":") ? `[${address}]` : address;
      expect(await fetchProblem(new URL(`https://${literal}/x`), [])).toMatch(/not public/);
      expect(await fetchProblem(new URL("https://idp.example/x"), [], resolveTo(address))).toMatch(/not public/);
    }
    const own = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .find((i) => i.family === "IPv4")?.address as string;
    expect(await fetchProblem(new URL("https://idp.example/x"), [], resolveTo(own))).not.toBeNull();
    expect(await fetchProblem(new URL("https://idp.example/x"), [], resolveTo("93.184.215.14"))).toBeNull();
    expect(await fetchProblem(new URL("http://idp.example/x"), [], resolveTo("93.184.215.14"))).toMatch(/https only/);
    expect(await fetchProblem(new URL("https://u:p@idp.example/x"), [], resolveTo("93.184.215.14"))).toMatch(/credentials/);
    expect(await fetchProblem(new URL("file:///etc/passwd"), [])).toMatch(/https only/);
  });

  test("LEARNSPACE_FETCH_ALLOW: a listed host or address may be private and use http; a listed CIDR admits what resolves into it", async () => {
    expect(await fetchProblem(new URL("http://idp.school.internal/x"), ["idp.school.internal"], resolveTo("10.20.0.5"))).toBeNull();
    expect(await fetchProblem(new URL("https://idp.school.internal/x"), ["10.20.0.0/16"], resolveTo("10.20.0.5"))).toBeNull();
    expect(await fetchProblem(new URL("https://idp.school.internal/x"), ["10.20.0.0/16"], resolveTo("10.21.0.5"))).toMatch(/not public/);
    expect(await fetchProblem(new URL("http://idp.school.internal/x"), ["10.20.0.0/16"], resolveTo("10.20.0.5"))).toMatch(/https only/);
    expect(await fetchProblem(new URL("http://10.20.0.5/x"), ["10.20.0.0/16"])).toBeNull();
  });

  test("a redirect to a refused address is checked again: FetchRefused, nothing reaches it", async () => {
    const fetcher = guardedFetch(["localhost"]);
    await expect(fetcher(`${provider.issuer}/redirect`)).rejects.toBeInstanceOf(FetchRefused);
    expect(internal.hits).toEqual([]);
    // With redirect "manual" (openid-client, jose) the 3xx comes back unfollowed.
    const manual = await fetcher(`${provider.issuer}/redirect`, { redirect: "manual" });
    expect(manual.status).toBe(302);
    expect(internal.hits).toEqual([]);
  });
});

/** A self-signed certificate for the name `localhost` (openssl CLI). */
function localhostCert() {
  const dir = mkdtempSync(join(tmpdir(), "learnspace-tls-"));
  try {
    const args = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2", "-subj", "/CN=localhost"];
    const res = Bun.spawnSync([
      "openssl",
      ...args,
      "-addext",
      "subjectAltName=DNS:localhost",
      "-keyout",
      join(dir, "k"),
      "-out",
      join(dir, "c"),
    ]);
    if (res.exitCode !== 0) throw new Error(`openssl failed: ${res.stderr.toString()}`);
    return { cert: readFileSync(join(dir, "c"), "utf8"), key: readFileSync(join(dir, "k"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("DNS rebinding (docs/rules/trust.md#server-side-fetches)", () => {
  const tls = localhostCert();
  const hits: string[] = [];
  // The address the check admits (a listed CIDR) and, on the same port, the internal service a
  // second DNS answer would point at.
  const checked = Bun.serve({
    port: 0,
    hostname: "127.0.0.2",
    tls,
    fetch(req) {
      hits.push(`checked ${req.headers.get("host")} ${new URL(req.url).pathname}`);
      return Response.json({ keys: [] });
    },
  });
  const internal = Bun.serve({
    port: checked.port,
    hostname: "127.0.0.1",
    tls,
    fetch(req) {
      hits.push(`internal ${new URL(req.url).pathname}`);
      return new Response("secret");
    },
  });
  afterAll(() => {
    checked.stop(true);
    internal.stop(true);
  });

  test("the connection goes to the address that was checked, with the host's name in Host and TLS; a second answer is never asked for", async () => {
    const answers: string[][] = [["127.0.0.2"], ["127.0.0.1"]];
    let lookups = 0;
    const rebinding = async () => answers[Math.min(lookups++, 1)] as string[];
    const fetcher = guardedFetch(["127.0.0.2/32"], rebinding);
    // `localhost` is what the system resolver answers 127.0.0.1 (or ::1) for: fetching the name
    // again after the check would reach the internal listener.
    const res = await fetcher(`https://localhost:${checked.port}/jwks`, { tls: { ca: tls.cert } } as RequestInit);
    expect(res.status).toBe(200);
    expect(hits).toEqual([`checked localhost:${checked.port} /jwks`]);
    expect(lookups).toBe(1);
    // The next fetch checks again: the new answer (127.0.0.1) is refused before any connection.
    await expect(fetcher(`https://localhost:${checked.port}/jwks`, { tls: { ca: tls.cert } } as RequestInit)).rejects.toBeInstanceOf(
      FetchRefused,
    );
    expect(hits).toHaveLength(1);
  });

  test("the certificate is still verified against the host's name, not the address", async () => {
    const fetcher = guardedFetch(["127.0.0.2/32"], async () => ["127.0.0.2"]);
    // A trusted certificate for `localhost` does not do for `idp.example` pinned to the same address.
    await expect(fetcher(`https://idp.example:${checked.port}/jwks`, { tls: { ca: tls.cert } } as RequestInit)).rejects.toThrow(/ALTNAME/);
    expect(hits.filter((h) => h.includes("idp.example") || h.startsWith("internal"))).toEqual([]);
  });
});
