import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loginPageSettings } from "../src/modules/login-page/tables";
import type { Tenant } from "./helpers/fixture";
import { makeIdpKeyPair } from "./helpers/saml-idp";
import { createTenantFixture, useServer } from "./helpers/server";

const s = useServer();
let owner: Tenant;
const EVIL = `Acme <script>alert("x")</script> & 'Co'`;
const EVIL_ESCAPED = "Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;";

beforeAll(async () => {
  owner = await createTenantFixture(s.server, { name: EVIL });
});

async function page(path: string, lang = "en") {
  const res = await fetch(`${s.url}${path}`, { headers: { "accept-language": lang } });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** 200 HTML with the tenant's name escaped, and a CSP whose nonce is the one on the inline script and style. */
function expectPage(res: Awaited<ReturnType<typeof page>>) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.html).toContain(EVIL_ESCAPED);
  expect(res.html).not.toContain("<script>alert");
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  const nonce = csp.match(/script-src 'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
  expect(nonce).toBeDefined();
  expect(csp).toContain(`style-src 'nonce-${nonce}'`);
  const scripts = [...res.html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  expect(scripts[0]?.[1]).toBe(` nonce="${nonce}"`);
  expect(() => new Function(scripts[0]?.[2] as string)).not.toThrow(); // the inline script parses
  expect(res.html).toContain(`<style nonce="${nonce}">`);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  return res.html;
}

describe("GET /t/:tenantKey/login — hosted login page", () => {
  test("serves the tenant's page with its settings, escaped, in the language asked for", async () => {
    const put = await s.call("PUT", "/api/v1/login-page-settings", {
      token: owner.token,
      json: {
        logoImageUrl: null,
        titleKo: "환영합니다",
        titleEn: "Welcome <b>",
        backgroundImageUrl: null,
        backgroundTitleEnabled: true,
        backgroundTitleKo: "공지",
        backgroundTitleEn: "Maintenance at <noon>",
        backgroundTitleColor: "red;}body{x:y",
        methods: { email: true },
        externalLinks: [],
      },
    });
    expect(put.status).toBe(200);
    // The API refuses such a URL now; one stored before that is still not rendered.
    s.server.rt.tenants.use(owner.tenantId, (h) =>
      h.db
        .update(loginPageSettings)
        .set({ live: { ...put.body, logoImageUrl: "javascript:alert(1)" } })
        .run(),
    );
    const en = expectPage(await page(`/t/${owner.tenantKey}/login`, "fr, en;q=0.8, ko;q=0.5"));
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("Welcome &lt;b&gt;");
    expect(en).toContain("Maintenance at &lt;noon&gt;");
    expect(en).toContain('data-path="/auth/sign-in/password"');
    expect(en).toContain('data-path="/auth/sign-in/code"');
    expect(en).toContain(`name="tenantKey" value="${owner.tenantKey}"`);
    expect(en).not.toContain("javascript:");
    expect(en).not.toContain("body{x:y");
    const ko = expectPage(await page(`/t/${owner.tenantKey}/login`, "ko-KR,ko;q=0.9,en;q=0.8"));
    expect(ko).toContain('<html lang="ko">');
    expect(ko).toContain("환영합니다");
    expect(ko).toContain("공지");
  });

  test("shows the code form only while the e-mail method is on, and available SSO providers", async () => {
    const t = await createTenantFixture(s.server);
    const put = await s.call("PUT", "/api/v1/login-page-settings", {
      token: t.token,
      json: {
        logoImageUrl: null,
        titleKo: "",
        titleEn: "",
        backgroundImageUrl: null,
        backgroundTitleEnabled: false,
        backgroundTitleKo: "",
        backgroundTitleEn: "",
        backgroundTitleColor: "",
        methods: { email: false, partner: true },
        externalLinks: [],
      },
    });
    const patch = await s.call("PATCH", "/api/v1/sso-settings", {
      token: t.token,
      json: {
        partnerProviders: [
          {
            key: "acme",
            labelKo: "에이크미",
            labelEn: "Acme <1>",
            oidc: { issuer: "https://acme.example", clientId: "c", clientSecret: "s" },
          },
        ],
      },
    });
    expect([put.status, patch.status]).toEqual([200, 200]);
    const res = await page(`/t/${t.tenantKey}/login`);
    expect(res.status).toBe(200);
    expect(res.html).not.toContain('data-path="/auth/sign-in/code"');
    expect(res.html).toContain('data-provider="acme">Acme &lt;1&gt;</button>');
  });

  test("shows the background image and the external links while they are switched on, in the page's language", async () => {
    const t = await createTenantFixture(s.server, { name: EVIL });
    const settings = {
      logoImageUrl: null,
      titleKo: "",
      titleEn: "",
      backgroundImageUrl: "https://cdn.example/bg(1)'x'.jpg",
      backgroundTitleEnabled: false,
      backgroundTitleKo: "",
      backgroundTitleEn: "",
      backgroundTitleColor: "",
      methods: { email: true },
      externalLinks: [
        { labelKo: "학교 누리집", labelEn: "School site", url: "https://school.example/" },
        { labelKo: "", labelEn: "Library <b>", url: "/library?a=1&b=2" },
      ],
    };
    expect((await s.call("PUT", "/api/v1/login-page-settings", { token: t.token, json: settings })).status).toBe(200);
    const en = expectPage(await page(`/t/${t.tenantKey}/login`, "en"));
    // The URL's quote and parentheses cannot end the CSS string or call.
    expect(en).toContain(`body{background:#f4f5f7 url("https://cdn.example/bg%281%29%27x%27.jpg") center/cover no-repeat fixed}`);
    expect(en).toContain(
      '<nav aria-label="Links"><a href="https://school.example/">School site</a><a href="/library?a=1&amp;b=2">Library &lt;b&gt;</a></nav>',
    );
    const ko = expectPage(await page(`/t/${t.tenantKey}/login`, "ko"));
    // A link without a Korean label shows its English one.
    expect(ko).toContain(
      '<nav aria-label="바로가기"><a href="https://school.example/">학교 누리집</a><a href="/library?a=1&amp;b=2">Library &lt;b&gt;</a></nav>',
    );
    const off = { ...settings, backgroundImageUrl: null, externalLinksEnabled: false };
    expect((await s.call("PUT", "/api/v1/login-page-settings", { token: t.token, json: off })).status).toBe(200);
    const hidden = expectPage(await page(`/t/${t.tenantKey}/login`, "en"));
    expect(hidden).not.toContain('<nav aria-label="Links"');
    expect(hidden).not.toContain("School site");
    expect(hidden).not.toContain("url(");
  });

  test("the SAML button comes back to this page, which shows a refusal or hands a sign-in over to the console", async () => {
    const t = await createTenantFixture(s.server, { name: EVIL });
    const idp = makeIdpKeyPair("hosted-idp");
    const sso = { enabled: true, idpSsoUrl: "https://idp.example.com/sso", idpEntityUrl: "https://idp.example.com", x509Cert: idp.certPem };
    expect((await s.call("PATCH", "/api/v1/sso-settings", { token: t.token, json: sso })).status).toBe(200);
    const html = expectPage(await page(`/t/${t.tenantKey}/login`));
    const href = html.match(/<a class="btn alt" href="([^"]+)">Sign in with SSO<\/a>/)?.[1]?.replaceAll("&amp;", "&");
    const back = `/t/${t.tenantKey}/login?signedIn=1`;
    expect(href).toBe(
      `${s.server.rt.config.publicUrl}/api/v1/public/tenants/${t.tenantKey}/saml/login?returnTo=${encodeURIComponent(back)}`,
    );
    // startSamlSignIn takes that returnTo (a refused one would be a 400) and goes to the IdP.
    const start = new URL(href as string);
    const res = await fetch(`${s.url}${start.pathname}${start.search}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toStartWith("https://idp.example.com/sso?");
  });

  test("answers 404 HTML for an unknown tenant key", async () => {
    for (const path of ["/t/no-such-tenant/login", "/t/no-such-tenant/join?code=X", "/t/no-such-tenant/invitation?token=x"]) {
      const res = await page(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    }
  });
});

describe("the hosted pages speak the page's language (docs/rules/console.md#hosted-pages)", () => {
  /** The code → sentence table the page's script shows problems from (never the server's English detail). */
  const codes = (html: string) =>
    JSON.parse(
      (html.match(/data-codes="([^"]*)"/)?.[1] ?? "{}")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, "&"),
    );

  test("a wrong password is told by its code in Korean on the Korean page, and the script never shows a detail", async () => {
    const ko = expectPage(await page(`/t/${owner.tenantKey}/login`, "ko-KR,ko;q=0.9"));
    expect(codes(ko).INVALID_CREDENTIALS).toBe("아이디(이메일) 또는 비밀번호가 맞지 않습니다.");
    expect(ko).not.toContain("j.detail");
    const en = expectPage(await page(`/t/${owner.tenantKey}/login`, "en"));
    expect(codes(en).INVALID_CREDENTIALS).toBe("The user ID (e-mail) or password is wrong.");
    // The code the page looks up is the one the sign-in answers.
    const res = await s.call("POST", "/api/v1/auth/sign-in/password", {
      json: { tenantKey: owner.tenantKey, identifier: "nobody@example.com", password: "wrong-password" },
    });
    expect(res.status).toBe(401);
    expect((res.body as { code: string }).code).toBe("INVALID_CREDENTIALS");
  });

  test("?lang= switches the language over Accept-Language; every page links both languages and the favicon", async () => {
    const ko = expectPage(await page(`/t/${owner.tenantKey}/login?lang=ko`, "en"));
    expect(ko).toContain('<html lang="ko">');
    expect(ko).toContain('href="?lang=en"');
    expect(ko).toContain('rel="icon" type="image/svg+xml" href="/favicon.svg"');
    const en = expectPage(await page(`/t/${owner.tenantKey}/login?lang=en`, "ko"));
    expect(en).toContain('<html lang="en">');
    expect(expectPage(await page(`/t/${owner.tenantKey}/login?lang=xx`, "ko"))).toContain('<html lang="ko">');
  });

  test("the sign-in page links a forgot-password page that requests a code and confirms a new password", async () => {
    const login = expectPage(await page(`/t/${owner.tenantKey}/login`, "ko"));
    expect(login).toContain(`href="/t/${owner.tenantKey}/forgot-password?lang=ko"`);
    const forgot = expectPage(await page(`/t/${owner.tenantKey}/forgot-password`, "ko"));
    expect(forgot).toContain("비밀번호 재설정");
    expect(forgot).toContain('data-path="/auth/password-reset/confirm"');
    expect(forgot).toContain('data-send="/auth/password-reset/request-code"');
    expect((await page("/t/no-such-tenant/forgot-password")).status).toBe(404);
  });
});

describe("GET /t/:tenantKey/join — join-code page", () => {
  test("the link createTenantJoinCode returns resolves to a form carrying the code", async () => {
    const created = await s.call("POST", "/api/v1/join-codes", { token: owner.token, json: {} });
    expect(created.status).toBe(201);
    const link = new URL(created.body.link);
    expect(created.body.link.startsWith(s.server.rt.config.publicUrl)).toBe(true);
    const html = expectPage(await page(link.pathname + link.search));
    expect(html).toContain(`data-path="/public/tenants/${owner.tenantKey}/auth/join-with-code"`);
    expect(html).toContain(`name="joinCode" required maxlength="50" value="${created.body.code}"`);
    for (const field of ["email", "code", "displayName", "userId", "password"]) expect(html).toContain(`name="${field}"`);
  });

  test("escapes a code from the URL", async () => {
    const res = await page(`/t/${owner.tenantKey}/join?code=${encodeURIComponent('"><script>x</script>')}`);
    expect(res.html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });
});

describe("GET /t/:tenantKey/spaces/join — space join-code page", () => {
  test("the link createSpaceJoinCode returns resolves to a sign-in + join form carrying the code", async () => {
    const space = await s.call("POST", "/api/v1/spaces", { token: owner.token, json: { name: "Room" } });
    expect(space.status).toBe(201);
    const created = await s.call("POST", `/api/v1/spaces/${space.body.id}/join-codes`, { token: owner.token, json: {} });
    expect(created.status).toBe(201);
    expect(created.body.link.startsWith(s.server.rt.config.publicUrl)).toBe(true);
    const link = new URL(created.body.link);
    const html = expectPage(await page(link.pathname + link.search));
    expect(html).toContain(`name="joinCode" required maxlength="100" value="${created.body.code}"`);
    for (const field of ["codePassword", "identifier", "password"]) expect(html).toContain(`name="${field}"`);
    // the script signs in, then calls joinSpaceWithCode with the access token
    expect(html).toContain("call('/auth/sign-in/password'");
    expect(html).toContain("call('/spaces/join',b,a.j.accessToken)");
  });

  test("escapes a code from the URL; an unknown tenant is the 404 page", async () => {
    const res = await page(`/t/${owner.tenantKey}/spaces/join?code=${encodeURIComponent('"><script>x</script>')}`);
    expect(res.status).toBe(200);
    expect(res.html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect((await page("/t/no-such-tenant/spaces/join?code=X")).status).toBe(404);
  });
});

describe("GET /t/:tenantKey/invitation — invitation page", () => {
  test("the link in the invitation mail resolves to a form posting to acceptInvitation with its token", async () => {
    const address = `hosted-${Date.now()}@example.com`;
    expect((await s.call("POST", "/api/v1/invitations", { token: owner.token, json: { emails: [address] } })).status).toBe(201);
    const dir = join(s.server.dataDir, "outbox");
    const mail = readdirSync(dir)
      .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")))
      .find((m) => m.to === address);
    const href = (mail.text as string).match(/https?:\/\/\S+\/invitation\?token=\S+/)?.[0] as string;
    expect(href.startsWith(s.server.rt.config.publicUrl)).toBe(true);
    const link = new URL(href);
    const html = expectPage(await page(link.pathname + link.search, "ko"));
    const token = link.searchParams.get("token") as string;
    expect(html).toContain(`data-path="/public/invitations/${encodeURIComponent(token)}/accept"`);
    expect(html).toContain(`href="/t/${owner.tenantKey}/login"`);
  });

  test("answers 400 HTML without a token", async () => {
    const res = await page(`/t/${owner.tenantKey}/invitation`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});
