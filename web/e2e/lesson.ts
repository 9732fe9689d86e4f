// The lesson end to end (issue 14): a teacher sets a quiz with an ESSAY question and an assignment with a
// rubric, two students take and submit them (the upload on a throttled network), the teacher scores and
// returns, the students see their results. Called by run.ts with its helpers, so both share one browser.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { type Helpers, steps } from "./steps";

const SPACE = "1-1반 국어";
const QUIZ = "E2E 단원 퀴즈";
const ASSIGNMENT = "E2E 독후감 Book report";
const STUDENTS = [
  { id: "s2619", pick: "4", essay: "Photosynthesis turns light into sugar.", points: ["5", "3"], essayScore: "4" },
  { id: "s2620", pick: "5", essay: "Plants eat sunlight.", points: ["3", "2"], essayScore: "2" },
];

/** Waits until `rows` matches exactly `n` elements (a list that refetches after a change). */
async function countIs(rows: Locator, n: number, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while ((await rows.count()) !== n) {
    if (Date.now() > until) throw new Error(`expected ${n} rows, found ${await rows.count()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function lesson(h: Helpers) {
  const { base, shots, check } = h;
  const assert: Helpers["assert"] = h.assert;
  const teacherCtx = await h.context();
  const teacher = await teacherCtx.newPage();
  const teacherErrors = h.watch(teacher);
  // The open space and content are in the query string (/spaces?space=…&content=…).
  const spaceOf = (contentPath: string) => contentPath.replace(/&content=[^&]*/, "");
  const { snap, problems, signIn, captureScreens } = steps(h);
  let quizPath = "";
  let assignmentPath = "";

  await check("lesson: the teacher creates a quiz with every question type incl. ESSAY in the space's classwork", async () => {
    await signIn(teacher, "t-kim");
    await teacher.goto(`${base}/spaces`);
    await teacher.getByRole("link", { name: SPACE }).click();
    await teacher.getByRole("heading", { level: 1, name: SPACE }).waitFor();
    await teacher.getByRole("tab", { name: "Classwork" }).click();
    const folder = teacher.locator("section.panel", { has: teacher.getByRole("heading", { name: "1학기 Term 1" }) });
    await folder.getByLabel("Type").selectOption("QUIZ");
    await folder.getByLabel("Title").fill(QUIZ);
    await folder.getByRole("button", { name: "Create" }).click();
    await teacher.getByRole("heading", { level: 1, name: QUIZ }).waitFor();
    await teacher.getByRole("button", { name: "Assign", exact: true }).click(); // new classwork is a draft
    await teacher.locator(".badge", { hasText: "Shared" }).first().waitFor();
    quizPath = new URL(teacher.url()).pathname + new URL(teacher.url()).search;
    await teacher.getByLabel("Time limit (minutes)").fill("20");
    for (const type of ["SINGLE", "SHORT_ANSWER", "ESSAY"]) {
      await teacher.getByLabel("Question type").selectOption(type);
      await teacher.getByRole("button", { name: "Add question" }).click();
    }
    const qs = teacher.locator("fieldset.question");
    await qs.nth(0).getByLabel("Question", { exact: true }).fill("2 + 2 = ?");
    await qs.nth(0).getByLabel("Option 1").fill("4");
    await qs.nth(0).getByLabel("Option 2").fill("5");
    await qs.nth(1).getByLabel("Question", { exact: true }).fill("The capital of Korea?");
    await qs.nth(1).getByLabel("Accepted answer 1").fill("Seoul");
    await qs.nth(2).getByLabel("Question", { exact: true }).fill("Explain photosynthesis in one sentence.");
    await qs.nth(2).getByLabel("Points").fill("5");
    await teacher.getByRole("button", { name: "Save quiz" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await snap(teacher, "en-quiz-editor");
    await h.axe(teacher, "quiz editor");
    problems(teacher, teacherErrors);
  });

  await check("lesson: the teacher creates an assignment with a maximum score and a two-criterion rubric", async () => {
    await teacher.goto(`${base}${spaceOf(quizPath)}&tab=classwork`);
    const folder = teacher.locator("section.panel", { has: teacher.getByRole("heading", { name: "1학기 Term 1" }) });
    await folder.getByLabel("Type").selectOption("ASSIGNMENT");
    await folder.getByLabel("Title").fill(ASSIGNMENT);
    await folder.getByRole("button", { name: "Create" }).click();
    await teacher.getByRole("heading", { level: 1, name: ASSIGNMENT }).waitFor();
    await teacher.getByRole("button", { name: "Assign", exact: true }).click(); // new classwork is a draft
    await teacher.locator(".badge", { hasText: "Shared" }).first().waitFor();
    assignmentPath = new URL(teacher.url()).pathname + new URL(teacher.url()).search;
    await teacher.getByLabel("Maximum score").fill("10");
    await teacher.getByRole("button", { name: "Save rules" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).first().waitFor();
    await teacher.getByRole("button", { name: "Add criterion" }).click();
    await teacher.getByRole("button", { name: "Add criterion" }).click();
    await teacher.getByLabel("Criterion 1", { exact: true }).fill("Content");
    await teacher.getByLabel("Criterion 1 points").fill("6");
    await teacher.getByLabel("Criterion 2", { exact: true }).fill("Style");
    await teacher.getByLabel("Criterion 2 points").fill("4");
    await teacher.getByRole("button", { name: "Save rubric" }).click();
    await teacher.locator("form", { hasText: "Rubric" }).getByRole("status").waitFor();
    await snap(teacher, "en-assignment-editor");
    await h.axe(teacher, "assignment editor");
    problems(teacher, teacherErrors);
  });

  for (const [n, s] of STUDENTS.entries()) {
    await check(`lesson: student ${s.id} takes the quiz (saved as they go, resumed after a reload) from the to-do`, async () => {
      const ctx = await h.context();
      const page = await ctx.newPage();
      const errors = h.watch(page);
      await signIn(page, s.id);
      await page.getByRole("heading", { level: 1, name: "To-do" }).waitFor(); // a student's first screen
      await page.getByRole("link", { name: QUIZ }).click();
      await page.getByRole("button", { name: "Start the quiz" }).click();
      await page.getByRole("timer").waitFor();
      await page.getByRole("radio", { name: s.pick, exact: true }).check();
      await page
        .getByLabel("Your answer")
        .first()
        .fill(n === 0 ? "seoul" : "Busan");
      await page.getByRole("status").filter({ hasText: "Saved at" }).waitFor();
      await page.waitForLoadState("networkidle"); // a reload aborts what is still loading, which watch() would report
      await page.reload();
      await page.getByRole("timer").waitFor();
      assert(await page.getByRole("radio", { name: s.pick, exact: true }).isChecked(), "the saved choice is back after a reload");
      await page.getByLabel("Your answer").nth(1).fill(s.essay);
      if (n === 0) {
        await snap(page, "en-quiz-taking");
        await h.axe(page, "quiz taking");
      }
      await page.getByRole("button", { name: "Submit answers" }).click();
      await page.getByRole("heading", { name: "My results" }).waitFor();
      await page.getByText("waiting for the teacher's scoring").waitFor();
      problems(page, errors);
      await ctx.close();
    });

    await check(`lesson: student ${s.id} hands in the assignment with a file on a slow network, progress shown`, async () => {
      const ctx = await h.context();
      const page = await ctx.newPage();
      const errors = h.watch(page);
      await signIn(page, s.id);
      await page.goto(`${base}${assignmentPath}`);
      await page.getByRole("heading", { level: 1, name: ASSIGNMENT }).waitFor();
      await page.getByLabel("Text").fill(`Report by ${s.id}`);
      await page
        .getByLabel("Files")
        .setInputFiles({ name: `report-${s.id}.txt`, mimeType: "text/plain", buffer: Buffer.alloc(384 * 1024, 65 + n) });
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 80,
        downloadThroughput: 256 * 1024,
        uploadThroughput: 128 * 1024,
      });
      await page.getByRole("button", { name: "Hand in" }).click();
      await page.locator("progress#upload-progress").waitFor();
      if (n === 0) {
        await page.screenshot({ path: join(shots, "en-assignment-uploading.png"), fullPage: true });
        await h.axe(page, "assignment upload");
      }
      await page.getByTestId("submission-status").filter({ hasText: "Submitted" }).waitFor({ timeout: 30_000 });
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await page.getByRole("link", { name: `report-${s.id}.txt` }).waitFor();
      problems(page, errors);
      await ctx.close();
    });
  }

  await check("lesson: the quiz statistics chart shows the numbers the API returns; the teacher scores the ESSAY answers", async () => {
    const statsResponse = teacher.waitForResponse((r) => r.url().includes("/statistics") && r.request().method() === "GET");
    await teacher.goto(`${base}${quizPath}&tab=results`);
    const stats = (await (await statsResponse).json()) as {
      submittedCount: number;
      pendingManualCount: number;
      questions: { correctRate: number }[];
    };
    // One of two picked the right option and one typed an accepted answer: 50% each.
    assert(
      stats.submittedCount === 2 && stats.pendingManualCount === 2 && stats.questions[0]?.correctRate === 50,
      `stats: ${JSON.stringify(stats)}`,
    );
    const summary = teacher.getByTestId("quiz-summary");
    await summary.getByText(String(stats.submittedCount), { exact: true }).first().waitFor();
    const chart = teacher.locator("figure", { hasText: "Correct rate per question" });
    await chart.locator('canvas[data-drawn="true"]').waitFor(); // Chart.js drew it; its numbers are in the figure's table
    for (const [i, q] of stats.questions.entries()) {
      const value = `${Math.round(q.correctRate * 10) / 10}%`;
      const shown = await chart.locator("tbody tr").nth(i).locator("td").textContent();
      assert(shown === value, `question ${i + 1}: chart shows ${shown}, API says ${value}`);
    }
    await snap(teacher, "en-quiz-results");
    await h.axe(teacher, "quiz results");
    const unscored = teacher.locator("tbody tr").filter({ hasText: "Needs scoring" });
    for (const s of STUDENTS) {
      const name = await unscored.first().locator("button.link").textContent();
      await unscored.first().locator("button.link").click();
      const panel = teacher.locator("section.panel", { hasText: `Attempt of ${name}` });
      await panel.getByLabel("Points (max 5)").fill(s.essayScore);
      await panel.getByLabel("Feedback").fill("Good effort.");
      await panel.getByRole("button", { name: "Save score" }).click();
      await panel.getByRole("status").waitFor();
      // The list catches up before the next pick, or the same attempt would be picked again.
      await teacher
        .locator("tbody tr", { hasText: name ?? "" })
        .filter({ hasText: "Needs scoring" })
        .waitFor({ state: "detached" });
    }
    await teacher.locator("tbody tr", { hasText: "Needs scoring" }).first().waitFor({ state: "detached" });
    await teacher.getByTestId("quiz-summary").locator("dd").nth(2).filter({ hasText: "0" }).waitFor();
    await snap(teacher, "en-quiz-scored");
    problems(teacher, teacherErrors);
  });

  await check("lesson: the teacher grades with the rubric, writes feedback and returns both submissions", async () => {
    await teacher.goto(`${base}${assignmentPath}&tab=grading`);
    const ungraded = teacher.locator("tbody tr").filter({ hasText: "Submitted" });
    for (const [i] of STUDENTS.entries()) {
      await countIs(ungraded, STUDENTS.length - i);
      await ungraded.first().getByRole("button").click();
      const panel = teacher.locator("section.panel", { has: teacher.getByRole("heading", { level: 2 }) }).last();
      // The list's order is the server's: which student this is shows in the submitted text.
      const text = (await panel.getByText(/^Report by s\d+$/).textContent()) ?? "";
      const s = STUDENTS.find((x) => text.endsWith(x.id));
      assert(s, `unknown submission ${text}`);
      const href = await panel.getByRole("link", { name: `report-${s.id}.txt` }).getAttribute("href");
      const got = await teacher.evaluate(async (u) => (await fetch(u as string)).text(), href);
      assert(got.length === 384 * 1024, `the teacher downloads the handed-in file whole (${got.length} bytes)`);
      if (s === STUDENTS[0]) {
        await panel.getByLabel("Later deadline for this student").fill("2031-03-02T09:00");
        await panel.getByRole("button", { name: "Set deadline" }).click();
        await panel.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      }
      await panel.getByLabel("Content (0–6)").fill(s.points[0] as string);
      await panel.getByLabel("Style (0–4)").fill(s.points[1] as string);
      await panel.getByLabel("Feedback").fill("Well structured.");
      await panel.getByRole("button", { name: "Save grade" }).click();
      await panel.getByRole("button", { name: "Return to the student" }).and(teacher.locator(":enabled")).click();
      await panel.getByTestId("submission-status").filter({ hasText: "Returned" }).waitFor();
    }
    await snap(teacher, "en-assignment-grading");
    await h.axe(teacher, "grading");
    problems(teacher, teacherErrors);
  });

  await check("lesson: the students see their returned grade, quiz score and feedback; my grades lists both", async () => {
    for (const s of STUDENTS) {
      const ctx = await h.context();
      const page = await ctx.newPage();
      const errors = h.watch(page);
      await signIn(page, s.id);
      await page.goto(`${base}${assignmentPath}`);
      await page.getByTestId("submission-status").filter({ hasText: "Returned" }).waitFor();
      const total = Number(s.points[0]) + Number(s.points[1]);
      await page
        .getByTestId("submission-score")
        .filter({ hasText: String(total) })
        .waitFor();
      await page.getByText("Well structured.").waitFor();
      await page.goto(`${base}${quizPath}`);
      await page.getByTestId("quiz-final-score").waitFor();
      await page.getByText("Feedback: Good effort.").waitFor();
      if (s === STUDENTS[0]) await snap(page, "en-quiz-my-results");
      await page.goto(`${base}${spaceOf(quizPath)}&tab=grades`);
      const row = page.locator("tbody tr");
      await row.getByRole("cell", { name: String(total), exact: true }).waitFor();
      if (s === STUDENTS[0]) {
        await snap(page, "en-my-grades");
        await h.axe(page, "my grades");
      }
      problems(page, errors);
      await ctx.close();
    }
  });

  await check("lesson: the space gradebook shows the grades and downloads as CSV", async () => {
    await teacher.goto(`${base}${spaceOf(quizPath)}&tab=grades`);
    await teacher.getByRole("columnheader", { name: new RegExp(ASSIGNMENT) }).waitFor();
    const download = teacher.waitForEvent("download");
    await teacher.getByRole("button", { name: "Download CSV" }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, "utf8");
    assert(csv.includes(ASSIGNMENT) && csv.includes("8"), `csv: ${csv.slice(0, 300)}`);
    await snap(teacher, "en-gradebook");
    problems(teacher, teacherErrors);
  });

  await check("lesson: a student drafts and submits the class survey; the teacher's result charts show the API's ratios", async () => {
    const ctx = await h.context();
    const page = await ctx.newPage();
    const errors = h.watch(page);
    await signIn(page, "s2619");
    await page.goto(`${base}${spaceOf(quizPath)}&tab=classwork`);
    await page.getByRole("link", { name: "수업 만족도 Class survey" }).click();
    await page.getByRole("radio", { name: "예 Yes" }).check();
    await page.getByLabel("Your answer").fill("More experiments");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByTestId("survey-status").filter({ hasText: "Draft saved" }).waitFor();
    await page.getByRole("button", { name: "Submit response" }).click();
    await page.getByTestId("survey-status").filter({ hasText: "Submitted" }).waitFor();
    await snap(page, "en-survey-submitted");
    await h.axe(page, "survey");
    problems(page, errors);
    await ctx.close();
    const statsResponse = teacher.waitForResponse((r) => r.url().includes("/surveys/") && r.url().endsWith("/statistics"));
    await teacher.goto(`${base}${spaceOf(quizPath)}&tab=classwork`);
    await teacher.getByRole("link", { name: "수업 만족도 Class survey" }).click();
    const stats = (await (await statsResponse).json()) as { submittedCount: number; questions: { options: { ratio: number }[] }[] };
    assert(stats.submittedCount === 11, `10 seeded responses and this one: ${stats.submittedCount}`);
    const chart = teacher.locator("figure").first();
    await chart.locator('canvas[data-drawn="true"]').waitFor();
    for (const [i, o] of (stats.questions[0]?.options ?? []).entries()) {
      const shown = await chart.locator("tbody tr").nth(i).locator("td").textContent();
      assert(shown === `${Math.round(o.ratio * 10) / 10}%`, `option ${i + 1}: chart shows ${shown}, API says ${o.ratio}`);
    }
    await snap(teacher, "en-survey-results");
    await h.axe(teacher, "survey results");
    problems(teacher, teacherErrors);
  });

  await check(
    "lesson: a teacher pins a post to the stream; a student of another class joins with a space join code and reads it",
    async () => {
      await teacher.goto(`${base}${spaceOf(quizPath)}`);
      await teacher.getByLabel("Title").fill("E2E 공지 Bring a notebook");
      await teacher.getByLabel("Text").fill("Tomorrow we write.");
      await teacher.getByLabel("Pin to the top").check();
      await teacher.getByRole("button", { name: "Publish" }).click();
      await teacher.getByRole("heading", { level: 2, name: /Bring a notebook/ }).waitFor();
      await teacher.goto(`${base}${spaceOf(quizPath)}&tab=members`);
      await teacher.getByRole("button", { name: "New join code" }).click();
      const code = (await teacher.getByTestId("space-join-code").last().textContent()) ?? "";
      assert(code.length > 0, "a join code is shown");
      const ctx = await h.context();
      const page = await ctx.newPage();
      const errors = h.watch(page);
      await signIn(page, "s2650");
      await page.goto(`${base}/spaces`);
      await page.getByRole("heading", { level: 1, name: "Spaces" }).waitFor();
      assert((await page.getByRole("link", { name: SPACE }).count()) === 0, "not a member before");
      await page.getByLabel("Space join code").fill(code);
      await page.getByRole("button", { name: "Join", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: SPACE }).waitFor();
      await page.getByText("Tomorrow we write.").waitFor();
      await page.getByText("과제와 퀴즈를 확인하세요.").waitFor(); // the demo's own post has its text
      await page.getByRole("tab", { name: "Classwork" }).click();
      await page.getByRole("link", { name: QUIZ }).waitFor();
      problems(page, errors);
      await ctx.close();
    },
  );

  await check("lesson: the teacher closes the quiz window now; a student then finds it closed", async () => {
    await teacher.goto(`${base}${quizPath}`);
    await teacher.getByRole("button", { name: "Close now" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const ctx = await h.context();
    const page = await ctx.newPage();
    const errors = h.watch(page);
    await signIn(page, "s2601");
    await page.goto(`${base}${quizPath}`);
    await page.getByText("This quiz is closed.").waitFor();
    assert((await page.getByRole("button", { name: /Start/ }).count()) === 0, "no start button on a closed quiz");
    problems(page, errors);
    await ctx.close();
    problems(teacher, teacherErrors);
  });

  for (const lang of ["ko", "en"] as const) {
    await check(
      `lesson screens in ${lang}: space stream, classwork, members, quiz results, grading, to-do pass axe and are captured`,
      async () => {
        await h.setLang(teacher, lang);
        const space = spaceOf(quizPath);
        await captureScreens(teacher, lang, "lesson", [
          ["spaces", "/spaces"],
          ["space-stream", space],
          ["space-classwork", `${space}&tab=classwork`],
          ["space-members", `${space}&tab=members`],
          ["quiz-results", `${quizPath}&tab=results`],
          ["assignment-grading", `${assignmentPath}&tab=grading`],
          ["todo", "/todo"],
        ]);
        problems(teacher, teacherErrors);
      },
    );
  }
  await h.setLang(teacher, "en");
  await teacherCtx.close();
}
