import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { CHROMIUM, launchChromium } from "./helpers/chromium";
import { startOp } from "./helpers/oidc-op";
import { createMemberFixture, createTenantFixture, useServer } from "./helpers/server";

// Debian's Chromium (.ci/run installs it); without it this one test is skipped.
const api = useServer({}, { LEARNSPACE_FETCH_ALLOW: "127.0.0.1,localhost" });
let op: Awaited<ReturnType<typeof startOp>>;

beforeAll(async () => {
  op = await startOp([
    {
      client_id: "ls-browser",
      client_secret: "browser-secret-0123456789",
      redirect_uris: [`${api.server.rt.config.publicUrl}/api/v1/auth/external/school/callback`],
    },
  ]);
});
afterAll(async () => {
  await op?.close();
});

test.skipIf(!existsSync(CHROMIUM))(
  "a browser clicks the hosted login page's button, signs in at the OP and lands in the console signed in",
  async () => {
    const tenant = await createTenantFixture(api.server);
    const member = await createMemberFixture(api.server, tenant, { email: "pupil@example.com", displayName: "Pupil One" });
    op.accounts.set("pupil", { email: member.email, email_verified: true });
    const as = api.as(tenant);
    const page = (await as.get("/login-page-settings")).body;
    expect((await as.put("/login-page-settings", { ...page, methods: { email: false, partner: true } })).status).toBe(200);
    const oidc = { issuer: op.issuer, clientId: "ls-browser", clientSecret: "browser-secret-0123456789" };
    expect((await as.patch("/sso-settings", { partnerProviders: [{ key: "school", labelEn: "School account", oidc }] })).status).toBe(200);

    const browser = await launchChromium();
    try {
      const tab = await browser.newPage({ locale: "en-US" });
      await tab.goto(`${api.server.rt.config.publicUrl}/t/${tenant.tenantKey}/login`);
      await tab.click('button[data-provider="school"]');
      // The OP's own login form.
      await tab.waitForURL((url) => url.origin === op.issuer);
      await tab.fill('input[name="login"]', "pupil");
      await tab.fill('input[name="password"]', "any");
      await tab.click('button[type="submit"]');
      // Back through the login page, which hands over to the console at / like the password sign-in does.
      await tab.waitForURL((url) => url.pathname === "/");
      expect(tab.url()).not.toContain("error=");
      // The console's first call: the refresh cookie the callback set is the session.
      const user = await tab.evaluate(async () => {
        const r = await fetch("/api/v1/auth/session/refresh", { method: "POST" });
        return r.ok ? ((await r.json()) as { user: { displayName: string } }).user.displayName : `refresh ${r.status}`;
      });
      expect(user).toBe("Pupil One");
      const cookies = await tab.context().cookies();
      expect(cookies.some((c) => c.name === "lsp_session" && c.httpOnly)).toBe(true);
    } finally {
      await browser.close();
    }
  },
  60_000,
);
