import { describe, expect, test } from "bun:test";
import { loginPageSettings } from "../src/modules/login-page/tables";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();

async function fixture() {
  const tenant = await createTenantFixture(api.server);
  const member = await createMemberFixture(api.server, tenant);
  return { tenant, owner: tenant.token, member: member.token };
}

/** A ready upload of `token`'s member. */
async function uploaded(token: string, text = "PNG!") {
  const res = await api.call("POST", "/api/v1/files", {
    token,
    json: { fileName: "logo.png", contentType: "image/png", size: text.length },
  });
  expect(res.status).toBe(201);
  const url = new URL(res.body.uploadUrl);
  const put = await api.call("PUT", `${url.pathname}${url.search}`, { body: text, headers: { "content-type": "image/png" } });
  expect(put.status).toBe(200);
  return res.body.fileId as string;
}

const full = {
  logoImageUrl: "https://cdn.example.com/logo.png",
  logoImageFileId: null,
  titleKo: "환영합니다",
  titleEn: "Welcome",
  backgroundImageUrl: null,
  backgroundTitleEnabled: true,
  backgroundTitleKo: "배경",
  backgroundTitleEn: "Background",
  backgroundTitleColor: "#112233",
  methods: { email: true, social_a: true, social_b: false, partner: false },
  buttonLabels: {
    email: { ko: "이메일", en: "E-mail" },
    sso: { ko: "회사 계정", en: "Company account" },
    social_a: { ko: "A", en: "A" },
    social_b: { ko: "B", en: "B" },
    partner: { ko: "P", en: "P" },
  },
  externalLinksEnabled: false,
  externalLinks: [{ labelKo: "도움말", labelEn: "Help", url: "https://example.com/help" }],
  externalFeed: { titleKo: "소식", titleEn: "News" },
};

const minimal = {
  logoImageUrl: null,
  titleKo: "",
  titleEn: "",
  backgroundImageUrl: null,
  backgroundTitleEnabled: false,
  backgroundTitleKo: "",
  backgroundTitleEn: "",
  backgroundTitleColor: "",
  methods: { email: true },
  externalLinks: [],
};

describe("GET /api/v1/login-page-settings — getLoginPageSettings", () => {
  test("returns defaults for a tenant that saved none", async () => {
    const { owner } = await fixture();
    const res = await api.call("GET", "/api/v1/login-page-settings", { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      logoImageUrl: null,
      logoImageFileId: null,
      backgroundTitleEnabled: false,
      methods: { email: true, social_a: false, social_b: false, partner: false },
      externalLinksEnabled: true,
      externalLinks: [],
      externalFeed: null,
    });
    expect(Object.keys(res.body.buttonLabels)).toEqual(["email", "sso", "social_a", "social_b", "partner"]);
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("GET", "/api/v1/login-page-settings"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", "/api/v1/login-page-settings", { token: member }), 403, "FORBIDDEN");
  });
});

describe("PUT /api/v1/login-page-settings — replaceLoginPageSettings", () => {
  test("replaces the settings; a later read shows them", async () => {
    const { owner } = await fixture();
    const res = await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...full, backgroundImageFileId: null, allowUserSelfSignUp: false });
    expect((await api.call("GET", "/api/v1/login-page-settings", { token: owner })).body).toEqual(res.body);
  });

  test("absent optional fields take their defaults (full replace)", async () => {
    const { owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full });
    const res = await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: minimal });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      logoImageFileId: null,
      externalLinksEnabled: true,
      externalFeed: null,
      methods: { email: true, social_a: false, social_b: false, partner: false },
      buttonLabels: { sso: { en: "Sign in with SSO" } },
    });
  });

  test("accepts the upper bounds", async () => {
    const { owner } = await fixture();
    const link = { labelKo: "k".repeat(255), labelEn: "e".repeat(255), url: `https://x.example/${"a".repeat(981)}` };
    const res = await api.call("PUT", "/api/v1/login-page-settings", {
      token: owner,
      json: { ...full, titleKo: "가".repeat(255), backgroundTitleColor: "c".repeat(20), externalLinks: [link, link, link, link] },
    });
    expect(res.status).toBe(200);
    expect(res.body.externalLinks).toHaveLength(4);
  });

  test("accepts http(s) URLs and same-origin paths for images and links", async () => {
    const { owner } = await fixture();
    const json = {
      ...full,
      logoImageUrl: "/static/logo.png",
      backgroundImageUrl: "http://cdn.example.com/bg.png",
      externalLinks: [
        { ...full.externalLinks[0], url: "/help?x=1" },
        { ...full.externalLinks[0], url: "HTTPS://Example.com/a" },
      ],
    };
    const res = await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(json);
  });

  const link = { labelKo: "a", labelEn: "b", url: "https://example.com" };
  test.each([
    ["titleKo", { titleKo: "x".repeat(256) }],
    ["titleEn", { titleEn: "x".repeat(256) }],
    ["backgroundTitleKo", { backgroundTitleKo: "x".repeat(256) }],
    ["backgroundTitleEn", { backgroundTitleEn: "x".repeat(256) }],
    ["backgroundTitleColor", { backgroundTitleColor: "x".repeat(21) }],
    ["externalLinks", { externalLinks: [link, link, link, link, link] }],
    ["externalLinks[0].labelKo", { externalLinks: [{ ...link, labelKo: "x".repeat(256) }] }],
    ["externalLinks[0].labelEn", { externalLinks: [{ ...link, labelEn: "x".repeat(256) }] }],
    ["externalLinks[0].url", { externalLinks: [{ ...link, url: "x".repeat(1001) }] }],
    ["externalLinks[0].url", { externalLinks: [{ ...link, url: "javascript:alert(1)" }] }],
    ["externalLinks[0].url", { externalLinks: [{ ...link, url: "//evil.example.com/" }] }],
    ["externalLinks[0].url", { externalLinks: [{ ...link, url: "/\\evil.example.com" }] }],
    ["externalLinks[0].url", { externalLinks: [{ ...link, url: "help" }] }],
    ["logoImageUrl", { logoImageUrl: "javascript:alert(1)" }],
    ["logoImageUrl", { logoImageUrl: "data:image/svg+xml,<svg/>" }],
    ["logoImageUrl", { logoImageUrl: "" }],
    ["backgroundImageUrl", { backgroundImageUrl: "JavaScript:alert(1)" }],
    ["externalFeed.titleKo", { externalFeed: { titleKo: "x".repeat(256), titleEn: "" } }],
    ["methods.email", { methods: { email: "yes" } }],
  ])("returns 400 naming %s", async (field, patch) => {
    const { owner } = await fixture();
    const body = expectProblem(
      await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: { ...full, ...patch } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  test.each([
    "titleKo",
    "titleEn",
    "backgroundTitleEnabled",
    "backgroundTitleColor",
    "methods",
    "externalLinks",
    "logoImageUrl",
    "backgroundImageUrl",
  ])("returns 400 when %s is missing", async (field) => {
    const { owner } = await fixture();
    const json: Record<string, unknown> = { ...full };
    delete json[field];
    const body = expectProblem(await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json }), 400, "VALIDATION_FAILED");
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  test("image file ids must be ready uploads of the caller: 400 naming the field", async () => {
    const { tenant, owner, member } = await fixture();
    const pending = (
      await api.call("POST", "/api/v1/files", { token: owner, json: { fileName: "a.png", contentType: "image/png", size: 1 } })
    ).body.fileId;
    const others = await uploaded(member);
    const other = await createTenantFixture(api.server);
    const otherTenants = await uploaded(other.token);
    for (const [field, id] of [
      ["logoImageFileId", "no-such-file"],
      ["backgroundImageFileId", pending],
      ["logoImageFileId", others],
      ["backgroundImageFileId", otherTenants],
    ]) {
      const json = { ...full, [field as string]: id };
      const body = expectProblem(await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json }), 400, "VALIDATION_FAILED");
      expect(body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      const draft = await api.call("PUT", "/api/v1/login-page-settings/draft", { token: owner, json: { [field as string]: id } });
      expect(expectProblem(draft, 400, "VALIDATION_FAILED").errors[0].field).toBe(field);
    }
    const logo = await uploaded(owner);
    const res = await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: { ...full, logoImageFileId: logo } });
    expect(res.status).toBe(200);
    // Another admin may keep the image someone else set.
    const admin = await createMemberFixture(api.server, tenant, { permissions: ["tenant-settings:manage"] });
    const kept = await api.call("PUT", "/api/v1/login-page-settings", {
      token: admin.token,
      json: { ...full, titleEn: "Kept", logoImageFileId: logo },
    });
    expect(kept.status).toBe(200);
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("PUT", "/api/v1/login-page-settings", { json: full }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PUT", "/api/v1/login-page-settings", { token: member, json: full }), 403, "FORBIDDEN");
  });
});

describe("GET/PUT /api/v1/login-page-settings/draft — getLoginPageDraft, saveLoginPageDraft", () => {
  test("without a draft returns the live settings", async () => {
    const { owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full });
    const res = await api.call("GET", "/api/v1/login-page-settings/draft", { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.draft).toEqual({ ...full, backgroundImageFileId: null, allowUserSelfSignUp: false });
  });

  test("a saved draft overlays the live settings and leaves them unchanged", async () => {
    const { owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full });
    const saved = await api.call("PUT", "/api/v1/login-page-settings/draft", {
      token: owner,
      json: { titleEn: "Draft title", methods: { partner: true } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.draft).toMatchObject({ titleEn: "Draft title", titleKo: full.titleKo, methods: { ...full.methods, partner: true } });
    expect((await api.call("GET", "/api/v1/login-page-settings/draft", { token: owner })).body).toEqual(saved.body);
    expect((await api.call("GET", "/api/v1/login-page-settings", { token: owner })).body.titleEn).toBe("Welcome");
  });

  test("saving replaces the previous draft", async () => {
    const { owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings/draft", { token: owner, json: { titleEn: "one" } });
    const res = await api.call("PUT", "/api/v1/login-page-settings/draft", { token: owner, json: { titleKo: "둘" } });
    expect(res.body.draft).toMatchObject({ titleEn: "", titleKo: "둘" });
  });

  test.each([
    ["titleKo", { titleKo: "x".repeat(256) }],
    ["backgroundTitleColor", { backgroundTitleColor: "x".repeat(21) }],
    ["externalLinks", { externalLinks: [{}, {}, {}, {}, {}].map(() => ({ labelKo: "", labelEn: "", url: "u" })) }],
    ["externalLinks[0].url", { externalLinks: [{ labelKo: "", labelEn: "", url: "x".repeat(1001) }] }],
    ["externalLinks[0].url", { externalLinks: [{ labelKo: "", labelEn: "", url: "javascript:alert(1)" }] }],
    ["logoImageUrl", { logoImageUrl: "javascript:alert(1)" }],
  ])("returns 400 naming %s", async (field, json) => {
    const { owner } = await fixture();
    const body = expectProblem(
      await api.call("PUT", "/api/v1/login-page-settings/draft", { token: owner, json }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("GET", "/api/v1/login-page-settings/draft"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", "/api/v1/login-page-settings/draft", { token: member }), 403, "FORBIDDEN");
    expectProblem(await api.call("PUT", "/api/v1/login-page-settings/draft", { json: {} }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PUT", "/api/v1/login-page-settings/draft", { token: member, json: {} }), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/login-page-settings/draft/publish — publishLoginPageDraft", () => {
  test("applies the draft to the live settings and clears it", async () => {
    const { owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full });
    await api.call("PUT", "/api/v1/login-page-settings/draft", { token: owner, json: { titleEn: "Published", externalFeed: null } });
    const res = await api.call("POST", "/api/v1/login-page-settings/draft/publish", { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ titleEn: "Published", titleKo: full.titleKo, externalFeed: null });
    expect((await api.call("GET", "/api/v1/login-page-settings", { token: owner })).body).toEqual(res.body);
    // The draft is gone: a later draft read shows the live settings again.
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: { ...full, titleEn: "Live again" } });
    expect((await api.call("GET", "/api/v1/login-page-settings/draft", { token: owner })).body.draft.titleEn).toBe("Live again");
  });

  test("validates like replace: a URL stored before the scheme check is still read, but blocks publishing", async () => {
    const { tenant, owner } = await fixture();
    const live = (await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full })).body;
    api.server.rt.tenants.use(tenant.tenantId, (h) =>
      h.db
        .update(loginPageSettings)
        .set({ live: { ...live, externalLinks: [{ ...full.externalLinks[0], url: "javascript:alert(1)" }] } })
        .run(),
    );
    expect((await api.call("GET", "/api/v1/login-page-settings", { token: owner })).status).toBe(200);
    await api.call("PUT", "/api/v1/login-page-settings/draft", { token: owner, json: { titleEn: "Next" } });
    const res = await api.call("POST", "/api/v1/login-page-settings/draft/publish", { token: owner });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors.map((e: { field: string }) => e.field)).toEqual(["externalLinks[0].url"]);
  });

  test("does nothing without a draft", async () => {
    const { owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full });
    const res = await api.call("POST", "/api/v1/login-page-settings/draft/publish", { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...full, backgroundImageFileId: null, allowUserSelfSignUp: false });
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("POST", "/api/v1/login-page-settings/draft/publish"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("POST", "/api/v1/login-page-settings/draft/publish", { token: member }), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/public/tenants/{tenantKey}/login-page — getPublicLoginPage", () => {
  test("returns defaults for a tenant that saved no settings", async () => {
    const { tenant } = await fixture();
    const res = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/login-page`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: tenant.tenantName,
      logoImageUrl: null,
      loginIdentifier: "userId",
      allowUserSelfSignUp: false,
      methods: { email: true, social_a: false, social_b: false, partner: false },
      ssoEnabled: false,
      ssoProviders: [],
      externalFeed: null,
    });
  });

  test("shows the published settings, not the draft, and needs no token", async () => {
    const { tenant, owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: full });
    await api.call("PUT", "/api/v1/login-page-settings/draft", { token: owner, json: { titleEn: "Draft only" } });
    const res = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/login-page`);
    expect(res.body).toMatchObject({
      titleKo: full.titleKo,
      titleEn: "Welcome",
      backgroundTitleColor: "#112233",
      // social_a is on in the settings, but the platform has no such provider: not offered.
      methods: { ...full.methods, social_a: false },
      buttonLabels: full.buttonLabels,
      externalFeed: full.externalFeed,
    });
    expect(res.body).not.toHaveProperty("externalLinks");
  });

  test("lists available partner providers as ssoProviders", async () => {
    const { tenant, owner } = await fixture();
    await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: { ...full, methods: { email: true, partner: true } } });
    await api.call("PATCH", "/api/v1/sso-settings", {
      token: owner,
      json: {
        partnerProviders: [
          { key: "acme", labelKo: "에이크미", labelEn: "Acme", oidc: { issuer: "https://acme.example", clientId: "c", clientSecret: "s" } },
          { key: "off", enabled: false, oidc: { issuer: "https://off.example", clientId: "c", clientSecret: "s" } },
          { key: "unset" },
        ],
      },
    });
    const res = await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/login-page`);
    expect(res.body.ssoEnabled).toBe(false);
    expect(res.body.ssoProviders).toEqual([
      { key: "acme", kind: "partner", labelKo: "에이크미", labelEn: "Acme", enabled: true, available: true, loginUrl: null },
    ]);
  });

  test("shows an image file as a download URL anyone can fetch while it is the page's image", async () => {
    const { tenant, owner } = await fixture();
    const logo = await uploaded(owner, "logo-bytes");
    const background = await uploaded(owner, "background-bytes");
    const json = {
      ...full,
      logoImageFileId: logo,
      backgroundImageUrl: "https://cdn.example.com/bg.png",
      backgroundImageFileId: background,
    };
    expect((await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json })).status).toBe(200);
    const page = (await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/login-page`)).body;
    for (const [url, bytes] of [
      [page.logoImageUrl, "logo-bytes"],
      [page.backgroundImageUrl, "background-bytes"],
    ]) {
      expect(url).toStartWith(`${api.server.rt.config.publicUrl}/api/v1/files/`);
      const u = new URL(url);
      const res = await api.call("GET", `${u.pathname}${u.search}`);
      expect(res.status).toBe(200);
      expect(res.body).toBe(bytes);
    }
    // Once the page no longer shows the file, its URL is gone; the configured URL shows again.
    const oldLogo = new URL(page.logoImageUrl);
    expect((await api.call("PUT", "/api/v1/login-page-settings", { token: owner, json: { ...json, logoImageFileId: null } })).status).toBe(
      200,
    );
    expectProblem(await api.call("GET", `${oldLogo.pathname}${oldLogo.search}`), 404, "NOT_FOUND");
    const after = (await api.call("GET", `/api/v1/public/tenants/${tenant.tenantKey}/login-page`)).body;
    expect(after.logoImageUrl).toBe(full.logoImageUrl);
  });

  test("returns 404 for an unknown tenantKey", async () => {
    expectProblem(await api.call("GET", "/api/v1/public/tenants/no-such-tenant/login-page"), 404, "NOT_FOUND");
  });
});
