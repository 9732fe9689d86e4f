// The settings screens end to end (issue 13): a term's versions, the sign-in page's logo upload in the live
// preview, a partner OpenID Connect provider with its write-only secret, the invitation address check and sort,
// and the school's description. Called by run.ts with its helpers, so both share one browser and demo school.
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Helpers } from "./steps";

/** The harness run.ts hands to lesson(), the same for these checks. */

const TOPIC = "E2E_SETTINGS_PRIVACY";
const PARTNER = "e2e-school-idp";
const INVITE = ["e2e.settings.one@example.com", "e2e.settings.two@example.com"];
/** A 120×40 PNG: a blue box on amber, small enough to inline. */
const LOGO_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAHgAAAAoCAIAAAC6iKlyAAAAYklEQVR42u3aMQ0AIAwAwerAE9qQg7LuKOhCAksveQU3f+QOfQgBaNACDRo0AtA9oMdcugg0aNACDRo0aNCgBRo0aNCgQQs0aNCgQYMWaNCgQYMGrdfQciqBFmjQoAUatMoOXmBr6YjR6CEAAAAASUVORK5CYII=",
  "base64",
);

export async function settings(h: Helpers) {
  const { base, shots, check } = h;
  const assert: Helpers["assert"] = h.assert;
  const ctx = await h.context();
  const page = await ctx.newPage();
  const errors = h.watch(page);
  // Requests in flight: leaving a screen before they end aborts them, and watch() rightly reports that.
  let inflight = 0;
  page.on("request", () => inflight++);
  page.on("requestfinished", () => inflight--);
  page.on("requestfailed", () => inflight--);
  /** Until no request has been in flight for a moment (a save's refetches, an image still loading). */
  const settle = async () => {
    for (let quiet = 0; quiet < 3; quiet = inflight === 0 ? quiet + 1 : 0) await page.waitForTimeout(100);
  };
  const reload = async () => {
    await settle();
    await page.reload();
  };
  const clean = async (what: string) => {
    await settle();
    const left = errors.take();
    assert(left.length === 0, `${what}: ${left.join("; ")}`);
  };
  /** Page and dialog scrolled to their tops (a dialog is captured in the viewport, where it is fixed). */
  const top = () =>
    page.evaluate(() => {
      window.scrollTo(0, 0);
      document.querySelector("[role=dialog]")?.scrollTo(0, 0);
    });
  /** The screen as it is now in English, then in Korean (reopen() brings back what a language switch closed), axe on both. */
  const both = async (name: string, reopen?: () => Promise<void>) => {
    for (const lang of ["en", "ko"] as const) {
      if (lang === "ko") {
        if (reopen) await page.keyboard.press("Escape");
        await h.setLang(page, "ko");
        if (reopen) await reopen();
      }
      await page.waitForLoadState("networkidle");
      await top();
      await page.screenshot({ path: join(shots, `${lang}-${name}.png`), fullPage: !reopen });
      await h.axe(page, `${lang} ${name}`);
    }
    if (reopen) await page.keyboard.press("Escape");
    await h.setLang(page, "en");
  };
  let signedIn = false;
  /** Signed in as the owner (once, whichever check runs first), then at the screen. */
  const open = async (path: string) => {
    if (!signedIn) {
      await h.signIn(page, base, "owner@demo.school");
      await page.waitForLoadState("networkidle");
      signedIn = true;
    }
    await settle();
    await page.goto(`${base}${path}`);
  };
  const saved = (scope: Page) => scope.getByRole("status").filter({ hasText: "Saved." }).waitFor();

  await check("settings: terms — create a topic, publish a new version, make version 1 current again", async () => {
    await open("/terms");
    await page.getByLabel("Topic", { exact: true }).fill(TOPIC);
    const create = page.locator("form", { has: page.getByLabel("Topic", { exact: true }) });
    await create.getByLabel("Title (Korean)").fill("개인정보 처리방침 E2E");
    await create.getByLabel("Title (English)").fill("Privacy policy E2E v1");
    await create.getByLabel("Document URL (Korean)").fill("https://school.example/privacy-ko-v1");
    await create.getByLabel("Document URL (English)").fill("https://school.example/privacy-en-v1");
    await create.getByLabel("Consent lasts (days)").fill("365");
    // Optional: a required term would put every later check (and this owner) behind the consent screen.
    await create.getByLabel("Required").uncheck();
    await create.getByRole("button", { name: "Create" }).click();
    // Located by text, not role: while the dialog is open the rows behind it are hidden from the accessibility tree.
    const row = page.locator("tbody tr", { hasText: TOPIC });
    await row.filter({ hasText: "Privacy policy E2E v1" }).filter({ hasText: "365 days" }).waitFor();
    await row.getByRole("button", { name: `Edit ${TOPIC}` }).click();
    const dialog = page.getByRole("dialog");
    assert((await dialog.getByTestId("term-version").textContent()) === "1", "a new topic starts at version 1");
    await dialog.getByLabel("Title (English)").fill("Privacy policy E2E v2");
    await dialog.getByLabel("Document URL (English)").fill("https://school.example/privacy-en-v2");
    await dialog.getByRole("button", { name: "Publish as a new version" }).click();
    await dialog.getByText("A new version was published and is now current.").waitFor();
    await dialog.getByTestId("term-version").filter({ hasText: "2" }).waitFor();
    await row.filter({ hasText: "Privacy policy E2E v2" }).waitFor();
    // An unknown version is refused on its field.
    await dialog.getByLabel("Version", { exact: true }).fill("9");
    await dialog.getByRole("button", { name: "Make current" }).click();
    await dialog.getByText("This value is not valid.").waitFor();
    errors.take(); // the 400 was the point
    await dialog.getByLabel("Version", { exact: true }).fill("1");
    await dialog.getByRole("button", { name: "Make current" }).click();
    await dialog.getByText("The current version was changed.").waitFor();
    await dialog.getByTestId("term-version").filter({ hasText: "1" }).waitFor();
    assert((await dialog.getByLabel("Title (English)").inputValue()) === "Privacy policy E2E v1", "the form shows version 1 again");
    await row.filter({ hasText: "Privacy policy E2E v1" }).waitFor();
    await both("terms-versions", async () => {
      await settle();
      await page.goto(`${base}/terms?open=${TOPIC}`);
      await page.getByRole("dialog").waitFor();
    });
    await clean("terms");
  });

  await check("settings: sign-in page — upload a logo, see it in the live preview, publish it to the hosted page", async () => {
    await open("/login-page");
    const preview = page.getByTestId("login-preview");
    await page.getByLabel("Upload a file: Logo").setInputFiles({ name: "e2e-logo.png", mimeType: "image/png", buffer: LOGO_PNG });
    const logo = preview.getByRole("img", { name: "Logo" });
    await logo.waitFor();
    assert((await logo.getAttribute("src"))?.startsWith("blob:"), "the preview shows the browser's copy of the upload");
    assert(await logo.evaluate((img) => (img as HTMLImageElement).naturalWidth === 120), "the uploaded logo is drawn");
    await page.getByTestId("logoImageFileId-set").waitFor();
    // Labels, a notice, a link and a feed: each shows in the preview as typed.
    await page.getByLabel("Title (English)").fill("E2E Demo School");
    await page.getByLabel("Show a notice").check();
    await page.getByLabel("Notice (English)").fill("Exams week: sign in early.");
    await page.getByLabel("Notice color").fill("#8a1c1c");
    await page.getByLabel("E-mail code (English)").fill("Get a code by e-mail");
    await page.getByRole("button", { name: "Add a link" }).click();
    await page.getByLabel("Label (English)").fill("School homepage");
    await page.getByLabel("Label (Korean)").fill("학교 홈페이지");
    await page.getByLabel("URL", { exact: true }).fill("https://school.example/");
    await page.getByLabel("Show an external feed").check();
    await page.getByLabel("Feed title (English)").fill("School news");
    await page.getByRole("button", { name: "English", exact: true }).click();
    for (const text of ["E2E Demo School", "Exams week: sign in early.", "Get a code by e-mail", "School homepage"])
      await preview.getByText(text, { exact: true }).waitFor();
    await page.getByRole("button", { name: "한국어", exact: true }).click();
    await preview.getByText("학교 홈페이지", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("status").filter({ hasText: "Published." }).waitFor();
    await both("login-page-logo");
    await clean("sign-in page");
    // The hosted page now draws the uploaded file and the link.
    const visitor = await (await h.context()).newPage();
    const visitorErrors = h.watch(visitor);
    await visitor.goto(`${base}/t/demo/login`);
    await visitor.getByRole("heading", { name: "E2E Demo School" }).waitFor();
    await visitor.getByRole("navigation", { name: "Links" }).getByRole("link", { name: "School homepage" }).waitFor();
    const hosted = visitor.locator("main img");
    await hosted.waitFor();
    await visitor.waitForLoadState("networkidle");
    assert(await hosted.evaluate((img) => (img as HTMLImageElement).naturalWidth === 120), "the hosted page shows the uploaded logo");
    await visitor.screenshot({ path: join(shots, "en-hosted-login-logo.png") });
    const left = visitorErrors.take();
    assert(left.length === 0, `hosted page: ${left.join("; ")}`);
    await visitor.context().close();
  });

  await check("settings: SSO — add a partner OpenID Connect provider; its secret is stored and kept", async () => {
    await open("/sso");
    await page.getByRole("button", { name: "Add a partner provider" }).click();
    const partner = page.getByRole("group", { name: /Partner provider 1/ });
    await partner.getByLabel("Key").fill(PARTNER);
    await partner.getByLabel("Button label (Korean)").fill("학교 계정");
    await partner.getByLabel("Button label (English)").fill("School account");
    await partner.getByLabel("Issuer URL").fill("http://idp.e2e.example");
    await partner.getByLabel("Client ID").fill("learnspace-e2e");
    await partner.getByLabel("Client secret").fill("e2e-client-secret-0123456789");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    // Plain http to a non-loopback issuer is refused on its field.
    await partner.getByText("This value is not valid.").waitFor();
    assert((await partner.getByLabel("Issuer URL").getAttribute("aria-invalid")) === "true", "the issuer is marked invalid");
    errors.take();
    await partner.getByLabel("Issuer URL").fill("https://idp.e2e.example");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await saved(page);
    await reload();
    const stored = page.getByRole("group", { name: new RegExp(`Partner provider 1: ${PARTNER}`) });
    await stored.getByTestId("secret-set").waitFor();
    assert((await stored.getByLabel("Client secret").inputValue()) === "", "the secret is never shown");
    await page.getByRole("row", { name: new RegExp(`${PARTNER}.*School account`) }).waitFor();
    // Saving again without retyping keeps the secret.
    await stored.getByLabel("Button label (English)").fill("School account (Entra ID)");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await saved(page);
    await reload();
    await page.getByRole("row", { name: /School account \(Entra ID\)/ }).waitFor();
    await stored.getByTestId("secret-set").waitFor();
    await both("sso-partner");
    // Leave the demo school as it was.
    await stored.getByRole("button", { name: `Remove provider ${PARTNER}` }).click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await saved(page);
    await clean("sso");
  });

  await check("settings: invitations — check the addresses before sending, leave out the taken ones, sort by e-mail", async () => {
    await open("/invitations");
    const openDialog = async (text: string) => {
      await page
        .getByRole("button", { name: /Send invitations|초대 보내기/ })
        .first()
        .click();
      const dialog = page.getByRole("dialog");
      await dialog.locator("textarea").fill(text);
      return dialog;
    };
    let dialog = await openDialog(INVITE[0]!);
    await dialog.getByRole("button", { name: "Send invitations" }).click();
    await dialog.getByText("1 invitation sent.").waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    const typed = [INVITE[0], "owner@demo.school", INVITE[1]].join("\n");
    dialog = await openDialog(typed);
    await dialog.getByRole("button", { name: "Check addresses" }).click();
    await dialog.getByText("1 can be invited, 2 already members or invited.").waitFor();
    await dialog.getByRole("row", { name: `${INVITE[0]} Already invited` }).waitFor();
    await dialog.getByRole("row", { name: "owner@demo.school Already a member" }).waitFor();
    await dialog.getByRole("row", { name: `${INVITE[1]} Yes` }).waitFor();
    await both("invitations-check", async () => {
      const again = await openDialog(typed);
      await again.getByRole("button", { name: /Check addresses|주소 확인/ }).click();
      await again.getByRole("status").waitFor();
    });
    dialog = await openDialog(typed);
    await dialog.getByRole("button", { name: "Check addresses" }).click();
    await dialog.getByRole("button", { name: "Leave out those already members or invited" }).click();
    assert((await dialog.locator("textarea").inputValue()) === INVITE[1], "only the free address is left");
    await dialog.getByRole("button", { name: "Send invitations" }).click();
    await dialog.getByText("1 invitation sent.").waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    // Sort: by e-mail both ways, kept in the URL.
    await settle();
    await page.goto(`${base}/invitations?q=e2e.settings`);
    const emails = () => page.locator("tbody tr td:nth-child(2)").allTextContents();
    await page.getByLabel("Sort").selectOption("email.asc");
    await page.waitForURL(/sort=email\.asc/);
    await page.locator("tbody tr").first().getByText(INVITE[0]!).waitFor();
    assert(JSON.stringify(await emails()) === JSON.stringify(INVITE), `ascending: ${await emails()}`);
    await page.getByLabel("Sort").selectOption("email.desc");
    await page.locator("tbody tr").first().getByText(INVITE[1]!).waitFor();
    assert(JSON.stringify(await emails()) === JSON.stringify([...INVITE].reverse()), `descending: ${await emails()}`);
    await clean("invitations");
  });

  await check("settings: school settings — the description is saved", async () => {
    await open("/settings");
    const text = "A demo school for the end-to-end checks. 끝에서 끝까지.";
    await page.getByLabel("Description").fill(text);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await saved(page);
    await reload();
    await page.getByLabel("Description").waitFor();
    await page.waitForLoadState("networkidle");
    assert((await page.getByLabel("Description").inputValue()) === text, "the description survives a reload");
    await both("settings-description");
    await clean("school settings");
  });

  await ctx.close();
}
