import { describe, expect, test } from "bun:test";
import { assertPasswordOrCodeSignInAllowed, availableProvider, loginPolicy } from "../src/modules/sso";
import { makeIdpKeyPair } from "./helpers/saml-idp";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();
const idp = makeIdpKeyPair();

async function fixture() {
  const tenant = await createTenantFixture(api.server);
  const member = await createMemberFixture(api.server, tenant);
  return { tenant, owner: tenant.token, member: member.token };
}

const configured = {
  enabled: true,
  idpSsoUrl: "https://idp.example.com/sso",
  idpEntityUrl: "https://idp.example.com/entity",
  x509Cert: idp.certPem,
};

describe("GET /api/v1/sso-settings — getSsoSettings", () => {
  test("returns the defaults with SP URLs built on the public URL", async () => {
    const { tenant, owner } = await fixture();
    const res = await api.call("GET", "/api/v1/sso-settings", { token: owner });
    expect(res.status).toBe(200);
    const base = `${api.server.rt.config.publicUrl}/api/v1/public/tenants/${tenant.tenantKey}/saml`;
    expect(res.body).toEqual({
      enabled: false,
      idpSsoUrl: null,
      idpEntityUrl: null,
      x509Cert: null,
      attributeMappings: [],
      spAcsUrl: `${base}/acs`,
      spEntityId: `${base}/metadata`,
      mappingLabels: {},
      idpConfigured: false,
      partnerProviders: [],
      allowedLoginMethods: "ALL",
      providers: [
        {
          key: "saml",
          kind: "saml",
          labelKo: "SSO로 로그인",
          labelEn: "Sign in with SSO",
          enabled: false,
          available: false,
          loginUrl: null,
        },
      ],
      provisionMembers: false,
    });
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("GET", "/api/v1/sso-settings"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", "/api/v1/sso-settings", { token: member }), 403, "FORBIDDEN");
  });
});

describe("PATCH /api/v1/sso-settings — updateSsoSettings", () => {
  test("configures the IdP; the PEM certificate is stored as its one-line base64 body", async () => {
    const { tenant, owner } = await fixture();
    const res = await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: configured });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: true, idpConfigured: true, x509Cert: idp.certBody, idpSsoUrl: configured.idpSsoUrl });
    expect(res.body.providers[0]).toMatchObject({
      key: "saml",
      available: true,
      loginUrl: `${api.server.rt.config.publicUrl}/api/v1/public/tenants/${tenant.tenantKey}/saml/login`,
    });
    const read = await api.call("GET", "/api/v1/sso-settings", { token: owner });
    expect(read.body).toEqual(res.body);
    const page = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/login-page`);
    expect(page.body.ssoEnabled).toBe(true);
    expect(page.body.ssoProviders.map((p: { key: string }) => p.key)).toEqual(["saml"]);
  });

  test("accepts the base64 DER body with line breaks and spaces", async () => {
    const { owner } = await fixture();
    const wrapped = idp.certBody.replace(/(.{64})/g, "$1\n ");
    const res = await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: { x509Cert: wrapped } });
    expect(res.status).toBe(200);
    expect(res.body.x509Cert).toBe(idp.certBody);
  });

  test("leaves absent fields unchanged and clears with null", async () => {
    const { owner } = await fixture();
    await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: configured });
    const res = await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: { x509Cert: null, provisionMembers: true } });
    expect(res.body).toMatchObject({
      enabled: true,
      idpSsoUrl: configured.idpSsoUrl,
      x509Cert: null,
      idpConfigured: false,
      provisionMembers: true,
    });
    expect(res.body.providers[0]).toMatchObject({ enabled: true, available: false, loginUrl: null });
  });

  test("replaces the arrays when present; mappingLabels label the mapped fields", async () => {
    const { owner } = await fixture();
    const dept = (
      await api.call("POST", "/api/v1/member-fields", { token: owner, json: { key: "dept", label: "Department", type: "SHORT_TEXT" } })
    ).body.id;
    const first = await api.call("PATCH", "/api/v1/sso-settings", {
      token: owner,
      json: {
        attributeMappings: [
          { fieldId: "email", samlAttribute: "mail" },
          { fieldId: dept, samlAttribute: "dept" },
        ],
        partnerProviders: [{ key: "acme", labelKo: "가", labelEn: "A", partnerKey: "acme-corp", enabled: true }, { key: "beta" }],
      },
    });
    expect(first.body.mappingLabels).toEqual({ email: "E-mail", [dept]: "Department" });
    const res = await api.call("PATCH", "/api/v1/sso-settings", {
      token: owner,
      json: { attributeMappings: [{ fieldId: "email", samlAttribute: "upn" }] },
    });
    expect(res.body.attributeMappings).toEqual([{ fieldId: "email", samlAttribute: "upn" }]);
    expect(res.body.mappingLabels).toEqual({ email: "E-mail" });
    expect(res.body.partnerProviders).toEqual([
      { key: "acme", labelKo: "가", labelEn: "A", partnerKey: "acme-corp", enabled: true, oidc: null },
      { key: "beta", labelKo: "", labelEn: "", partnerKey: "beta", enabled: true, oidc: null },
    ]);
    // methods.partner is off by default: partners are listed but not available.
    expect(res.body.providers.map((p: { key: string; available: boolean }) => [p.key, p.available])).toEqual([
      ["saml", false],
      ["acme", false],
      ["beta", false],
    ]);
  });

  test("partners are available with methods.partner, ALL and an OpenID Connect client, not with SSO_ONLY", async () => {
    const { tenant, owner } = await fixture();
    const page = await api.call("GET", "/api/v1/login-page-settings", { token: owner });
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: { ...page.body, methods: { email: true, partner: true } } });
    await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: { partnerProviders: [{ key: "acme" }] } });
    let res = await api.call("GET", "/api/v1/sso-settings", { token: owner });
    expect(res.body.providers[1]).toMatchObject({ key: "acme", kind: "partner", available: false });
    const oidc = { issuer: "https://idp.acme.example", clientId: "learnspace", clientSecret: "s3cret" };
    await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: { partnerProviders: [{ key: "acme", oidc }] } });
    res = await api.call("GET", "/api/v1/sso-settings", { token: owner });
    expect(res.body.providers[1]).toMatchObject({ key: "acme", kind: "partner", available: true, loginUrl: null });
    res = await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: { ...configured, allowedLoginMethods: "SSO_ONLY" } });
    expect(res.body.allowedLoginMethods).toBe("SSO_ONLY");
    expect(res.body.providers[1].available).toBe(false);
    // The exports the auth module uses.
    api.server.rt.tenants.use(tenant.tenantId, (h) => {
      expect(loginPolicy(api.server.rt, h.db, tenant.tenantKey).allowedLoginMethods).toBe("SSO_ONLY");
      expect(() => assertPasswordOrCodeSignInAllowed(h.db)).toThrow();
      expect(availableProvider(api.server.rt, h.db, tenant.tenantKey, "acme")).toBeNull();
    });
  });

  test.each([
    ["x509Cert", { x509Cert: "not a certificate" }],
    ["x509Cert", { x509Cert: "QUJDRA==" }],
    ["x509Cert", { x509Cert: "" }],
    ["idpSsoUrl", { idpSsoUrl: "ftp://idp.example.com" }],
    ["idpSsoUrl", { idpSsoUrl: "not a url" }],
    ["allowedLoginMethods", { allowedLoginMethods: "PASSWORD" }],
    ["enabled", { enabled: "yes" }],
    ["attributeMappings", { attributeMappings: Array.from({ length: 201 }, (_, i) => ({ fieldId: `f${i}`, samlAttribute: "a" })) }],
    ["attributeMappings[0].samlAttribute", { attributeMappings: [{ fieldId: "email" }] }],
    // Sign-in never changes a user ID, so a mapping to it is refused rather than silently ignored.
    ["attributeMappings[0].fieldId", { attributeMappings: [{ fieldId: "userId", samlAttribute: "uid" }] }],
    [
      "attributeMappings[1].fieldId",
      {
        attributeMappings: [
          { fieldId: "email", samlAttribute: "a" },
          { fieldId: "email", samlAttribute: "b" },
        ],
      },
    ],
    ["partnerProviders", { partnerProviders: Array.from({ length: 11 }, (_, i) => ({ key: `p${i}` })) }],
    ["partnerProviders[0].key", { partnerProviders: [{ key: "saml" }] }],
    ["partnerProviders[0].key", { partnerProviders: [{ key: "social_a" }] }],
    ["partnerProviders[0].key", { partnerProviders: [{ key: "partner" }] }],
    ["partnerProviders[1].key", { partnerProviders: [{ key: "acme" }, { key: "acme" }] }],
    ["partnerProviders[0].key", { partnerProviders: [{ key: "Bad Key" }] }],
    ["partnerProviders[0].labelKo", { partnerProviders: [{ key: "acme", labelKo: "x".repeat(256) }] }],
  ])("returns 400 naming %s", async (field, json) => {
    const { owner } = await fixture();
    const body = expectProblem(await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json }), 400, "VALIDATION_FAILED");
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(JSON.stringify(body)).not.toContain("not a certificate");
  });

  test("returns 400 naming attributeMappings[i].fieldId for a fieldId that names no member field or column", async () => {
    const { owner } = await fixture();
    const spaceField = (
      await api.call("POST", "/api/v1/space-fields", { token: owner, json: { key: "room", label: "Room", type: "SHORT_TEXT" } })
    ).body.id;
    for (const fieldId of ["f1", spaceField, "constructor", "lastLoginAt"]) {
      const json = {
        attributeMappings: [
          { fieldId: "email", samlAttribute: "a" },
          { fieldId, samlAttribute: "b" },
        ],
      };
      const body = expectProblem(await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json }), 400, "VALIDATION_FAILED");
      expect(body.errors[0].field).toBe("attributeMappings[1].fieldId");
    }
    expect((await api.call("GET", "/api/v1/sso-settings", { token: owner })).body.attributeMappings).toEqual([]);
  });

  test("refuses SSO_ONLY while SAML cannot be used: 400 naming allowedLoginMethods, nothing saved", async () => {
    const { owner } = await fixture();
    const patch = (json: object) => api.call("PATCH", "/api/v1/sso-settings", { token: owner, json });
    const refused = async (json: object) => {
      const body = expectProblem(await patch(json), 400, "VALIDATION_FAILED");
      expect(body.errors.map((e: { field: string }) => e.field)).toEqual(["allowedLoginMethods"]);
    };
    await refused({ allowedLoginMethods: "SSO_ONLY" });
    await refused({ ...configured, enabled: false, allowedLoginMethods: "SSO_ONLY" });
    await refused({ ...configured, x509Cert: null, allowedLoginMethods: "SSO_ONLY" });
    expect((await patch({ ...configured, allowedLoginMethods: "SSO_ONLY" })).status).toBe(200);
    // Turning SSO off or dropping the IdP while SSO_ONLY is refused too; back to ALL first.
    await refused({ enabled: false });
    await refused({ idpSsoUrl: null });
    expect((await patch({ allowedLoginMethods: "ALL", enabled: false })).body).toMatchObject({
      allowedLoginMethods: "ALL",
      enabled: false,
    });
  });

  test("refuses two certificates in one PEM", async () => {
    const { owner } = await fixture();
    const body = expectProblem(
      await api.call("PATCH", "/api/v1/sso-settings", { token: owner, json: { x509Cert: idp.certPem + idp.certPem } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors[0].field).toBe("x509Cert");
  });

  test("accepts 200 mappings and 10 providers", async () => {
    const { owner } = await fixture();
    const creates = Array.from({ length: 200 }, (_, i) => ({ key: `f${i}`, label: `F${i}`, type: "SHORT_TEXT" }));
    const fields = (await api.call("POST", "/api/v1/member-fields/batch", { token: owner, json: { creates } })).body.fields;
    const res = await api.call("PATCH", "/api/v1/sso-settings", {
      token: owner,
      json: {
        attributeMappings: fields.map((f: { id: string }) => ({ fieldId: f.id, samlAttribute: "a" })),
        partnerProviders: Array.from({ length: 10 }, (_, i) => ({ key: `p${i}` })),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.providers).toHaveLength(11);
  });

  test("does not change another tenant's settings", async () => {
    const a = await fixture();
    const b = await fixture();
    await api.call("PATCH", "/api/v1/sso-settings", { token: a.owner, json: configured });
    expect((await api.call("GET", "/api/v1/sso-settings", { token: b.owner })).body.enabled).toBe(false);
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("PATCH", "/api/v1/sso-settings", { json: {} }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PATCH", "/api/v1/sso-settings", { token: member, json: {} }), 403, "FORBIDDEN");
  });
});
