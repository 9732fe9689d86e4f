import { beforeAll, describe, expect, test } from "bun:test";
import { inflateRawSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { SignedXml } from "xml-crypto";
import { members } from "../src/schema/members";
import type { Tenant } from "./helpers/fixture";
import { makeIdpKeyPair } from "./helpers/saml-idp";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();
const idp = makeIdpKeyPair("idp");
const rogue = makeIdpKeyPair("rogue");
const IDP_ENTITY = "https://idp.example.com/entity";
const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

let tenant: Tenant;
let member: Awaited<ReturnType<typeof createMemberFixture>>;
let sp: { spAcsUrl: string; spEntityId: string };

beforeAll(async () => {
  tenant = await createTenantFixture(api.server);
  member = await createMemberFixture(api.server, tenant, { email: "Sso.Person@Example.com" });
  const res = await api.call("PATCH", "/api/v1/sso-settings", {
    token: tenant.token,
    json: {
      enabled: true,
      idpSsoUrl: "https://idp.example.com/sso?tenant=x",
      idpEntityUrl: IDP_ENTITY,
      x509Cert: idp.certPem,
      attributeMappings: [{ fieldId: "affiliation", samlAttribute: "dept" }],
    },
  });
  expect(res.status).toBe(200);
  sp = { spAcsUrl: res.body.spAcsUrl, spEntityId: res.body.spEntityId };
});

/** The RelayState binding cookie (name=value) each started sign-in got: the browser sends it back to the ACS. */
const bindings = new Map<string, string>();

/** Starts a sign-in and returns the RelayState and the AuthnRequest ID the IdP would answer. */
async function start(t: Tenant = tenant, query = "?returnTo=/home%3Ftab%3D1&sessionType=personal") {
  const res = await api.call("GET", `/api/v1/public/tenants/${t.tenantKey}/saml/login${query}`);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  const request = inflateRawSync(Buffer.from(location.searchParams.get("SAMLRequest")!, "base64")).toString("utf8");
  const relayState = location.searchParams.get("RelayState")!;
  const setCookie = res.headers.get("set-cookie")!;
  bindings.set(relayState, setCookie.split(";")[0]!);
  return { relayState, requestId: /ID="([^"]+)"/.exec(request)![1]!, location, request, setCookie };
}

type Build = {
  requestId: string;
  nameId?: string;
  audience?: string;
  recipient?: string;
  issuer?: string;
  notOnOrAfter?: number;
  status?: string;
  attributes?: Record<string, string>;
  assertionId?: string;
};

function responseXml(b: Build) {
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const until = b.notOnOrAfter ?? now + 5 * 60_000;
  const attrs = Object.entries(b.attributes ?? {})
    .map(([k, v]) => `<saml:Attribute Name="${k}"><saml:AttributeValue>${v}</saml:AttributeValue></saml:Attribute>`)
    .join("");
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${crypto.randomUUID().replace(/-/g, "")}" Version="2.0" IssueInstant="${iso(now)}" Destination="${sp.spAcsUrl}" InResponseTo="${b.requestId}">` +
    `<saml:Issuer>${b.issuer ?? IDP_ENTITY}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${b.status ?? "urn:oasis:names:tc:SAML:2.0:status:Success"}"/></samlp:Status>` +
    `<saml:Assertion ID="${b.assertionId ?? `_a${crypto.randomUUID().replace(/-/g, "")}`}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${b.issuer ?? IDP_ENTITY}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${b.nameId ?? "sso.person@example.com"}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${b.requestId}" Recipient="${b.recipient ?? sp.spAcsUrl}" NotOnOrAfter="${iso(until)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(now - 60_000)}" NotOnOrAfter="${iso(until)}"><saml:AudienceRestriction><saml:Audience>${b.audience ?? sp.spEntityId}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : "") +
    `</saml:Assertion></samlp:Response>`
  );
}

function sign(xml: string, what: "Assertion" | "Response", key = idp.keyPem) {
  const sig = new SignedXml({ privateKey: key, signatureAlgorithm: RSA_SHA256, canonicalizationAlgorithm: EXC_C14N });
  sig.addReference({ xpath: `//*[local-name(.)='${what}']`, digestAlgorithm: SHA256, transforms: [ENVELOPED, EXC_C14N] });
  sig.computeSignature(xml, {
    prefix: "ds",
    location: { reference: `//*[local-name(.)='${what}']/*[local-name(.)='Issuer']`, action: "after" },
  });
  return sig.getSignedXml();
}

/** Posts to the ACS with the binding cookie of that RelayState's sign-in, unless `cookie` says otherwise. */
async function post(relayState: string | undefined, xml: string | undefined, t: Tenant = tenant, cookie?: string | null) {
  const form = new URLSearchParams();
  if (xml !== undefined) form.set("SAMLResponse", Buffer.from(xml).toString("base64"));
  if (relayState !== undefined) form.set("RelayState", relayState);
  const sent = cookie === undefined ? relayState && bindings.get(relayState) : cookie;
  return api.call("POST", `/api/v1/public/tenants/${t.tenantKey}/saml/acs`, {
    headers: { "content-type": "application/x-www-form-urlencoded", ...(sent ? { cookie: sent } : {}) },
    body: form.toString(),
  });
}

/** The log lines written while fn ran. */
const logged: Record<string, unknown>[] = [];
async function withLog<T>(fn: () => Promise<T>): Promise<T> {
  const rt = api.server.rt;
  const log = rt.log;
  rt.log = (line) => logged.push(line as Record<string, unknown>);
  try {
    return await fn();
  } finally {
    rt.log = log;
  }
}
const lastLog = (event: string) => logged.filter((l) => l.event === event).at(-1) as { reason: string } | undefined;

const errorOf = (res: { headers: Headers }) => new URL(res.headers.get("location")!).searchParams.get("error");

describe("GET /api/v1/public/tenants/{tenantKey}/saml/metadata — getSamlMetadata", () => {
  test("returns SP metadata with the entity id and the POST ACS", async () => {
    const res = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/saml/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/samlmetadata+xml");
    expect(res.body).toContain(`entityID="${sp.spEntityId}"`);
    expect(res.body).toContain(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${sp.spAcsUrl}"`);
  });

  test("is served while SSO is disabled", async () => {
    const other = await createTenantFixture(api.server);
    expect((await api.call("GET", `/api/v1/public/tenants/${other.tenantKey}/saml/metadata`)).status).toBe(200);
  });

  test("returns 404 for an unknown tenantKey", async () => {
    expectProblem(await api.call("GET", "/api/v1/public/tenants/no-such-tenant/saml/metadata"), 404, "NOT_FOUND");
  });
});

describe("GET /api/v1/public/tenants/{tenantKey}/saml/login — startSamlSignIn", () => {
  test("redirects to the IdP with a deflated AuthnRequest and a RelayState", async () => {
    const { location, request, relayState } = await start();
    expect(`${location.origin}${location.pathname}`).toBe("https://idp.example.com/sso");
    expect(location.searchParams.get("tenant")).toBe("x");
    expect(relayState.length).toBeGreaterThan(20);
    expect(request).toContain(`AssertionConsumerServiceURL="${sp.spAcsUrl}"`);
    expect(request).toContain(`<saml:Issuer>${sp.spEntityId}</saml:Issuer>`);
    // It asks for the NameID format the SP metadata advertises.
    expect(request).toContain('<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"');
  });

  test.each(["https://evil.example.com/", "//evil.example.com", "/\\evil", "home", "/a\nb", "/a\tb"])(
    "returns 400 for returnTo %s",
    async (returnTo) => {
      const res = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/saml/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect(expectProblem(res, 400, "VALIDATION_FAILED").errors[0].field).toBe("returnTo");
    },
  );

  test("returns 400 for a bad sessionType", async () => {
    const res = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/saml/login?sessionType=forever`);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors[0].field).toBe("sessionType");
  });

  test("returns 404 while SSO is disabled or unconfigured, and for an unknown tenant", async () => {
    const other = await createTenantFixture(api.server);
    expectProblem(await api.call("GET", `/api/v1/public/tenants/${other.tenantKey}/saml/login`), 404, "NOT_FOUND");
    await api.call("PATCH", "/api/v1/sso-settings", { token: other.token, json: { enabled: true } });
    expectProblem(await api.call("GET", `/api/v1/public/tenants/${other.tenantKey}/saml/login`), 404, "NOT_FOUND");
    expectProblem(await api.call("GET", "/api/v1/public/tenants/no-such-tenant/saml/login"), 404, "NOT_FOUND");
  });
});

describe("POST /api/v1/public/tenants/{tenantKey}/saml/acs — consumeSamlAssertion", () => {
  test("signs the member in: 303 to returnTo with the refresh cookie", async () => {
    const { relayState, requestId } = await start();
    const res = await post(relayState, sign(responseXml({ requestId, attributes: { dept: "Sales" } }), "Assertion"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${api.server.rt.config.publicUrl}/home?tab=1`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("lsp_session="))!;
    expect(cookie).toBeDefined();
    expect(cookie).toContain("Path=/api/v1/auth/session");
    expect(cookie).toContain("HttpOnly");
    // The cookie is a real session of this member.
    const refreshed = await api.call("POST", "/api/v1/auth/session/refresh", { headers: { cookie: cookie.split(";")[0]! } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user).toMatchObject({ id: member.memberId, tenantKey: tenant.tenantKey });
    // attributeMappings refreshed the mapped column.
    const row = api.server.rt.tenants.use(tenant.tenantId, (h) => h.db.select().from(members).where(eq(members.id, member.memberId)).get());
    expect(row?.affiliation).toBe("Sales");
    expect(row?.lastLoginAt).not.toBeNull();
  });

  test("binds the RelayState to the browser that started: a missing or another sign-in's cookie is SSO_FAILED", async () => {
    const s = await start();
    // The binding cookie: short-lived, HttpOnly, scoped to the ACS, Lax over plain http.
    expect(s.setCookie).toMatch(/^lsp_saml_[\w-]+=[\w-]+; /);
    expect(s.setCookie).toContain(`Path=${new URL(sp.spAcsUrl).pathname}`);
    expect(s.setCookie).toContain("Max-Age=600");
    expect(s.setCookie).toContain("HttpOnly");
    expect(s.setCookie).toContain("SameSite=Lax");
    const xml = sign(responseXml({ requestId: s.requestId }), "Assertion");
    let res = await withLog(() => post(s.relayState, xml, tenant, null));
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBe("SSO_FAILED");
    // Over plain http the log line says why the cookie is missing and what to do.
    expect(lastLog("saml-refused")?.reason).toContain("over plain http the binding cookie is SameSite=Lax");
    expect(lastLog("saml-refused")?.reason).toContain("https");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("lsp_session="))).toBe(false);
    // An attacker's own sign-in cookie does not fit the victim's RelayState, not even under the victim's cookie name.
    const attacker = await start();
    const [attackerName, attackerHash] = bindings.get(attacker.relayState)!.split("=");
    for (const underVictimName of [false, true]) {
      const victim = await start();
      const victimName = bindings.get(victim.relayState)!.split("=")[0];
      const cookie = `${underVictimName ? victimName : attackerName}=${attackerHash}`;
      res = await post(victim.relayState, sign(responseXml({ requestId: victim.requestId }), "Assertion"), tenant, cookie);
      expect(errorOf(res)).toBe("SSO_FAILED");
    }
    // With its own cookie a sign-in succeeds, and the answer clears the binding cookie.
    const own = await start();
    const name = bindings.get(own.relayState)!.split("=")[0];
    res = await post(own.relayState, sign(responseXml({ requestId: own.requestId }), "Assertion"));
    expect(errorOf(res)).toBeNull();
    expect(res.headers.getSetCookie()).toContainEqual(expect.stringMatching(new RegExp(`^${name}=; .*Max-Age=0`)));
  });

  test("accepts a signature on the Response only, and on both", async () => {
    let s = await start();
    expect(errorOf(await post(s.relayState, sign(responseXml({ requestId: s.requestId }), "Response")))).toBeNull();
    s = await start();
    const both = sign(sign(responseXml({ requestId: s.requestId }), "Assertion"), "Response");
    const res = await post(s.relayState, both);
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBeNull();
  });

  test("uses the RelayState up: a second post gets 400", async () => {
    const { relayState, requestId } = await start();
    const xml = sign(responseXml({ requestId }), "Assertion");
    expect((await post(relayState, xml)).status).toBe(303);
    const again = await post(relayState, xml);
    expect(expectProblem(again, 400, "VALIDATION_FAILED").errors[0].field).toBe("RelayState");
  });

  test("returns 400 for a missing or unknown RelayState, and 404 for an unknown tenant", async () => {
    const { requestId } = await start();
    const xml = sign(responseXml({ requestId }), "Assertion");
    expect(expectProblem(await post(undefined, xml), 400, "VALIDATION_FAILED").errors[0].field).toBe("RelayState");
    expect(expectProblem(await post("nope", xml), 400, "VALIDATION_FAILED").errors[0].field).toBe("RelayState");
    expect(expectProblem(await post("x", undefined), 400, "VALIDATION_FAILED").errors[0].field).toBe("SAMLResponse");
    const form = new URLSearchParams({ SAMLResponse: "eA==", RelayState: "x" }).toString();
    const res = await api.call("POST", "/api/v1/public/tenants/no-such-tenant/saml/acs", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expectProblem(res, 404, "NOT_FOUND");
  });

  const failures: [string, (requestId: string) => string][] = [
    ["an unsigned response", (id) => responseXml({ requestId: id })],
    ["a signature by another key", (id) => sign(responseXml({ requestId: id }), "Assertion", rogue.keyPem)],
    [
      "a NameID changed after signing",
      (id) => sign(responseXml({ requestId: id }), "Assertion").replace("sso.person@example.com", "owner@example.com"),
    ],
    ["a wrong audience", (id) => sign(responseXml({ requestId: id, audience: "https://other-sp" }), "Assertion")],
    ["a wrong recipient", (id) => sign(responseXml({ requestId: id, recipient: "https://other-sp/acs" }), "Assertion")],
    ["a wrong issuer", (id) => sign(responseXml({ requestId: id, issuer: "https://evil-idp" }), "Assertion")],
    ["a wrong InResponseTo", (id) => sign(responseXml({ requestId: `${id}x` }), "Assertion")],
    ["an expired assertion", (id) => sign(responseXml({ requestId: id, notOnOrAfter: Date.now() - 5 * 60_000 }), "Assertion")],
    ["a failure status", (id) => sign(responseXml({ requestId: id, status: "urn:oasis:names:tc:SAML:2.0:status:Requester" }), "Assertion")],
    [
      "a wrapped second assertion",
      (id) => {
        const signed = sign(responseXml({ requestId: id }), "Assertion");
        const evil = responseXml({ requestId: id, nameId: tenant.email }).match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0];
        return signed.replace("</samlp:Response>", `${evil}</samlp:Response>`);
      },
    ],
    [
      "a signed assertion moved under an unsigned one",
      (id) => {
        const signedAssertion = sign(responseXml({ requestId: id }), "Assertion").match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0];
        const evil = responseXml({ requestId: id, nameId: tenant.email });
        return evil.replace("</saml:Assertion>", `<saml:Advice>${signedAssertion}</saml:Advice></saml:Assertion>`);
      },
    ],
    ["a DTD", (id) => `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "x">]>${sign(responseXml({ requestId: id }), "Assertion")}`],
    ["not XML", () => "garbage"],
  ];
  test.each(failures)("refuses %s with error=SSO_FAILED and no cookie", async (_name, build) => {
    const { relayState, requestId } = await start();
    const res = await post(relayState, build(requestId));
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBe("SSO_FAILED");
    expect(res.headers.get("location")).toStartWith(`${api.server.rt.config.publicUrl}/home?tab=1&error=`);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("lsp_session="))).toBe(false);
  });

  test("an IdP error Response (no Assertion) is SSO_FAILED, and the log shows the IdP's status", async () => {
    const { relayState, requestId } = await start();
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_err1" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${sp.spAcsUrl}" InResponseTo="${requestId}">` +
      `<saml:Issuer>${IDP_ENTITY}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">` +
      `<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode>` +
      `<samlp:StatusMessage>User cancelled the login</samlp:StatusMessage></samlp:Status></samlp:Response>`;
    const res = await withLog(() => post(relayState, xml));
    expect(errorOf(res)).toBe("SSO_FAILED");
    const reason = lastLog("saml-refused")?.reason ?? "";
    expect(reason).toContain("urn:oasis:names:tc:SAML:2.0:status:Responder (urn:oasis:names:tc:SAML:2.0:status:AuthnFailed)");
    expect(reason).toContain("User cancelled the login");
    expect(reason).not.toContain("exactly one Assertion");
  });

  test("refuses a replayed assertion id", async () => {
    const assertionId = `_replay${crypto.randomUUID().replace(/-/g, "")}`;
    const first = await start();
    expect(errorOf(await post(first.relayState, sign(responseXml({ requestId: first.requestId, assertionId }), "Assertion")))).toBeNull();
    const second = await start();
    expect(errorOf(await post(second.relayState, sign(responseXml({ requestId: second.requestId, assertionId }), "Assertion")))).toBe(
      "SSO_FAILED",
    );
  });

  test("NOT_A_MEMBER for an unknown e-mail; provisionMembers creates the member", async () => {
    let s = await start();
    expect(
      errorOf(await post(s.relayState, sign(responseXml({ requestId: s.requestId, nameId: "new.person@example.com" }), "Assertion"))),
    ).toBe("NOT_A_MEMBER");
    await api.call("PATCH", "/api/v1/sso-settings", { token: tenant.token, json: { provisionMembers: true } });
    s = await start();
    const xml = sign(
      responseXml({ requestId: s.requestId, nameId: "New.Person@example.com", attributes: { displayName: "New &lt;Person&gt;!" } }),
      "Assertion",
    );
    const res = await post(s.relayState, xml);
    expect(errorOf(res)).toBeNull();
    expect(res.headers.getSetCookie().some((c) => c.startsWith("lsp_session="))).toBe(true);
    const row = api.server.rt.tenants.use(tenant.tenantId, (h) =>
      h.db.select().from(members).where(eq(members.email, "new.person@example.com")).get(),
    );
    expect(row).toMatchObject({ displayName: "New Person", isIssuedAccount: false, passwordHash: null });
    s = await start();
    expect(errorOf(await post(s.relayState, sign(responseXml({ requestId: s.requestId, nameId: "not-an-email" }), "Assertion")))).toBe(
      "NOT_A_MEMBER",
    );
    await api.call("PATCH", "/api/v1/sso-settings", { token: tenant.token, json: { provisionMembers: false } });
  });

  test("MEMBER_INACTIVE for an inactive member", async () => {
    const inactive = await createMemberFixture(api.server, tenant, { email: "gone@example.com" });
    api.server.rt.tenants.use(tenant.tenantId, (h) =>
      h.db.update(members).set({ isActive: false }).where(eq(members.id, inactive.memberId)).run(),
    );
    const s = await start();
    expect(errorOf(await post(s.relayState, sign(responseXml({ requestId: s.requestId, nameId: "gone@example.com" }), "Assertion")))).toBe(
      "MEMBER_INACTIVE",
    );
  });

  test("attributeMappings refresh mapped custom member fields; a value that does not fit is left out", async () => {
    const field = async (json: object) =>
      (await api.call("POST", "/api/v1/member-fields", { token: tenant.token, json })).body.id as string;
    const team = await field({ key: "team", label: "Team", type: "SHORT_TEXT" });
    const level = await field({ key: "level", label: "Level", type: "NUMBER" });
    const grade = await field({ key: "grade", label: "Grade", type: "SELECT", options: ["A", "B"] });
    const mappings = [
      { fieldId: "affiliation", samlAttribute: "dept" },
      { fieldId: team, samlAttribute: "team" },
      { fieldId: level, samlAttribute: "level" },
      { fieldId: grade, samlAttribute: "grade" },
    ];
    const patched = await api.call("PATCH", "/api/v1/sso-settings", { token: tenant.token, json: { attributeMappings: mappings } });
    expect(patched.body.mappingLabels).toEqual({ affiliation: "Affiliation", [team]: "Team", [level]: "Level", [grade]: "Grade" });
    const values = async () =>
      Object.fromEntries(
        (await api.call("GET", `/api/v1/members/${member.memberId}`, { token: tenant.token })).body.fieldValues.map(
          (v: { fieldId: string; valueText: string | null; valueNumber: number | null }) => [v.fieldId, v.valueText ?? v.valueNumber],
        ),
      );
    try {
      let s = await start();
      const attributes = { dept: "Sales", team: "Blue", level: "3", grade: "B" };
      expect(errorOf(await post(s.relayState, sign(responseXml({ requestId: s.requestId, attributes }), "Assertion")))).toBeNull();
      expect(await values()).toEqual({ [team]: "Blue", [level]: 3, [grade]: "B" });
      // A later sign-in refreshes them; a SELECT value outside the options and a non-number are skipped, the sign-in still succeeds.
      s = await start();
      const next = { dept: "Sales", team: "Red", level: "high", grade: "Z" };
      expect(errorOf(await post(s.relayState, sign(responseXml({ requestId: s.requestId, attributes: next }), "Assertion")))).toBeNull();
      expect(await values()).toEqual({ [team]: "Red", [level]: 3, [grade]: "B" });
    } finally {
      await api.call("PATCH", "/api/v1/sso-settings", {
        token: tenant.token,
        json: { attributeMappings: [{ fieldId: "affiliation", samlAttribute: "dept" }] },
      });
    }
  });

  test("SSO_DISABLED when SSO was turned off since the start", async () => {
    const s = await start();
    await api.call("PATCH", "/api/v1/sso-settings", { token: tenant.token, json: { enabled: false } });
    try {
      expect(errorOf(await post(s.relayState, sign(responseXml({ requestId: s.requestId }), "Assertion")))).toBe("SSO_DISABLED");
    } finally {
      await api.call("PATCH", "/api/v1/sso-settings", { token: tenant.token, json: { enabled: true } });
    }
  });
});

describe("startSamlSignIn behind an https public URL", () => {
  const secure = useServer({}, { LEARNSPACE_PUBLIC_URL: "https://learn.example.com" });
  test("the RelayState binding cookie is SameSite=None; Secure, for the IdP's cross-site post", async () => {
    const t = await createTenantFixture(secure.server);
    const json = { enabled: true, idpSsoUrl: "https://idp.example.com/sso", idpEntityUrl: IDP_ENTITY, x509Cert: idp.certPem };
    expect((await secure.call("PATCH", "/api/v1/sso-settings", { token: t.token, json })).status).toBe(200);
    const res = await secure.call("GET", `/api/v1/public/tenants/${t.tenantKey}/saml/login`);
    expect(res.status).toBe(302);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toContain("SameSite=None");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain(`Path=/api/v1/public/tenants/${t.tenantKey}/saml/acs`);
  });
});
