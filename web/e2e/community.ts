// A school's year in the console (issues 18, 19, 20): a student asks in a class's community, the teacher
// answers and marks the answer; a private message goes both ways; a parent made by the class import
// with a guardianOf column, and linked to a second child on the member page, lands on "My children";
// the bell of a student changes within a second of a teacher's post in another browser (the live stream).
// Called by run.ts with its helpers, so all share one browser and one demo school.
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type Helpers, steps } from "./steps";

const SPACE = "1-2반 수학";
const TEACHER = "t-lee";
const STUDENT = "s2630";
const CHILDREN = [
  { id: "s2611", space: "1-1반 국어" },
  { id: "s2633", space: "1-2반 수학" },
];
const QUESTION = "E2E 질문 Is 1 a prime number?";
const ANSWER = "No: a prime has exactly two divisors.";
const PHONE = { width: 390, height: 844 };

export async function community(h: Helpers) {
  const { base, shots, check } = h;
  const assert: Helpers["assert"] = h.assert;
  const { snap, problems, signIn } = steps(h);
  const teacherCtx = await h.context();
  const teacher = await teacherCtx.newPage();
  const teacherErrors = h.watch(teacher);
  const studentCtx = await h.context();
  const student = await studentCtx.newPage();
  const studentErrors = h.watch(student);
  let spacePath = "";
  /** The class's tab, as a person gets there: the space from the list, then the tab. */
  const openTab = async (page: Page, tab: string) => {
    if (spacePath) await page.goto(`${base}${spacePath}`);
    else {
      await page.goto(`${base}/spaces`);
      await page.getByRole("link", { name: SPACE }).click();
      await page.getByRole("heading", { level: 1, name: SPACE }).waitFor();
    }
    await page.getByRole("tab", { name: tab, exact: true }).click();
    await page.waitForLoadState("networkidle");
  };
  /** Captures the page in both languages (and at phone width) and runs axe on each. */
  const bothLanguages = async (page: Page, name: string, phone = false) => {
    for (const lang of ["ko", "en"] as const) {
      await h.setLang(page, lang);
      await snap(page, `${lang}-${name}`);
      await h.axe(page, `${lang} ${name}`);
    }
    if (phone) {
      const size = page.viewportSize();
      await page.setViewportSize(PHONE);
      await snap(page, `en-${name}-phone`);
      await h.axe(page, `en ${name} (phone)`);
      if (size) await page.setViewportSize(size);
    }
  };

  await check("community: a student asks a question, the teacher answers and marks it, the student sees the answer", async () => {
    await signIn(teacher, TEACHER);
    await teacher.goto(`${base}/spaces`);
    await teacher.getByRole("link", { name: SPACE }).click();
    await teacher.getByRole("heading", { level: 1, name: SPACE }).waitFor();
    const url = new URL(teacher.url());
    spacePath = url.pathname + url.search;
    // Messages are off in a new space: the teacher turns them on for the next check.
    await teacher.getByRole("tab", { name: "Settings", exact: true }).click();
    await teacher.getByLabel("Messages on").check();
    await teacher.getByRole("button", { name: "Save" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();

    await signIn(student, STUDENT);
    await openTab(student, "Community");
    await student.getByLabel("Your question").fill(QUESTION);
    await student.getByLabel("Details (optional)").fill("My friend says it is.");
    await student.getByRole("button", { name: "Ask", exact: true }).click();
    const asked = student.locator("article", { has: student.getByRole("heading", { name: QUESTION }) });
    await asked.getByText("Unanswered").waitFor();

    await openTab(teacher, "Community");
    await teacher.getByLabel("Show").selectOption("QUESTION");
    await teacher.getByLabel("Answer", { exact: true }).selectOption("no");
    const question = teacher.locator("article", { has: teacher.getByRole("heading", { name: QUESTION }) });
    await question.getByLabel("Write a comment").fill(ANSWER);
    await question.getByRole("button", { name: "Comment", exact: true }).click();
    await question.locator(".comment", { hasText: ANSWER }).getByRole("button", { name: "Mark as the answer" }).click();
    // Marked, it leaves the unanswered view; the answered one shows it with its answer.
    await question.waitFor({ state: "detached" });
    await teacher.getByLabel("Answer", { exact: true }).selectOption("yes");
    await question.getByText("Answered", { exact: true }).waitFor();
    assert(new URL(teacher.url()).searchParams.get("answered") === "yes", "the view is in the URL");
    await bothLanguages(teacher, "community-teacher");
    await h.setLang(teacher, "en");

    await openTab(student, "Community");
    const mine = student.locator("article", { has: student.getByRole("heading", { name: QUESTION }) });
    await mine.locator(".comment.answer", { hasText: ANSWER }).waitFor();
    await mine.getByText("Answer", { exact: true }).waitFor();
    await bothLanguages(student, "community-student", true);
    await h.setLang(student, "en");
    problems(teacher, teacherErrors);
    problems(student, studentErrors);
  });

  await check(
    "messages: a student writes to the teachers privately, the teacher sees it unread and answers, the student reads it",
    async () => {
      await openTab(student, "Messages");
      await student.getByLabel("Your message").fill("E2E: may I hand in the homework on Friday?");
      await student.getByRole("button", { name: "Send", exact: true }).click();
      await student.locator(".chat li.mine", { hasText: "hand in the homework on Friday" }).waitFor();

      await openTab(teacher, "Messages");
      const inbox = teacher.getByRole("navigation", { name: "Conversations" });
      await inbox.getByText("1 unread").waitFor();
      await inbox.getByRole("link").first().click();
      await teacher.locator(".chat li.theirs", { hasText: "hand in the homework on Friday" }).waitFor();
      await teacher.getByLabel("Your message").fill("Yes, Friday is fine.");
      await teacher.getByRole("button", { name: "Send", exact: true }).click();
      await teacher.locator(".chat li.mine", { hasText: "Friday is fine" }).waitFor();
      assert(new URL(teacher.url()).searchParams.get("with"), "the open conversation is in the URL");
      await bothLanguages(teacher, "messages-teacher", true);
      await h.setLang(teacher, "en");

      await openTab(student, "Messages");
      await student.locator(".chat li.theirs", { hasText: "Friday is fine" }).waitFor();
      await bothLanguages(student, "messages-student");
      await h.setLang(student, "en");
      problems(teacher, teacherErrors);
      problems(student, studentErrors);
    },
  );

  await check("notifications: a student's bell changes within a second of a teacher's post in another browser (live stream)", async () => {
    // This context keeps the real stream (the others answer it with one event and close it).
    const liveCtx = await h.context();
    await liveCtx.unroute("**/api/v1/me/notifications/stream");
    const live = await liveCtx.newPage();
    const liveErrors = h.watch(live);
    await h.signIn(live, base, STUDENT);
    // The student has unread items (the comment and the reply): the badge shows once the stream's first event is in.
    await live.getByTestId("unread-count").waitFor();
    const count = () => live.evaluate(() => Number(document.querySelector('[data-testid="unread-count"]')?.textContent ?? "0"));
    const before = await count();
    await openTab(teacher, "Stream");
    await teacher.getByLabel("Title").fill("E2E 실시간 Live notice");
    await teacher.getByLabel("Text").fill("The bell should ring.");
    const changed = live
      .waitForFunction((n) => Number(document.querySelector('[data-testid="unread-count"]')?.textContent ?? "0") > n, before, {
        timeout: 10_000,
        polling: 20,
      })
      .then(() => Date.now());
    const [posted] = await Promise.all([
      teacher.waitForResponse((r) => r.url().endsWith("/api/v1/posts") && r.request().method() === "POST"),
      teacher.getByRole("button", { name: "Publish" }).click(),
    ]);
    assert(posted.status() === 201, `the post was created (${posted.status()})`);
    const answeredAt = Date.now();
    const seenAt = await changed;
    console.log(`  bell changed ${Math.max(0, seenAt - answeredAt)} ms after the post's answer (${before} → ${await count()})`);
    assert(seenAt - answeredAt < 1000, `the bell changed ${seenAt - answeredAt} ms after the post`);
    await live.screenshot({ path: join(shots, "en-bell-live.png") });
    await h.axe(live, "bell live");
    const left = liveErrors.take();
    assert(left.length === 0, left.join("; "));
    await liveCtx.close();
    problems(teacher, teacherErrors);
  });

  await check(
    "guardians: a parent from the class import (guardianOf) and a member page link lands on My children with both children",
    async () => {
      const ownerCtx = await h.context();
      const owner = await ownerCtx.newPage();
      const ownerErrors = h.watch(owner);
      await signIn(owner, "owner@demo.school");
      await owner.goto(`${base}/members`);
      await owner.getByRole("button", { name: "Import a class list (CSV)" }).click();
      const dialog = owner.getByRole("dialog");
      const csv = `name,userId,guardianOf\nE2E 학부모 Parent,e2e-parent,${CHILDREN[0]?.id}\n`;
      await dialog.getByLabel("CSV file").setInputFiles({ name: "parents.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await dialog.getByRole("columnheader", { name: "Guardian of" }).waitFor();
      await dialog.getByRole("button", { name: "Create 1 member" }).click();
      await dialog.getByText("1 created, 0 failed.").waitFor();
      const password = ((await dialog.locator("code.secret").first().textContent()) ?? "").trim();
      assert(password.length >= 8, "a temporary password is shown");
      await owner.keyboard.press("Escape");

      await owner.goto(`${base}/members?q=${CHILDREN[1]?.id}`);
      await owner.locator("tbody tr button.link").first().click();
      const member = owner.getByRole("dialog");
      await member.getByText("No guardians.").waitFor();
      await member.getByLabel("Add a guardian").fill("e2e-parent");
      await member.getByRole("button", { name: "Add E2E 학부모 Parent" }).click();
      await member.getByRole("button", { name: "Remove E2E 학부모 Parent" }).waitFor();
      await snap(owner, "en-members-guardians");
      await h.axe(owner, "member guardians");
      await owner.keyboard.press("Escape");
      problems(owner, ownerErrors);
      await ownerCtx.close();

      const parentCtx = await h.context();
      const parent = await parentCtx.newPage();
      const parentErrors = h.watch(parent);
      await h.signInByForm(parent, base, "e2e-parent", password);
      await parent.getByRole("heading", { name: "Choose your password" }).waitFor();
      await parent.getByLabel("Temporary password").fill(password);
      await parent.getByLabel(/New password/).fill("Parent-pass-2026");
      await parent.getByRole("button", { name: "Save password" }).click();
      await parent.getByRole("heading", { level: 1, name: "My children" }).waitFor();
      assert(new URL(parent.url()).pathname === "/children", `a guardian lands on My children (${parent.url()})`);
      const cards = parent.locator("article.child");
      await cards.nth(1).waitFor();
      assert((await cards.count()) === 2, "one card per child");
      for (const c of CHILDREN) await parent.getByRole("heading", { level: 3, name: c.space }).first().waitFor();
      await parent.getByRole("heading", { name: "Due in the next 7 days" }).first().waitFor();
      await parent.getByRole("heading", { name: "Returned grades" }).first().waitFor();
      await bothLanguages(parent, "children", true);
      await h.setLang(parent, "en");
      problems(parent, parentErrors);
      await parentCtx.close();
    },
  );

  await teacherCtx.close();
  await studentCtx.close();
}
