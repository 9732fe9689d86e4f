// Teaching work beyond the lesson (issue 14): a teacher builds a survey with every question type, a group
// assignment is handed in by a group and graded per member, students peer-assess their group, and a student
// gets another quiz attempt. Called by run.ts with the helpers lesson() gets, so all share one browser.
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Helpers } from "./steps";

const SPACE = "1-1반 국어";
const FOLDER = "1학기 Term 1";
const SURVEY = "E2E 설문 Survey builder";
const GROUP_TASK = "E2E 모둠 과제 Group project";
const PEER = "E2E 동료 평가 Peer review";
const RETAKE = "E2E 재응시 Retake quiz";
const GROUP_SET = "E2E 모둠 Work groups";
// Students of the space the lesson leaves alone: two groups of two, and one for the retake.
const GROUP_1 = ["s2603", "s2604"];
const GROUP_2 = ["s2605", "s2606"];
const RETAKER = "s2607";

export async function work(h: Helpers) {
  const { base, shots, check } = h;
  const assert: Helpers["assert"] = h.assert;
  const teacherCtx = await h.context();
  const teacher = await teacherCtx.newPage();
  const teacherErrors = h.watch(teacher);
  const snap = async (page: Page, name: string) => {
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  };
  const problems = (page: Page, w: { take(): string[] }) => {
    const left = w.take();
    assert(left.length === 0, `${page.url()}: ${left.join("; ")}`);
  };
  const signIn = async (page: Page, who: string) => {
    await h.signIn(page, base, who);
    await page.waitForLoadState("networkidle");
  };
  /** A student's own browser for one task: signed in, errors watched, closed after `fn`. */
  const asStudent = async (who: string, fn: (page: Page) => Promise<void>) => {
    const ctx = await h.context();
    const page = await ctx.newPage();
    const errors = h.watch(page);
    await signIn(page, who);
    await fn(page);
    problems(page, errors);
    await ctx.close();
  };
  const here = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;
  let classwork = "";
  /** Creates a content in the space's folder from its classwork tab and returns its page. */
  const create = async (type: string, title: string) => {
    await teacher.goto(`${base}${classwork}`);
    const folder = teacher.locator("section.panel", { has: teacher.getByRole("heading", { name: FOLDER }) });
    await folder.getByLabel("Type").selectOption(type);
    await folder.getByLabel("Title").fill(title);
    await folder.getByRole("button", { name: "Create" }).click();
    await teacher.getByRole("heading", { level: 1, name: title }).waitFor();
    await teacher.getByRole("button", { name: "Assign", exact: true }).click(); // new classwork is a draft
    await teacher.locator(".badge", { hasText: "Shared" }).first().waitFor();
    return here(teacher);
  };
  let surveyPath = "";
  let groupPath = "";
  let peerPath = "";
  let quizPath = "";
  let gradingPath = "";

  await check("work: the teacher builds a survey with every question type and a window", async () => {
    await signIn(teacher, "t-kim");
    await teacher.goto(`${base}/spaces`);
    await teacher.getByRole("link", { name: SPACE }).click();
    await teacher.getByRole("heading", { level: 1, name: SPACE }).waitFor();
    await teacher.getByRole("tab", { name: "Classwork" }).click();
    await teacher.getByRole("heading", { name: FOLDER }).waitFor();
    classwork = here(teacher).includes("tab=classwork") ? here(teacher) : `${here(teacher)}&tab=classwork`;
    surveyPath = await create("SURVEY", SURVEY);
    await teacher.getByRole("tab", { name: "Questions and window" }).click();
    await teacher.getByLabel("Description").fill("How did the unit go?");
    for (const type of ["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SHORT_TEXT", "LONG_TEXT", "SCALE"]) {
      await teacher.getByLabel("Question type").selectOption(type);
      await teacher.getByRole("button", { name: "Add question" }).click();
    }
    const qs = teacher.locator("fieldset.question");
    await qs.nth(0).getByLabel("Question", { exact: true }).fill("Was the pace right?");
    await qs.nth(0).getByLabel("Answer required").check();
    await qs.nth(0).getByLabel("Option 1").fill("Too fast");
    await qs.nth(0).getByLabel("Option 2").fill("Just right");
    await qs.nth(1).getByLabel("Question", { exact: true }).fill("What helped?");
    await qs.nth(1).getByLabel("Option 1").fill("Videos");
    await qs.nth(1).getByLabel("Option 2").fill("Group work");
    await qs.nth(1).getByRole("button", { name: "Add an option" }).click();
    await qs.nth(1).getByLabel("Option 3").fill("Other");
    await qs.nth(1).getByRole("checkbox", { name: '"Other" with text' }).nth(2).check();
    await qs.nth(2).getByLabel("Question", { exact: true }).fill("One word for the unit");
    await qs.nth(3).getByLabel("Question", { exact: true }).fill("What should change?");
    await qs.nth(4).getByLabel("Question", { exact: true }).fill("How much did you learn?");
    await qs.nth(4).getByLabel("Label at the low end").fill("Little");
    await qs.nth(4).getByLabel("Label at the high end").fill("A lot");
    // The last question moves up one place: the order is the teacher's.
    await qs.nth(4).getByRole("button", { name: "Move up" }).click();
    assert((await qs.nth(3).getByLabel("Question", { exact: true }).inputValue()) === "How much did you learn?", "moved up");
    await teacher.getByLabel("Closes at").fill("2031-12-31T18:00");
    await teacher.getByRole("button", { name: "Save survey" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await snap(teacher, "en-work-survey-editor");
    await h.axe(teacher, "survey editor");
    problems(teacher, teacherErrors);
  });

  await check(
    "work: a student responds to the built survey; the results show its chart numbers, text answers and respondents",
    async () => {
      await asStudent(GROUP_1[0] as string, async (page) => {
        await page.goto(`${base}${surveyPath}`);
        await page.getByRole("heading", { level: 1, name: SURVEY }).waitFor();
        await page.getByRole("radio", { name: "Just right" }).check();
        await page.getByRole("checkbox", { name: "Group work" }).check();
        await page.getByRole("checkbox", { name: "Other", exact: true }).check();
        await page.getByLabel("Other: your words").fill("Songs");
        await page.getByRole("spinbutton").fill("4");
        await page.getByLabel("Your answer").nth(0).fill("Poems");
        await page.getByLabel("Your answer").nth(1).fill("More reading aloud");
        await page.getByRole("button", { name: "Submit response" }).click();
        await page.getByTestId("survey-status").filter({ hasText: "Submitted" }).waitFor();
      });
      const statsResponse = teacher.waitForResponse((r) => r.url().includes("/surveys/") && r.url().endsWith("/statistics"));
      await teacher.goto(`${base}${surveyPath}`);
      const stats = (await (await statsResponse).json()) as {
        submittedCount: number;
        questions: { options: { ratio: number }[]; scale: { distribution: { count: number }[] } | null }[];
      };
      assert(stats.submittedCount === 1, `one response: ${stats.submittedCount}`);
      for (const [q, figure] of [
        [0, 0],
        [1, 1],
      ] as const) {
        const chart = teacher.locator("figure").nth(figure);
        await chart.locator('canvas[data-drawn="true"]').waitFor();
        for (const [i, o] of (stats.questions[q]?.options ?? []).entries()) {
          const shown = await chart.locator("tbody tr").nth(i).locator("td").textContent();
          assert(shown === `${Math.round(o.ratio * 10) / 10}%`, `question ${q + 1} option ${i + 1}: chart ${shown}, API ${o.ratio}`);
        }
      }
      const scale = teacher.locator("figure").nth(2);
      const counts = await scale.locator("tbody td").allTextContents();
      assert(
        counts.join(",") === (stats.questions[3]?.scale?.distribution.map((d) => String(d.count)) ?? []).join(","),
        `scale chart ${counts} vs API`,
      );
      await teacher.getByText("1 text answer").first().click();
      await teacher.getByTestId("survey-text-answers").getByText("Poems").waitFor();
      const respondents = teacher.getByTestId("survey-respondents");
      await teacher.getByLabel("Show").selectOption("SUBMITTED");
      await respondents.locator("tbody tr").first().waitFor();
      assert((await respondents.locator("tbody tr").count()) === 1, "one respondent submitted");
      await snap(teacher, "en-work-survey-results");
      await h.axe(teacher, "survey results");
      problems(teacher, teacherErrors);
    },
  );

  await check("work: a survey change that would drop answers asks first, then saves and clears them", async () => {
    await teacher.goto(`${base}${surveyPath}&tab=edit`);
    const q2 = teacher.locator("fieldset.question").nth(1);
    await q2.getByRole("button", { name: "Remove choice 1" }).click();
    await teacher.getByRole("button", { name: "Save survey" }).click();
    const warning = teacher.getByRole("alert").filter({ hasText: "deletes every response" });
    await warning.getByText("an option was removed").waitFor();
    await warning.getByRole("button", { name: "Save and delete the responses" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await teacher.getByRole("tab", { name: "Results" }).click();
    await teacher.getByTestId("survey-summary").locator("dd").first().filter({ hasText: "0" }).waitFor();
    // Everyone is listed again as not responded (and the list has loaded before the next page replaces this one).
    await teacher.getByTestId("survey-respondents").getByRole("cell", { name: "Not responded" }).first().waitFor();
    problems(teacher, teacherErrors);
  });

  await check("work: the teacher sets up a group assignment with a new group set of two groups", async () => {
    groupPath = await create("GROUP_ASSIGNMENT", GROUP_TASK);
    await teacher.getByRole("button", { name: "New group set" }).click();
    await teacher.getByLabel("Group set name").fill(GROUP_SET);
    for (const id of GROUP_1) await teacher.getByRole("combobox", { name: new RegExp(`^Group of .* ${id}$`) }).selectOption("0");
    for (const id of GROUP_2) await teacher.getByRole("combobox", { name: new RegExp(`^Group of .* ${id}$`) }).selectOption("1");
    await snap(teacher, "en-work-group-set");
    await h.axe(teacher, "group set");
    await teacher.getByRole("button", { name: "Create group set" }).click();
    await teacher.getByLabel("Group set", { exact: true }).locator("option:checked", { hasText: GROUP_SET }).waitFor({ state: "attached" });
    await teacher.getByLabel("Maximum score").fill("10");
    await teacher.getByRole("button", { name: "Save rules" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await snap(teacher, "en-work-group-editor");
    problems(teacher, teacherErrors);
  });

  await check("work: one member hands in for the group with a file; the group sees it", async () => {
    await asStudent(GROUP_1[0] as string, async (page) => {
      await page.goto(`${base}${groupPath}`);
      await page.getByRole("heading", { name: "My group: Group 1" }).waitFor();
      await page.getByLabel("Text").fill("Our group poster");
      await page.getByLabel("Files").setInputFiles({ name: "poster.txt", mimeType: "text/plain", buffer: Buffer.from("poster") });
      await page.getByRole("button", { name: "Hand in" }).click();
      await page.getByTestId("submission-status").filter({ hasText: "Submitted" }).waitFor();
      await page.getByRole("link", { name: "poster.txt" }).waitFor();
      await snap(page, "en-work-group-submitted");
      await h.axe(page, "group submission");
    });
    await asStudent(GROUP_1[1] as string, async (page) => {
      await page.goto(`${base}${groupPath}`);
      await page.getByTestId("submission-status").filter({ hasText: "Submitted" }).waitFor();
      await page.getByText("Our group poster").waitFor();
    });
  });

  await check("work: the teacher grades the group, gives one member another score and returns it; the members see it", async () => {
    await teacher.goto(`${base}${groupPath}&tab=grading`);
    await teacher.getByRole("button", { name: "Group 1" }).click();
    const panel = teacher.locator("section.panel", { has: teacher.getByRole("heading", { level: 2, name: "Group 1" }) });
    gradingPath = here(teacher);
    await panel.getByRole("link", { name: "poster.txt" }).waitFor();
    // Feedback first, before a score (saveGroupSubmissionFeedback): the group stays waiting to be graded.
    await panel.getByLabel("Feedback").fill("A clear poster.");
    await panel.getByRole("button", { name: "Save feedback only" }).click();
    await panel.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await panel.getByTestId("submission-status").filter({ hasText: "Submitted" }).waitFor();
    await panel.getByLabel("Score (max 10)").fill("8");
    await panel.getByRole("button", { name: "Save grade" }).click();
    await panel.getByTestId("submission-status").filter({ hasText: "Graded" }).waitFor();
    const members = panel.getByLabel(/^Score of /);
    await members.first().waitFor();
    assert((await members.count()) === 2, "both members of the group are listed");
    await members.nth(1).fill("10");
    await panel.getByRole("button", { name: "Save member scores" }).click();
    await panel
      .getByTestId("member-scores")
      .getByText(/: 10 \(own score\)/)
      .waitFor();
    await panel.getByTestId("member-scores").getByText(/: 8$/).waitFor();
    await panel.getByRole("button", { name: "Return to the group" }).click();
    await panel.getByTestId("submission-status").filter({ hasText: "Returned" }).waitFor();
    await snap(teacher, "en-work-group-grading");
    await h.axe(teacher, "group grading");
    problems(teacher, teacherErrors);
    await asStudent(GROUP_1[1] as string, async (page) => {
      await page.goto(`${base}${groupPath}`);
      await page.getByTestId("submission-status").filter({ hasText: "Returned" }).waitFor();
      await page.getByTestId("submission-score").filter({ hasText: "8" }).waitFor();
      await page.getByText("A clear poster.").waitFor();
    });
  });

  await check("work: the teacher sets up a peer assessment on the group set with two criteria", async () => {
    peerPath = await create("GROUP_PEER_ASSESSMENT", PEER);
    await teacher.getByLabel("Group set", { exact: true }).selectOption({ label: `${GROUP_SET} (2 groups)` });
    await teacher.getByLabel("Allow written comments").check();
    await teacher.getByLabel("Criterion 1", { exact: true }).fill("Cooperation");
    await teacher.getByRole("button", { name: "Add criterion" }).click();
    await teacher.getByLabel("Criterion 2", { exact: true }).fill("Contribution");
    await teacher.getByLabel("Criterion 2 explanation").fill("Did they do their share?");
    await teacher.getByRole("button", { name: "Save peer assessment" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await snap(teacher, "en-work-peer-setup");
    await h.axe(teacher, "peer setup");
    problems(teacher, teacherErrors);
  });

  const given = { [GROUP_1[0] as string]: ["4", "5"], [GROUP_1[1] as string]: ["3", "2"] };
  for (const [who, scores] of Object.entries(given)) {
    await check(`work: student ${who} assesses the other member of their group`, async () => {
      await asStudent(who, async (page) => {
        await page.goto(`${base}${peerPath}`);
        await page.getByTestId("peer-my-progress").filter({ hasText: "0 of 1 assessed" }).waitFor();
        const form = page.locator("form.panel");
        for (const [i, criterion] of ["Cooperation", "Contribution"].entries()) {
          await form
            .getByRole("radiogroup", { name: `Score for ${criterion}` })
            .getByRole("radio", { name: scores[i], exact: true })
            .check();
        }
        await form.getByLabel("Comment").first().fill(`Thanks from ${who}`);
        if (who === GROUP_1[0]) {
          await snap(page, "en-work-peer-assessing");
          await h.axe(page, "peer assessing");
        }
        await form.getByRole("button", { name: "Send assessment" }).click();
        await page.getByTestId("peer-my-progress").filter({ hasText: "1 of 1 assessed" }).waitFor();
        await form.getByTestId("peer-target-status").waitFor();
      });
    });
  }

  await check("work: the teacher sees peer progress and each target's averages, the chart showing the API's numbers", async () => {
    const resultsResponse = teacher.waitForResponse((r) => r.url().includes("/peer-assessments/") && r.url().endsWith("/results"));
    await teacher.goto(`${base}${peerPath}&tab=results`);
    const results = (await (await resultsResponse).json()) as {
      targets: { targetName: string; groupName: string; overallAverage: number | null; comments: string[] }[];
      expectedSubmitterCount: number;
      submittedSubmitterCount: number;
    };
    assert(
      results.expectedSubmitterCount === 4 && results.submittedSubmitterCount === 2,
      `progress: ${results.submittedSubmitterCount} of ${results.expectedSubmitterCount}`,
    );
    const progress = teacher.getByTestId("peer-progress");
    await progress.locator("dd").nth(0).filter({ hasText: "2" }).waitFor();
    await progress.locator("dd").nth(1).filter({ hasText: "4" }).waitFor();
    const chart = teacher.locator("figure", { hasText: "Average score received" });
    await chart.locator('canvas[data-drawn="true"]').waitFor();
    for (const [i, x] of results.targets.entries()) {
      const shown = await chart.locator("tbody tr").nth(i).locator("td").textContent();
      const want = x.overallAverage === null ? 0 : Math.round(x.overallAverage * 100) / 100;
      assert(shown === String(want), `${x.targetName}: chart ${shown}, API ${x.overallAverage}`);
    }
    assert(
      results.targets.some((x) => x.overallAverage === 4.5),
      "one member got 4 and 5: average 4.5",
    );
    await teacher.getByText(`Thanks from ${GROUP_1[0]}`).waitFor();
    await snap(teacher, "en-work-peer-results");
    await h.axe(teacher, "peer results");
    problems(teacher, teacherErrors);
  });

  await check("work: a student who used their one quiz attempt gets another from the results", async () => {
    quizPath = await create("QUIZ", RETAKE);
    await teacher.getByLabel("Attempts allowed").fill("1");
    await teacher.getByLabel("Question type").selectOption("SINGLE");
    await teacher.getByRole("button", { name: "Add question" }).click();
    const q = teacher.locator("fieldset.question").first();
    await q.getByLabel("Question", { exact: true }).fill("3 × 3 = ?");
    await q.getByLabel("Option 1").fill("9");
    await q.getByLabel("Option 2").fill("6");
    await teacher.getByRole("button", { name: "Save quiz" }).click();
    await teacher.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const take = async (pick: string) =>
      asStudent(RETAKER, async (page) => {
        await page.goto(`${base}${quizPath}`);
        // A voided attempt no longer counts: the button says "Start the quiz" again.
        await page.getByRole("button", { name: /^Start/ }).click();
        await page.getByRole("radio", { name: pick, exact: true }).check();
        await page.getByRole("button", { name: "Submit answers" }).click();
        await page.getByRole("heading", { name: "My results" }).waitFor();
        assert((await page.getByRole("button", { name: /Start/ }).count()) === 0, "no attempt left");
      });
    await take("6");
    await teacher.goto(`${base}${quizPath}&tab=results`);
    const row = teacher.locator("tbody tr", { hasText: "Scored" });
    teacher.once("dialog", (d) => void d.accept());
    await row.getByRole("button", { name: /^Allow another attempt: / }).click();
    await teacher.locator("tbody tr", { hasText: "Voided" }).waitFor();
    await snap(teacher, "en-work-quiz-voided");
    await h.axe(teacher, "quiz attempts");
    await take("9");
    await teacher.reload();
    await teacher.locator("tbody tr", { hasText: "Scored" }).getByRole("cell", { name: "5", exact: true }).waitFor();
    problems(teacher, teacherErrors);
  });

  for (const lang of ["ko", "en"] as const) {
    await check(`work screens in ${lang}: survey editor and results, group grading, peer setup and results, quiz attempts`, async () => {
      await h.setLang(teacher, lang);
      for (const [name, path] of [
        ["survey-editor", `${surveyPath}&tab=edit`],
        ["survey-results", surveyPath],
        ["group-editor", groupPath],
        ["group-grading", gradingPath],
        ["peer-setup", peerPath],
        ["peer-results", `${peerPath}&tab=results`],
        ["quiz-attempts", `${quizPath}&tab=results`],
      ] as const) {
        await h.open(teacher, base, path);
        await teacher.locator("#main h1").first().waitFor();
        await h.settle(teacher);
        await teacher.screenshot({ path: join(shots, `${lang}-work-screen-${name}.png`), fullPage: true });
        await h.axe(teacher, `${lang} ${path}`);
      }
      problems(teacher, teacherErrors);
    });
  }
  await check("work student screens in ko: peer assessing and the group assignment", async () => {
    const ctx = await h.context("ko-KR");
    const page = await ctx.newPage();
    const errors = h.watch(page);
    await signIn(page, GROUP_2[0] as string);
    await h.setLang(page, "ko");
    for (const [name, path] of [
      ["peer-assessing", peerPath],
      ["group-submit", groupPath],
    ] as const) {
      await h.open(page, base, path);
      await page.locator("#main h1").first().waitFor();
      await h.settle(page);
      await page.screenshot({ path: join(shots, `ko-work-screen-${name}.png`), fullPage: true });
      await h.axe(page, `ko student ${path}`);
    }
    problems(page, errors);
    await ctx.close();
  });
  await h.setLang(teacher, "en");
  await teacherCtx.close();
}
