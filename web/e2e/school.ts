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
  // A class list as Korean Excel saves it (CP949): 김똠방 needs CP949's extension of EUC-KR.
  const HANGUL = { header: "c0ccb8a72cbec6c0ccb5f02cbfaac7d20a", kim: "b1e88c63b9e6", park: "b9dabcd6c0d9" };
  const T = {
    en: {
      preview: "3 rows, 2 ready to create.",
      done: "2 created, 0 failed.",
      none: "0 created, 1 failed.",
      open: "Import a class list (CSV)",
      file: "CSV file",
      role: "no such role",
      exists: "This already exists.",
      download: "Download the passwords (CSV)",
      create: "Create 2 members",
    },
    ko: {
      preview: "3줄 중 2줄을 만들 수 있습니다.",
      done: "2명 생성, 0명 실패.",
      none: "0명 생성, 1명 실패.",
      open: "명단 가져오기 (CSV)",
      file: "CSV 파일",
      role: "없는 역할",
      exists: "이미 있습니다.",
      download: "비밀번호 내려받기 (CSV)",
      create: "구성원 2명 만들기",
    },
  };
  for (const lang of LANGS) {
    await check(`school: a CP949 class list imports with Hangul names intact; an unknown role is an error (${lang})`, async () => {
      const w = T[lang];
      await h.setLang(page, lang);
      await page.goto(`${base}/members`);
      await page.getByRole("button", { name: w.open }).click();
      const dialog = page.getByRole("dialog");
      const cp949 = Buffer.concat([
        Buffer.from(HANGUL.header, "hex"),
        Buffer.from(HANGUL.kim, "hex"),
        Buffer.from(`,cp949-${lang},\n`),
        Buffer.from(HANGUL.park, "hex"),
        Buffer.from(`,cp949b-${lang},member\nNo Role,cp949c-${lang},principal\n`),
      ]);
      await dialog.getByLabel(w.file).setInputFiles({ name: "class.csv", mimeType: "text/csv", buffer: cp949 });
      await dialog.getByText(w.preview).waitFor({ timeout: 5000 });
      await dialog.getByRole("cell", { name: "김똠방", exact: true }).waitFor();
      await dialog
        .locator("tr", { hasText: `cp949c-${lang}` })
        .getByText(w.role)
        .waitFor();
      await page.screenshot({ path: join(shots, `${lang}-school-import-cp949.png`) });
      await dialog.getByRole("button", { name: w.create }).click();
      await dialog.getByText(w.done).waitFor();
      await page.keyboard.press("Escape");
      await page.goto(`${base}/members?q=cp949-${lang}`);
      await page.getByRole("cell", { name: "김똠방", exact: true }).waitFor();
      // UTF-16 ("Unicode text" in Excel), with its BOM.
      await page.getByRole("button", { name: w.open }).click();
      const utf16 = Buffer.from(`\ufeff이름,아이디\n이유니,u16-${lang}\n`, "utf16le");
      await dialog.getByLabel(w.file).setInputFiles({ name: "class.csv", mimeType: "text/csv", buffer: utf16 });
      await dialog.getByRole("cell", { name: "이유니", exact: true }).waitFor({ timeout: 5000 });
      // A list the server refuses whole: the reason in the user's language and no passwords to download.
      await dialog
        .getByLabel(w.file)
        .setInputFiles({ name: "class.csv", mimeType: "text/csv", buffer: Buffer.from("name,userId\nTaken,s2601\n") });
      await dialog.getByRole("button", { name: lang === "en" ? "Create 1 member" : "구성원 1명 만들기" }).click();
      await dialog.getByText(w.none).waitFor();
      await dialog.getByText(w.exists).waitFor();
      assert((await dialog.getByRole("button", { name: w.download }).count()) === 0, "no password download with 0 created");
      await page.keyboard.press("Escape");
      clean();
    });
  }
  const RAW = { en: { role: "Owner", plan: "Free" }, ko: { role: "소유자", plan: "무료" } };
  for (const lang of LANGS) {
    await check(`school: built-in role names and plan values read in the user's language (${lang})`, async () => {
      await h.setLang(page, lang);
      await page.goto(`${base}/settings`);
      await page.locator("#main h1").first().waitFor();
      // "<name> · <role>" (the demo owner's own name says "(Owner)", so only the role part counts)
      const role = ((await page.locator("header .who").textContent()) ?? "").split(" · ").pop()?.trim();
      assert(role === RAW[lang].role, `the header names the role as ${RAW[lang].role}: ${role}`);
      await page.locator("dd", { hasText: RAW[lang].plan }).first().waitFor({ timeout: 5000 });
      assert((await page.locator("dd", { hasText: /^FREE$/ }).count()) === 0, "the raw plan value is not shown");
      clean();
    });
  }
  for (const lang of LANGS) {
    await check(
      `school: the first load with Accept-Encoding br, gzip is at most 200 KB transferred, measured by the browser (${lang})`,
      async () => {
        const browser = page.context().browser();
        assert(browser, "the browser");
        const c = await browser.newContext({
          locale: lang === "ko" ? "ko-KR" : "en-US",
          viewport: { width: 1280, height: 860 },
          extraHTTPHeaders: { "Accept-Encoding": "br, gzip" },
        });
        const p = await c.newPage();
        await h.signIn(p, base, "owner@demo.school");
        await p.waitForLoadState("networkidle");
        // A cold cache: what a first visit transfers, not what the sign-in already brought.
        const cdp = await c.newCDPSession(p);
        await cdp.send("Network.clearBrowserCache");
        const encodings = new Map<string, string>();
        p.on("response", (r) => {
          if (/\.(js|css)$/.test(new URL(r.url()).pathname)) encodings.set(r.url(), r.headers()["content-encoding"] ?? "none");
        });
        await p.goto(`${base}/members`);
        await p.locator("#main h1").first().waitFor();
        await p.waitForLoadState("networkidle");
        const sizes = await p.evaluate(() =>
          [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((e) => ({
            name: e.name,
            transfer: (e as PerformanceResourceTiming).transferSize,
            body: (e as PerformanceResourceTiming).decodedBodySize,
          })),
        );
        const assets = sizes.filter((x) => /\.(js|css)$/.test(new URL(x.name).pathname));
        const transferred = sizes.reduce((n, x) => n + x.transfer, 0);
        const assetBytes = assets.reduce((n, x) => n + x.transfer, 0);
        const decoded = assets.reduce((n, x) => n + x.body, 0);
        console.log(
          `  first load (${lang}): ${sizes.length} requests, ${(transferred / 1024).toFixed(1)} KB transferred (JS+CSS ${(assetBytes / 1024).toFixed(1)} KB, ${(decoded / 1024).toFixed(1)} KB decoded)`,
        );
        assert(assets.length > 0 && assets.every((x) => x.transfer > 0), "the assets came over the network, not from a cache");
        assert(
          [...encodings.values()].every((e) => e === "br"),
          `every script and style came brotli-encoded: ${[...encodings.entries()].join("; ")}`,
        );
        assert(transferred <= 200 * 1024, `first load transferred ${transferred} bytes`);
        await c.close();
      },
    );
  }
  void as;
  await ctx.close();
}
