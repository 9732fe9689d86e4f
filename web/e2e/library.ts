// The library's media contents, folders, sharing and consent to terms (issue 14, console part 2): a teacher
// sets up a linked video, a document, a live session and an uploaded video (on a slow network), moves a folder
// into another and shares the document with a student outside the space; students open each one (the document
// downloaded); a required term gates sign-in until the member agrees, and an optional one is withdrawn.
// Called by run.ts with its helpers, so it shares the one browser and demo school.
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Helpers } from "./steps";

const SPACE = "1-3반 과학";
const MATERIALS = "E2E 자료 Materials";
const ARCHIVE = "E2E 보관 Archive";
const LINK = { type: "URL_VIDEO", title: "E2E 링크 영상 Linked video" };
const DOC = { type: "DOCUMENT", title: "E2E 학습지 Worksheet" };
const LIVE = { type: "LIVE", title: "E2E 실시간 Live class" };
const VIDEO = { type: "VIDEO", title: "E2E 실험 영상 Experiment" };
const VIDEO_URL = "https://video.example.com/watch?v=e2e123";
const JOIN_URL = "https://meet.example.com/e2e-science";
const WORKSHEET = Buffer.from("%PDF-1.4\n% E2E worksheet\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const STUDENT = "s2645";
const OUTSIDER = "s2601"; // class 1-1: not in the science space, reaches the document through sharing
const REQUIRED = "E2E_RULES";
const OPTIONAL = "E2E_NEWSLETTER";

export async function library(h: Helpers) {
  const { base, shots, check } = h;
  const assert: Helpers["assert"] = h.assert;
  const problems = (page: Page, w: { take(): string[] }) => {
    const left = w.take();
    assert(left.length === 0, `${page.url()}: ${left.join("; ")}`);
  };
  // Leaving a page while its refetches are in flight aborts them, which watch() reports: let them land first
  // (waitForLoadState("networkidle") only speaks of the last navigation, not of a single-page app's own requests).
  const inFlight = new Map<Page, number>();
  const track = (page: Page) => {
    inFlight.set(page, 0);
    page.on("request", () => inFlight.set(page, (inFlight.get(page) ?? 0) + 1));
    page.on("requestfinished", () => inFlight.set(page, (inFlight.get(page) ?? 1) - 1));
    page.on("requestfailed", () => inFlight.set(page, (inFlight.get(page) ?? 1) - 1));
    return page;
  };
  const settle = async (page: Page) => {
    for (let quiet = 0, i = 0; quiet < 3 && i < 100; i++) {
      quiet = (inFlight.get(page) ?? 0) <= 0 ? quiet + 1 : 0;
      await page.waitForTimeout(100);
    }
  };
  const go = async (page: Page, path: string) => {
    await settle(page);
    await page.goto(`${base}${path}`);
  };
  const snap = async (page: Page, name: string) => {
    await settle(page);
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  };
  const signIn = async (page: Page, who: string) => {
    await h.signIn(page, base, who);
    await page.waitForLoadState("networkidle");
  };
  const teacherCtx = await h.context();
  const teacher = track(await teacherCtx.newPage());
  const teacherErrors = h.watch(teacher);
  const paths: Record<string, string> = {};
  let classwork = "";
  const here = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;
  const panel = (page: Page, folder: string) =>
    page.locator("section.panel", { has: page.getByRole("heading", { name: folder, exact: true }) });

  /** In the classwork's MATERIALS folder: a new content of `type`, then its page. */
  const create = async (c: { type: string; title: string }) => {
    await go(teacher, classwork);
    const folder = panel(teacher, MATERIALS);
    await folder.getByLabel("Type").selectOption(c.type);
    await folder.getByLabel("Title").fill(c.title);
    await folder.getByRole("button", { name: "Create" }).click();
    await teacher.getByRole("heading", { level: 1, name: c.title }).waitFor();
    await teacher.getByRole("button", { name: "Assign", exact: true }).click(); // new classwork is a draft
    await teacher.locator(".badge", { hasText: "Shared" }).first().waitFor();
    paths[c.title] = here(teacher);
  };

  await check("library: the teacher makes folders and moves one into the other", async () => {
    await signIn(teacher, "t-park");
    await go(teacher, "/spaces");
    await teacher.getByRole("link", { name: SPACE }).click();
    await teacher.getByRole("heading", { level: 1, name: SPACE }).waitFor();
    await teacher.getByRole("tab", { name: "Classwork" }).click();
    classwork = here(teacher);
    for (const name of [MATERIALS, ARCHIVE]) {
      await teacher.getByLabel("Folder name").fill(name);
      await teacher.getByRole("button", { name: "New folder" }).click();
      await teacher.getByRole("heading", { name, exact: true }).waitFor();
    }
    await panel(teacher, ARCHIVE).getByRole("button", { name: "Move…" }).click();
    const dialog = teacher.getByRole("dialog");
    await dialog.getByLabel("Into").selectOption({ label: MATERIALS });
    await dialog.getByRole("button", { name: "Move", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    // The moved folder is a subfolder now: a level-3 heading, indented under its parent.
    await teacher.getByRole("heading", { level: 3, name: ARCHIVE }).waitFor();
    await panel(teacher, ARCHIVE).getByRole("button", { name: "Rename" }).click();
    await teacher.getByRole("dialog").getByLabel("Folder name").fill(`${ARCHIVE} 2026`);
    await teacher.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await teacher.getByRole("heading", { level: 3, name: `${ARCHIVE} 2026` }).waitFor();
    // A folder made by mistake is deleted (an empty one: deleteNode refuses a folder that holds anything).
    await teacher.getByLabel("Folder name").fill("E2E 지울 폴더 Scratch");
    await teacher.getByRole("button", { name: "New folder" }).click();
    teacher.once("dialog", (d) => void d.accept());
    await panel(teacher, "E2E 지울 폴더 Scratch").getByRole("button", { name: "Delete folder" }).click();
    await teacher.getByRole("heading", { name: "E2E 지울 폴더 Scratch" }).waitFor({ state: "detached" });
    problems(teacher, teacherErrors);
  });

  await check("library: the teacher sets up a linked video, a document, a live session and an uploaded video", async () => {
    await create(LINK);
    await teacher.getByLabel("Video URL").fill(VIDEO_URL);
    await teacher.getByRole("button", { name: "Save link" }).click();
    await teacher.getByRole("link", { name: /Watch the video/ }).waitFor();
    await teacher.getByRole("button", { name: "Details and visibility" }).click();
    await teacher.getByRole("dialog").getByLabel("Description").fill("Watch before Monday's lab.");
    await teacher.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await teacher.getByText("Watch before Monday's lab.").waitFor();

    await create(DOC);
    await teacher.getByLabel("Choose a document").setInputFiles({ name: "worksheet.pdf", mimeType: "application/pdf", buffer: WORKSHEET });
    await teacher.getByLabel("Number of pages (optional)").fill("2");
    await teacher.getByRole("button", { name: "Upload" }).click();
    await teacher.getByRole("link", { name: "Download the document" }).waitFor();
    await snap(teacher, "en-library-document-editor");

    await create(LIVE);
    await teacher.getByLabel("Join link").fill(JOIN_URL);
    await teacher.getByLabel("Meeting service").selectOption("meeting_a");
    await teacher.getByLabel("Starts").fill("2030-03-02T09:00");
    await teacher.getByLabel("Ends").fill("2030-03-02T09:45");
    await teacher.getByRole("button", { name: "Save session" }).click();
    await teacher.getByRole("link", { name: "Join the session" }).waitFor();
    await teacher.locator(".badge", { hasText: "Scheduled" }).waitFor();

    await create(VIDEO);
    await teacher
      .getByLabel("Choose a video")
      .setInputFiles({ name: "experiment.mp4", mimeType: "video/mp4", buffer: Buffer.alloc(512 * 1024, 7) });
    const cdp = await teacherCtx.newCDPSession(teacher);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 80,
      downloadThroughput: 256 * 1024,
      uploadThroughput: 128 * 1024,
    });
    await teacher.getByRole("button", { name: "Upload" }).click();
    await teacher.getByText(/Uploading… \d+%/).waitFor();
    await teacher.screenshot({ path: join(shots, "en-library-video-uploading.png"), fullPage: true });
    await teacher.getByLabel("Video", { exact: true }).waitFor({ timeout: 30_000 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await h.axe(teacher, "video editor");
    problems(teacher, teacherErrors);
  });

  await check("library: the teacher shares the document with a student outside the space", async () => {
    await go(teacher, paths[DOC.title] as string);
    await teacher.getByRole("button", { name: "Sharing" }).click();
    const dialog = teacher.getByRole("dialog");
    await dialog.getByLabel("Share with a member").fill(OUTSIDER);
    await dialog.getByRole("button", { name: /^Add / }).first().click();
    await dialog.getByRole("button", { name: /^Remove / }).waitFor();
    await snap(teacher, "en-library-share");
    await h.axe(teacher, "share dialog");
    await dialog.getByRole("button", { name: "Save sharing" }).click();
    await dialog.waitFor({ state: "detached" });
    await teacher.getByText("shared with 1").waitFor();
    problems(teacher, teacherErrors);
  });

  for (const lang of ["en", "ko"] as const) {
    await check(`library: classwork and each media content are captured and pass axe (${lang})`, async () => {
      await h.setLang(teacher, lang);
      // Inside the console, no new document per screen (docs/rules/ci.md#fewer-page-loads).
      const show = async (path: string) => {
        await settle(teacher);
        await h.open(teacher, base, path);
      };
      await show(classwork);
      await teacher.getByRole("heading", { name: MATERIALS }).waitFor();
      await h.settle(teacher);
      await snap(teacher, `${lang}-library-classwork`);
      await h.axe(teacher, `${lang} classwork`);
      for (const c of [LINK, DOC, LIVE, VIDEO]) {
        await show(paths[c.title] as string);
        await teacher.getByRole("heading", { level: 1, name: c.title }).waitFor();
        await h.settle(teacher);
        await snap(teacher, `${lang}-library-${c.type.toLowerCase()}`);
        await h.axe(teacher, `${lang} ${c.type}`);
      }
      problems(teacher, teacherErrors);
    });
  }
  if (teacher.url() !== "about:blank") await h.setLang(teacher, "en"); // E2E_ONLY may have skipped the checks above

  await check(`library: student ${STUDENT} opens each content from the classwork and downloads the document`, async () => {
    const ctx = await h.context("ko-KR");
    const page = track(await ctx.newPage());
    const errors = h.watch(page);
    await signIn(page, STUDENT);
    await go(page, "/spaces");
    await page.getByRole("link", { name: SPACE }).click();
    await page.getByRole("tab", { name: "수업" }).click();
    await page.getByRole("heading", { name: MATERIALS }).waitFor();
    assert((await page.getByRole("button", { name: "새 폴더" }).count()) === 0, "a student has no folder tools");
    await page.getByRole("link", { name: LINK.title }).click();
    const watch = page.getByRole("link", { name: /동영상 보기/ });
    assert((await watch.getAttribute("href")) === VIDEO_URL, "the linked video opens its URL");
    await snap(page, "ko-library-student-link");
    await settle(page);
    await page.goBack();
    await page.getByRole("link", { name: LIVE.title }).click();
    assert((await page.getByRole("link", { name: "수업 참여하기" }).getAttribute("href")) === JOIN_URL, "the live session's join link");
    await page.getByText("예정", { exact: true }).waitFor();
    await snap(page, "ko-library-student-live");
    await h.axe(page, "ko student live");
    await settle(page);
    await page.goBack();
    await page.getByRole("link", { name: VIDEO.title }).click();
    await page.getByLabel("동영상", { exact: true }).waitFor();
    assert(
      ((await page.locator("video.player").getAttribute("src")) ?? "").includes("/api/v1/files/"),
      "the player plays the uploaded file",
    );
    await settle(page);
    await page.goBack();
    await page.getByRole("link", { name: DOC.title }).click();
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "문서 내려받기" }).click();
    const file = await download;
    const bytes = await (await import("node:fs/promises")).readFile((await file.path()) as string);
    assert(bytes.equals(WORKSHEET), "the downloaded document is the uploaded one");
    await snap(page, "ko-library-student-document");
    await h.axe(page, "ko student document");
    // (The download's aborted navigation is an aborted GET, which watch() does not count.)
    const left = errors.take();
    assert(left.length === 0, left.join("; "));
    await ctx.close();
  });

  await check(`library: ${OUTSIDER}, outside the space, opens the document shared with them`, async () => {
    const ctx = await h.context();
    const page = track(await ctx.newPage());
    const errors = h.watch(page);
    await signIn(page, OUTSIDER);
    await go(page, paths[DOC.title] as string);
    await page.getByRole("heading", { level: 1, name: DOC.title }).waitFor();
    await page.getByRole("link", { name: "Download the document" }).waitFor();
    assert((await page.getByRole("button", { name: "Sharing" }).count()) === 0, "a viewer cannot manage the content");
    await snap(page, "en-library-shared-document");
    problems(page, errors);
    await ctx.close();
  });

  const ownerCtx = await h.context();
  await check("agreements: a required term gates the console until the member agrees; an optional one is withdrawn", async () => {
    const owner = track(await ownerCtx.newPage());
    const ownerErrors = h.watch(owner);
    await signIn(owner, "owner@demo.school");
    // One visit to the terms screen: once the required term exists, the owner too would meet the gate on a reload.
    await go(owner, "/terms");
    const setTerm = async (topic: string, essential: boolean) => {
      await owner.getByLabel("Topic").fill(topic);
      await owner.getByLabel("Document URL (English)").fill(`https://school.example.com/terms/${topic.toLowerCase()}`);
      const required = owner.locator("form").getByLabel("Required", { exact: true });
      if ((await required.isChecked()) !== essential) await required.click();
      await owner.getByRole("button", { name: "Create" }).click();
      await owner.getByRole("cell", { name: topic, exact: true }).waitFor();
    };
    try {
      await setTerm(OPTIONAL, false);
      await setTerm(REQUIRED, true);
      for (const [who, lang] of [
        ["s2646", "en"],
        ["s2647", "ko"],
      ] as const) {
        const ctx = await h.context(lang === "ko" ? "ko-KR" : "en-US");
        const page = track(await ctx.newPage());
        const errors = h.watch(page);
        await signIn(page, who);
        const en = lang === "en";
        await page.getByRole("heading", { level: 1, name: en ? "Please review the terms" : "약관을 확인해 주세요" }).waitFor();
        await snap(page, `${lang}-agreements-gate`);
        await h.axe(page, `${lang} consent gate`);
        await page.getByRole("button", { name: en ? "Agree and continue" : "동의하고 계속하기" }).click();
        await page.getByRole("alert").waitFor(); // the required term is not ticked yet
        await page.getByLabel(en ? `I agree to ${REQUIRED}` : `${REQUIRED}에 동의합니다`).check();
        await page.getByLabel(en ? `I agree to ${OPTIONAL}` : `${OPTIONAL}에 동의합니다`).check();
        await page.getByRole("button", { name: en ? "Agree and continue" : "동의하고 계속하기" }).click();
        await page.getByRole("heading", { level: 1, name: en ? "To-do" : "할 일" }).waitFor();
        await page.getByRole("link", { name: en ? "My agreements" : "약관 동의" }).click();
        await page.getByRole("heading", { level: 1, name: en ? "My agreements" : "약관 동의" }).waitFor();
        page.once("dialog", (d) => void d.accept());
        await page.getByRole("button", { name: en ? `Withdraw ${OPTIONAL}` : `${OPTIONAL} 동의 철회` }).click();
        // Withdrawn, the optional term waits again, and the required one cannot be withdrawn.
        await page.getByLabel(en ? `I agree to ${OPTIONAL}` : `${OPTIONAL}에 동의합니다`).waitFor();
        assert(
          (await page.getByRole("button", { name: en ? `Withdraw ${REQUIRED}` : `${REQUIRED} 동의 철회` }).count()) === 0,
          "no withdrawing a required term",
        );
        await snap(page, `${lang}-agreements-mine`);
        await h.axe(page, `${lang} my agreements`);
        problems(page, errors);
        await ctx.close();
      }
      problems(owner, ownerErrors);
    } finally {
      // The demo school is shared by the checks that follow: no one else may meet the gate.
      if (new URL(owner.url()).pathname !== "/terms") {
        await go(owner, "/terms");
        if (await owner.getByRole("button", { name: "Agree and continue" }).isVisible()) {
          for (const box of await owner.getByRole("checkbox").all()) await box.check();
          await owner.getByRole("button", { name: "Agree and continue" }).click();
        }
        await owner.getByRole("heading", { level: 1, name: "Terms" }).waitFor();
      }
      for (const topic of [REQUIRED, OPTIONAL]) {
        const box = owner.getByRole("checkbox", { name: `${topic}: In force` });
        if ((await box.count()) && (await box.isChecked())) {
          await box.click();
          await owner.waitForLoadState("networkidle");
        }
      }
    }
  });
  await ownerCtx.close();
  await teacherCtx.close();
}
