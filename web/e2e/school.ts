// The console as a school meets it (issue 25): each check runs in both languages on the demo school.
// Called by run.ts with its helpers, so it shares the browser and the demo school.
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Helpers } from "./steps";

const LANGS = ["en", "ko"] as const;

export async function school(h: Helpers) {
  const { base, shots, check } = h;
  const assert: Helpers["assert"] = h.assert;
  const ctx = await h.context();
  const page = await ctx.newPage();
  const errors = h.watch(page);
  const clean = () => {
    const left = errors.take();
    assert(left.length === 0, `${page.url()}: ${left.join("; ")}`);
  };
  await h.signIn(page, base, "owner@demo.school");
  await page.waitForLoadState("networkidle");
  const as = async (who: string, lang: "en" | "ko"): Promise<Page> => {
    const c = await h.context(lang === "ko" ? "ko-KR" : "en-US");
    const p = await c.newPage();
    await h.signIn(p, base, who);
    await p.waitForLoadState("networkidle");
    await h.setLang(p, lang);
    return p;
  };

  for (const [i, lang] of LANGS.entries()) {
    await check(`school: the member dialog keeps an e-mail and a login-id edit (${lang})`, async () => {
      await h.setLang(page, lang);
      const who = `s${2640 + i}`;
      await page.goto(`${base}/members?q=${who}`);
      await page.locator("tbody tr button.link").first().click();
      const dialog = page.getByRole("dialog");
      const profile = dialog.locator("fieldset").first();
      await profile.locator('input[name="email"]').fill(`${who}.fixed@example.com`);
      await profile.locator('input[name="userId"]').fill(`${who}-fixed`);
      await profile.locator('button[type="submit"]').click();
      await profile.getByRole("status").waitFor();
      await page.reload();
      await page
        .getByRole("dialog")
        .locator("dd", { hasText: `${who}.fixed@example.com` })
        .waitFor({ timeout: 5000 });
      await page
        .getByRole("dialog")
        .locator("dd", { hasText: `${who}-fixed` })
        .waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, `${lang}-school-member-edit.png`) });
      await page.keyboard.press("Escape");
      clean();
    });
  }
  const WRONG = { en: "The user ID (e-mail) or password is wrong.", ko: "아이디(이메일) 또는 비밀번호가 맞지 않습니다." };
  for (const lang of LANGS) {
    await check(`school: the hosted sign-in page tells a wrong password in the page's language (${lang})`, async () => {
      const c = await h.context(lang === "ko" ? "ko-KR" : "en-US");
      const p = await c.newPage();
      await p.goto(`${base}/t/demo/login`);
      const form = p.locator('form[data-path="/auth/sign-in/password"]');
      await form.locator('input[name="identifier"]').fill("s2601");
      await form.locator('input[name="password"]').fill("not-the-password");
      await form.locator("button").click();
      await form.locator("output.err", { hasText: WRONG[lang] }).waitFor({ timeout: 5000 });
      // The switch to the other language keeps the page; the favicon is there (no 404).
      const other = lang === "ko" ? "en" : "ko";
      await p.locator(`nav.lang a[data-lang="${other}"]`).click();
      await p.waitForURL(`**/t/demo/login?lang=${other}`);
      assert((await p.locator("html").getAttribute("lang")) === other, "the page switched its language");
      const icon = await p.request.get(`${base}/favicon.svg`);
      assert(icon.ok(), "the favicon is served");
      await p.locator("a", { hasText: lang === "ko" ? "Forgot your password?" : "비밀번호를 잊으셨나요?" }).click();
      await p.locator("h1", { hasText: lang === "ko" ? "Reset your password" : "비밀번호 재설정" }).waitFor();
      await p.screenshot({ path: join(shots, `${lang}-school-forgot-password.png`) });
      await h.axe(p, `${lang} forgot-password`);
      await c.close();
    });
  }
  void as;
  await ctx.close();
}
