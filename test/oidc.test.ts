import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { SignJWT, UnsecuredJWT } from "jose";
import { loadConfig } from "../src/config";
import { oidcStates } from "../src/modules/sso/platform-tables";
import { externalLinks } from "../src/modules/sso/tables";
import { members } from "../src/schema/members";
import { loginAtOp, startHostileOp, startOp } from "./helpers/oidc-op";
import { makeIdpKeyPair } from "./helpers/saml-idp";
import { createMemberFixture, createTenantFixture, expectProblem, fieldOf, useServer } from "./helpers/server";

const api = useServer({}, { LEARNSPACE_FETCH_ALLOW: "127.0.0.1,localhost" });
const PARTNER_SECRET = "partner-secret-0123456789";
const SOCIAL_SECRET = "social-secret-0123456789";
const HOSTILE_SECRET = "hostile-client-secret-0123456789abcdef";
let op: Awaited<ReturnType<typeof startOp>>;
let hostile: Awaited<ReturnType<typeof startHostileOp>>;
let tenant: Awaited<ReturnType<typeof createTenantFixture>>;
const logs: Record<string, unknown>[] = [];

const callbackOf = (key: string) => `${api.server.rt.config.publicUrl}/api/v1/auth/external/${key}/callback`;

async function setUpTenant(t: typeof tenant, partners: unknown[]) {
  const page = await api.as(t).get("/login-page-settings");
  expect(
    (await api.as(t).put("/login-page-settings", { ...page.body, methods: { email: true, partner: true, social_a: true } })).status,
  ).toBe(200);
  const res = await api.as(t).patch("/sso-settings", { partnerProviders: partners });
  expect(res.status).toBe(200);
  return res;
}

const acme = () => ({ key: "acme", labelEn: "Acme", oidc: { issuer: op.issuer, clientId: "ls-partner", clientSecret: PARTNER_SECRET } });
const evil = () => ({ key: "evil", oidc: { issuer: hostile.issuer, clientId: "ls-hostile", clientSecret: HOSTILE_SECRET } });

beforeAll(async () => {
  const rt = api.server.rt;
  rt.log = (line) => logs.push(line as Record<string, unknown>);
  op = await startOp([
    { client_id: "ls-partner", client_secret: PARTNER_SECRET, redirect_uris: [callbackOf("acme")] },
    { client_id: "ls-social", client_secret: SOCIAL_SECRET, redirect_uris: [callbackOf("social_a")] },
  ]);
  hostile = await startHostileOp("ls-hostile");
  rt.config.social = { social_a: { issuer: op.issuer, clientId: "ls-social", clientSecret: SOCIAL_SECRET } };
  tenant = await createTenantFixture(api.server);
  await setUpTenant(tenant, [acme(), evil()]);
});
afterAll(async () => {
  await op?.close();
  await hostile?.close();
});

/** startExternalSignIn: the provider's URL and the binding cookie (name=value) the browser keeps. */
async function start(provider: string, body: Record<string, unknown> = { tenantKey: tenant.tenantKey, returnTo: "/done?x=1" }) {
  const res = await api.anon("POST", `/auth/external/${provider}/start`, body);
  if (res.status !== 200) return { res, url: "", binding: "" };
  return { res, url: res.body.url as string, binding: res.headers.get("set-cookie")!.split(";")[0]! };
}

/** The browser arriving back at completeExternalSignIn with the OP's answer. */
async function callback(back: URL, cookie: string | null) {
  return api.call("GET", `${back.pathname}${back.search}`, { headers: cookie ? { cookie } : {} });
}

/** The whole flow as a browser: start, sign in at the OP as `login`, come back. */
async function signIn(provider: string, login: string, body?: Record<string, unknown>) {
  const started = await start(provider, body);
  expect(started.res.status).toBe(200);
  const back = await loginAtOp(started.url, login);
  const res = await callback(back, started.binding);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  return { res, location, error: location.searchParams.get("error"), back, binding: started.binding };
}

/** Who the refresh cookie of a sign-in belongs to (refreshSession). */
async function whoSignedIn(res: { headers: Headers }) {
  const session = res.headers.getSetCookie().find((c) => c.startsWith("lsp_session="));
  if (!session) return null;
  const refreshed = await api.call("POST", "/api/v1/auth/session/refresh", { headers: { cookie: session.split(";")[0]! } });
  expect(refreshed.status).toBe(200);
  return refreshed.body.user as { id: string; email: string; tenantKey: string; displayName: string };
}

const lastRefusal = () => logs.filter((l) => l.event === "oidc-refused").at(-1) as { code: string; reason: string } | undefined;

describe("updateSsoSettings — partnerProviders[].oidc", () => {
  test("the client secret is write-only, kept when omitted, and stored encrypted", async () => {
    const t = await createTenantFixture(api.server);
    const res = await setUpTenant(t, [acme()]);
    expect(res.body.partnerProviders[0].oidc).toEqual({
      issuer: op.issuer,
      clientId: "ls-partner",
      scopes: "openid email profile",
      clientSecretSet: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(PARTNER_SECRET);
    const kept = await api
      .as(t)
      .patch("/sso-settings", { partnerProviders: [{ key: "acme", oidc: { issuer: op.issuer, clientId: "ls-partner" } }] });
    expect(kept.body.partnerProviders[0].oidc.clientSecretSet).toBe(true);
    // The kept secret still works against the real OP.
    await createMemberFixture(api.server, t, { email: "kept@example.com" });
    op.accounts.set("kept", { email: "kept@example.com", email_verified: true });
    expect((await signIn("acme", "kept", { tenantKey: t.tenantKey })).error).toBeNull();
    const dir = join(api.server.dataDir, "tenants");
    for (const f of readdirSync(dir, { recursive: true }) as string[])
      if (f.endsWith(".sqlite")) expect(readFileSync(join(dir, f)).includes(PARTNER_SECRET)).toBe(false);
  });

  test.each([
    ["partnerProviders[0].oidc.issuer", { issuer: "http://idp.example.com", clientId: "c", clientSecret: "s" }],
    ["partnerProviders[0].oidc.issuer", { issuer: "not a url", clientId: "c", clientSecret: "s" }],
    ["partnerProviders[0].oidc.clientId", { issuer: "https://idp.example.com", clientId: "", clientSecret: "s" }],
    ["partnerProviders[0].oidc.clientId", { issuer: "https://idp.example.com", clientId: "c".repeat(256), clientSecret: "s" }],
    ["partnerProviders[0].oidc.clientSecret", { issuer: "https://idp.example.com", clientId: "c", clientSecret: "s".repeat(1001) }],
    ["partnerProviders[0].oidc.clientSecret", { issuer: "https://idp.example.com", clientId: "c" }],
    ["partnerProviders[0].oidc.scopes", { issuer: "https://idp.example.com", clientId: "c", clientSecret: "s", scopes: "email" }],
  ])("400 naming %s", async (field, oidc) => {
    const t = await createTenantFixture(api.server);
    expect(fieldOf(await api.as(t).patch("/sso-settings", { partnerProviders: [{ key: "p", oidc }] }))).toBe(field);
  });
});

describe("social providers and the login page", () => {
  test("LEARNSPACE_SOCIAL_A_* configures social_a only when all three are set", () => {
    const env = { LEARNSPACE_SOCIAL_A_ISSUER: "https://accounts.example", LEARNSPACE_SOCIAL_A_CLIENT_ID: "id" };
    expect(loadConfig([], env).social).toEqual({});
    expect(loadConfig([], { ...env, LEARNSPACE_SOCIAL_A_CLIENT_SECRET: "s" }).social).toEqual({
      social_a: { issuer: "https://accounts.example", clientId: "id", clientSecret: "s" },
    });
  });

  test("the public login page and the hosted page offer every available social and partner provider", async () => {
    const page = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/login-page`);
    expect(page.body.methods).toMatchObject({ social_a: true, social_b: false });
    expect(page.body.ssoProviders.map((p: { key: string }) => p.key)).toEqual(["acme", "evil"]);
    const html = await (await fetch(`${api.url}/t/${tenant.tenantKey}/login`)).text();
    for (const key of ["acme", "evil", "social_a"]) expect(html).toContain(`data-provider="${key}"`);
    expect(html).not.toContain('data-provider="social_b"');
  });

  test("a social issuer over plain http to a non-loopback host is not offered, and is logged", async () => {
    const rt = api.server.rt;
    const saved = rt.config.social;
    rt.config.social = { ...saved, social_b: { issuer: "http://accounts.example", clientId: "c", clientSecret: "s" } };
    try {
      expectProblem((await start("social_b", {})).res, 404, "NOT_FOUND");
      expect(logs.some((l) => l.event === "oidc-social-misconfigured" && l.provider === "social_b")).toBe(true);
    } finally {
      rt.config.social = saved;
    }
  });
});

describe("startExternalSignIn / completeExternalSignIn against a real OpenID Provider", () => {
  test("signs the member in by verified e-mail, links the account, and redirects with no token in the URL", async () => {
    const m = await createMemberFixture(api.server, tenant, { email: "Alice@Example.com" });
    op.accounts.set("alice", { email: "alice@example.com", email_verified: true, name: "Alice" });
    const started = await start("acme");
    const url = new URL(started.url);
    expect(url.origin).toBe(op.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "ls-partner",
      redirect_uri: callbackOf("acme"),
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    for (const p of ["state", "nonce", "code_challenge"]) expect(url.searchParams.get(p)).toBeTruthy();
    expect(started.res.headers.get("set-cookie")).toContain("HttpOnly");
    const done = await signIn("acme", "alice");
    expect(done.location.toString()).toBe(`${api.server.rt.config.publicUrl}/done?x=1`);
    const user = await whoSignedIn(done.res);
    expect(user).toMatchObject({ id: m.memberId, tenantKey: tenant.tenantKey });
    const links = api.server.rt.tenants.use(tenant.tenantId, (h) =>
      h.db.select().from(externalLinks).where(eq(externalLinks.memberId, m.memberId)).all(),
    );
    expect(links.map((l) => [l.provider, l.subject])).toEqual([["acme", "alice"]]);
  });

  test("the link survives an e-mail change at the IdP", async () => {
    const m = await createMemberFixture(api.server, tenant, { email: "bob@example.com" });
    op.accounts.set("bob", { email: "bob@example.com", email_verified: true });
    expect(await whoSignedIn((await signIn("acme", "bob")).res)).toMatchObject({ id: m.memberId });
    op.accounts.set("bob", { email: "robert@elsewhere.example", email_verified: true });
    const again = await signIn("acme", "bob");
    expect(again.error).toBeNull();
    expect(await whoSignedIn(again.res)).toMatchObject({ id: m.memberId, email: "bob@example.com" });
  });

  test("an unverified e-mail does not match a member: NOT_A_MEMBER", async () => {
    await createMemberFixture(api.server, tenant, { email: "carol@example.com" });
    op.accounts.set("carol", { email: "carol@example.com", email_verified: false });
    const done = await signIn("acme", "carol");
    expect(done.error).toBe("NOT_A_MEMBER");
    expect(done.res.headers.getSetCookie().some((c) => c.startsWith("lsp_session="))).toBe(false);
  });

  test("an unknown e-mail is NOT_A_MEMBER, or a new member with provisionMembers", async () => {
    op.accounts.set("dave", { email: "dave@example.com", email_verified: true, name: "Dave <D>" });
    expect((await signIn("acme", "dave")).error).toBe("NOT_A_MEMBER");
    expect((await api.as(tenant).patch("/sso-settings", { provisionMembers: true })).status).toBe(200);
    try {
      const done = await signIn("acme", "dave");
      expect(done.error).toBeNull();
      expect(await whoSignedIn(done.res)).toMatchObject({ email: "dave@example.com", displayName: "Dave D" });
    } finally {
      await api.as(tenant).patch("/sso-settings", { provisionMembers: false });
    }
  });

  test("a social provider never provisions", async () => {
    op.accounts.set("erin", { email: "erin@example.com", email_verified: true });
    await api.as(tenant).patch("/sso-settings", { provisionMembers: true });
    try {
      expect((await signIn("social_a", "erin")).error).toBe("NOT_A_MEMBER");
    } finally {
      await api.as(tenant).patch("/sso-settings", { provisionMembers: false });
    }
  });

  test("an inactive member is refused: MEMBER_INACTIVE", async () => {
    const m = await createMemberFixture(api.server, tenant, { email: "frank@example.com" });
    api.server.rt.tenants.use(tenant.tenantId, (h) =>
      h.db.update(members).set({ isActive: false }).where(eq(members.id, m.memberId)).run(),
    );
    op.accounts.set("frank", { email: "frank@example.com", email_verified: true });
    expect((await signIn("acme", "frank")).error).toBe("MEMBER_INACTIVE");
  });

  test("social_a signs in without tenantKey, in the member's only tenant", async () => {
    const t = await createTenantFixture(api.server);
    await setUpTenant(t, []);
    const m = await createMemberFixture(api.server, t, { email: "gina@example.com" });
    op.accounts.set("gina", { email: "gina@example.com", email_verified: true });
    const done = await signIn("social_a", "gina", { returnTo: "/" });
    expect(done.error).toBeNull();
    expect(await whoSignedIn(done.res)).toMatchObject({ id: m.memberId, tenantKey: t.tenantKey });
  });

  test("an SSO_ONLY tenant refuses non-SAML providers: 404 at start, SSO_ONLY at the callback", async () => {
    const t = await createTenantFixture(api.server);
    await setUpTenant(t, [acme()]);
    await createMemberFixture(api.server, t, { email: "hank@example.com" });
    op.accounts.set("hank", { email: "hank@example.com", email_verified: true });
    const started = await start("acme", { tenantKey: t.tenantKey });
    const back = await loginAtOp(started.url, "hank");
    const idp = makeIdpKeyPair();
    const sso = { enabled: true, idpSsoUrl: "https://idp.example.com/sso", idpEntityUrl: "https://idp.example.com", x509Cert: idp.certPem };
    expect((await api.as(t).patch("/sso-settings", { ...sso, allowedLoginMethods: "SSO_ONLY" })).status).toBe(200);
    const res = await callback(back, started.binding);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("SSO_ONLY");
    expectProblem((await start("acme", { tenantKey: t.tenantKey })).res, 404, "NOT_FOUND");
    expectProblem((await start("social_a", { tenantKey: t.tenantKey })).res, 404, "NOT_FOUND");
  });

  test("an error from the provider (access_denied) is SSO_FAILED", async () => {
    const started = await start("acme");
    const state = new URL(started.url).searchParams.get("state")!;
    const res = await api.call("GET", `/api/v1/auth/external/acme/callback?error=access_denied&state=${state}`, {
      headers: { cookie: started.binding },
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("SSO_FAILED");
    expect(lastRefusal()?.reason).toContain("access_denied");
  });

  test("a replayed or missing state is 400 naming state, with no redirect", async () => {
    await createMemberFixture(api.server, tenant, { email: "ivy@example.com" });
    op.accounts.set("ivy", { email: "ivy@example.com", email_verified: true });
    const done = await signIn("acme", "ivy");
    expect(done.error).toBeNull();
    const replay = await callback(done.back, done.binding);
    expect(fieldOf(replay)).toBe("state");
    const missing = await api.call("GET", "/api/v1/auth/external/acme/callback?code=abc");
    expect(fieldOf(missing)).toBe("state");
    expect(missing.headers.get("location")).toBeNull();
  });

  test("the callback without the binding cookie is SSO_FAILED", async () => {
    await createMemberFixture(api.server, tenant, { email: "jack@example.com" });
    op.accounts.set("jack", { email: "jack@example.com", email_verified: true });
    const started = await start("acme");
    const back = await loginAtOp(started.url, "jack");
    const res = await callback(back, null);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("SSO_FAILED");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("lsp_session="))).toBe(false);
  });

  test("an expired state is 400 naming state", async () => {
    const started = await start("acme");
    const state = new URL(started.url).searchParams.get("state")!;
    api.server.rt.platform.db
      .update(oidcStates)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(oidcStates.state, state))
      .run();
    const res = await api.call("GET", `/api/v1/auth/external/acme/callback?code=x&state=${state}`, {
      headers: { cookie: started.binding },
    });
    expect(fieldOf(res)).toBe("state");
  });

  test("discovery whose issuer differs from the configured one is refused at start: 503", async () => {
    const t = await createTenantFixture(api.server);
    // The same provider under another name: its metadata names 127.0.0.1, not localhost.
    const issuer = hostile.issuer.replace("127.0.0.1", "localhost");
    await setUpTenant(t, [{ key: "alias", oidc: { issuer, clientId: "ls-hostile", clientSecret: HOSTILE_SECRET } }]);
    expectProblem((await start("alias", { tenantKey: t.tenantKey })).res, 503, "PROVIDER_UNAVAILABLE");
    expect(logs.filter((l) => l.event === "oidc-provider-unavailable").at(-1)?.reason).toMatch(/issuer/);
  });

  test("an unreachable provider at start is 503 PROVIDER_UNAVAILABLE; an unknown one is 404", async () => {
    const t = await createTenantFixture(api.server);
    await setUpTenant(t, [{ key: "down", oidc: { issuer: "http://127.0.0.1:9", clientId: "c", clientSecret: "s" } }]);
    expectProblem((await start("down", { tenantKey: t.tenantKey })).res, 503, "PROVIDER_UNAVAILABLE");
    expectProblem((await start("nope", { tenantKey: t.tenantKey })).res, 404, "NOT_FOUND");
    expectProblem((await start("acme", {})).res, 404, "NOT_FOUND");
  });
});

describe("forged ID tokens from a hostile provider are SSO_FAILED", () => {
  let victim: Awaited<ReturnType<typeof createMemberFixture>>;
  beforeAll(async () => {
    victim = await createMemberFixture(api.server, tenant, { email: "victim@example.com" });
  });
  const mail = { email: "victim@example.com", email_verified: true };
  const now = () => Math.floor(Date.now() / 1000);

  async function attempt(forge: (c: Record<string, unknown>) => Promise<string>) {
    hostile.forge = forge;
    const started = await start("evil");
    const back = new URL((await fetch(started.url, { redirect: "manual" })).headers.get("location")!);
    const res = await callback(back, started.binding);
    return { res, error: new URL(res.headers.get("location")!).searchParams.get("error"), reason: lastRefusal()?.reason ?? "" };
  }

  test("control: a correct token signs in, also after a key rotation (unknown kid refetches the JWKS)", async () => {
    const ok = await attempt((c) => hostile.sign({ ...c, ...mail }));
    // Discovery is cached: further sign-ins do not fetch it again.
    const discoveries = hostile.discoveries;
    expect(discoveries).toBeGreaterThan(0);
    expect((await attempt((c) => hostile.sign({ ...c, ...mail }))).error).toBeNull();
    expect(hostile.discoveries).toBe(discoveries);
    expect(ok.error).toBeNull();
    expect(await whoSignedIn(ok.res)).toMatchObject({ id: victim.memberId });
    await hostile.rotate();
    expect((await attempt((c) => hostile.sign({ ...c, ...mail }))).error).toBeNull();
  });

  test.each([
    ["wrong nonce", (c: Record<string, unknown>) => hostile.sign({ ...c, ...mail, nonce: "other" }), /nonce/],
    ["wrong audience", (c: Record<string, unknown>) => hostile.sign({ ...c, ...mail, aud: "someone-else" }), /aud/],
    [
      "several audiences, azp another client",
      (c: Record<string, unknown>) => hostile.sign({ ...c, ...mail, aud: ["ls-hostile", "x"], azp: "x" }),
      /azp/,
    ],
    ["wrong issuer", (c: Record<string, unknown>) => hostile.sign({ ...c, ...mail, iss: "https://evil.example" }), /iss/],
    [
      "expired beyond the 2 min skew",
      (c: Record<string, unknown>) => hostile.sign({ ...c, ...mail, iat: now() - 900, exp: now() - 121 }),
      /exp/,
    ],
    [
      "issued in the future beyond the skew",
      (c: Record<string, unknown>) => hostile.sign({ ...c, ...mail, iat: now() + 600, exp: now() + 900 }),
      /iat/,
    ],
    ["alg none", async (c: Record<string, unknown>) => new UnsecuredJWT({ ...c, ...mail }).encode(), /alg|Unsupported|JWS/i],
    [
      "HS256 signed with the client secret",
      (c: Record<string, unknown>) =>
        new SignJWT({ ...c, ...mail }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(HOSTILE_SECRET)),
      /alg/i,
    ],
    [
      "signed by another key under the same kid",
      async (c: Record<string, unknown>) => {
        const { generateKeyPair } = await import("jose");
        const other = await generateKeyPair("RS256");
        const kid = JSON.parse(Buffer.from((await hostile.sign(c)).split(".")[0]!, "base64url").toString()).kid;
        return new SignJWT({ ...c, ...mail }).setProtectedHeader({ alg: "RS256", kid }).sign(other.privateKey);
      },
      /signature/i,
    ],
  ])("%s", async (_name, forge, reason) => {
    const r = await attempt(forge);
    expect(r.error).toBe("SSO_FAILED");
    expect(r.reason).toMatch(reason);
    expect(r.res.headers.getSetCookie().some((c) => c.startsWith("lsp_session="))).toBe(false);
  });
});
