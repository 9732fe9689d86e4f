// The console as a school meets it (issue 25): each check runs in both languages on the demo school.
// Called by run.ts with its helpers, so it shares the browser and the demo school.
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Helpers } from "./steps";
import { quietStream } from "./stream";

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
      // The answer waits for a password hash, which runs at nice 10 behind Chromium on a busy CI machine.
      await form.locator("output.err", { hasText: WRONG[lang] }).waitFor({ timeout: 20_000 });
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
        await quietStream(c);
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
  const L = {
    en: { type: "Type", title: "Title", create: "Create", assign: "Assign", shared: "Shared" },
    ko: { type: "유형", title: "제목", create: "만들기", assign: "배정하기", shared: "공유" },
  };
  for (const lang of LANGS) {
    await check(`school: a new quiz is a draft students cannot see until the teacher assigns it (${lang})`, async () => {
      const w = L[lang];
      const title = `Draft quiz ${lang} 초안`;
      const teacher = await as("t-kim", lang);
      const student = await as("s2601", lang);
      const studentErrors = h.watch(student);
      // The space's classwork, in the URL the console keeps (/spaces?space=…&tab=classwork).
      await teacher.goto(`${base}/spaces`);
      await teacher.getByRole("link", { name: "1-1반 국어" }).click();
      await teacher.waitForURL(/space=/);
      const classwork = `${new URL(teacher.url()).pathname}${new URL(teacher.url()).search.replace(/&tab=[^&]*/, "")}&tab=classwork`;
      await teacher.goto(`${base}${classwork}`);
      const folder = teacher.locator("section.panel", { has: teacher.getByRole("heading", { name: "1학기 Term 1" }) });
      await folder.getByLabel(w.type).selectOption("QUIZ");
      await folder.getByLabel(w.title).fill(title);
      await folder.getByRole("button", { name: w.create }).click();
      await teacher.getByRole("heading", { level: 1, name: title }).waitFor();
      await student.goto(`${base}${classwork}`);
      await student.locator("section.panel", { hasText: "1학기 Term 1" }).first().waitFor();
      await student.waitForLoadState("networkidle");
      assert((await student.getByRole("link", { name: title }).count()) === 0, "the draft is not in the student's classwork");
      await teacher.getByRole("button", { name: w.assign, exact: true }).click();
      await teacher.locator(".badge", { hasText: w.shared }).first().waitFor();
      await teacher.screenshot({ path: join(shots, `${lang}-school-assigned.png`) });
      await student.reload();
      await student.getByRole("link", { name: title }).waitFor({ timeout: 5000 });
      const left = studentErrors.take();
      assert(left.length === 0, left.join("; "));
      await teacher.context().close();
      await student.context().close();
    });
  }
  const C = {
    en: { deactivate: "Deactivate", reactivate: "Reactivate", reset: "Reset password", signOut: "Sign out" },
    ko: { deactivate: "비활성화", reactivate: "다시 활성화", reset: "비밀번호 초기화", signOut: "로그아웃" },
  };
  for (const [i, lang] of LANGS.entries()) {
    await check(`school: deactivate and reset password ask first, naming the member (${lang})`, async () => {
      const w = C[lang];
      await h.setLang(page, lang);
      await page.goto(`${base}/members?q=s${2650 + i}`);
      await page.locator("tbody tr button.link").first().click();
      const dialog = page.getByRole("dialog");
      // The heading reads "Member" until the record has loaded; its buttons come with the record.
      await dialog.getByRole("button", { name: w.deactivate, exact: true }).waitFor();
      const name = ((await dialog.getByRole("heading").first().textContent()) ?? "").trim();
      const asked: string[] = [];
      const answer = (yes: boolean) =>
        page.once("dialog", (d) => {
          asked.push(d.message());
          void (yes ? d.accept() : d.dismiss());
        });
      answer(false);
      await dialog.getByRole("button", { name: w.deactivate, exact: true }).click();
      await page.waitForTimeout(300);
      assert((await dialog.getByRole("button", { name: w.reactivate }).count()) === 0, "a dismissed confirmation deactivates nobody");
      answer(true);
      await dialog.getByRole("button", { name: w.deactivate, exact: true }).click();
      await dialog.getByRole("button", { name: w.reactivate }).waitFor();
      await dialog.getByRole("button", { name: w.reactivate }).click();
      await dialog.getByRole("button", { name: w.deactivate, exact: true }).waitFor();
      answer(false);
      await dialog.getByRole("button", { name: w.reset }).click();
      await page.waitForTimeout(300);
      assert((await dialog.locator("code.secret").count()) === 0, "a dismissed confirmation resets no password");
      assert(asked.length === 3 && asked.every((m) => m.includes(name)), `each confirmation names ${name}: ${asked.join(" | ")}`);
      await page.keyboard.press("Escape");
      clean();
    });
  }
  await check("school: on a 390 px phone the header keeps 로그아웃 on one line", async () => {
    const browser = page.context().browser();
    assert(browser, "the browser");
    const c = await browser.newContext({ locale: "ko-KR", viewport: { width: 390, height: 844 } });
    const p = await c.newPage();
    await h.signInByForm(p, base, "t-kim");
    await h.setLang(p, "ko");
    const button = p.locator("header").getByRole("button", { name: C.ko.signOut });
    const box = await button.boundingBox();
    const line = await button.evaluate((b) => Number.parseFloat(getComputedStyle(b).lineHeight) || 20);
    assert(box && box.height < line * 2, `the sign-out button is one line high (${box?.height} px, line ${line} px)`);
    const header = await p.locator("header").boundingBox();
    assert(header && header.width <= 390, "the header fits the phone's width");
    await p.screenshot({ path: join(shots, "ko-school-390.png") });
    await c.close();
  });
  void as;
  await ctx.close();
}
