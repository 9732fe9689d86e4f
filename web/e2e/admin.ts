// The administration screens end to end (issue 13, part 1): custom fields edited as one batch (a choice
// added, a bounds problem shown on its field, display columns, space fields), organization units renamed,
// moved and given a leader, positions edited and switched on and given to a member, and the members list
// filtered by two roles, a last sign-in range, space counts and two field filters, all kept in the URL.
// Called by run.ts with its helpers, so it shares the browser and the demo school.
import { join } from "node:path";
import type { Helpers } from "./steps";

const CLUB = "E2E Club 동아리";
const HQ = "E2E 본부 HQ";
const TEAM = "E2E 팀 Team";
const TEAM_RENAMED = "E2E 교무팀 Academic";
const POSITION = "E2E 부장 Head";

/** Today in the browser's (this machine's) time zone, as a date input wants it. */
function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export async function admin(h: Helpers) {
  const { base, shots, check } = h;
  const assert: Helpers["assert"] = h.assert;
  const ctx = await h.context();
  const page = await ctx.newPage();
  const errors = h.watch(page);
  const clean = () => {
    const left = errors.take();
    assert(left.length === 0, `${page.url()}: ${left.join("; ")}`);
  };
  /** Both languages: a full-page screenshot and axe each, back in English after. */
  const capture = async (name: string) => {
    for (const lang of ["ko", "en"] as const) {
      await h.setLang(page, lang);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: join(shots, `${lang}-${name}.png`), fullPage: true });
      await h.axe(page, `${lang} ${name}`);
    }
  };
  await h.signIn(page, base, "owner@demo.school");
  await h.setLang(page, "en");

  await check("admin: custom fields — a batch with a new choice, a field and a bounds problem shown on its field", async () => {
    await page.goto(`${base}/fields`);
    await page.getByRole("heading", { level: 1, name: "Custom fields" }).waitFor();
    // A choice for the demo's grade field, and one too long for the server (1..100 characters).
    const grade = page.getByRole("textbox", { name: "New choice for 학년 Grade" });
    await grade.fill("4");
    await grade.press("Enter");
    await grade.fill("x".repeat(101));
    await grade.press("Enter");
    // A new choice field, added through the form, saved with the rest.
    const form = page.locator("form.new-field");
    await form.getByLabel("Key").fill("e2e_club");
    await form.getByLabel("Label").fill(CLUB);
    await form.getByLabel("Type").selectOption("SELECT");
    for (const choice of ["Art", "Chess"]) {
      await form.getByRole("textbox", { name: `New choice for ${CLUB}` }).fill(choice);
      await form.getByRole("button", { name: "Add choice" }).click();
    }
    await form.getByRole("button", { name: "Add to the list" }).click();
    await page.getByRole("textbox", { name: `e2e_club: Label` }).waitFor();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Use 1 to 100 characters.").waitFor();
    assert((await grade.getAttribute("aria-invalid")) === "true", "the grade's choices are marked invalid");
    await page.screenshot({ path: join(shots, "en-fields-bounds.png"), fullPage: true });
    errors.take(); // the 400 was the point
    await page.getByRole("button", { name: `Remove choice ${"x".repeat(101)}` }).click();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.getByRole("cell", { name: "e2e_club", exact: true }).waitFor();
    const choices = await page.getByRole("list", { name: "Choices of 학년 Grade" }).getByRole("listitem").count();
    assert(choices === 4, `the grade field has 4 choices (has ${choices})`);
    await page.waitForLoadState("networkidle");
    await page.reload();
    await page
      .getByRole("list", { name: `Choices of ${CLUB}` })
      .getByText("Chess")
      .waitFor();
    clean();
  });

  await check("admin: custom fields — display columns of the members list, and space fields", async () => {
    await page.goto(`${base}/fields`);
    await page.getByRole("checkbox", { name: "Created: Shown" }).uncheck();
    await page
      .getByRole("button", { name: `${CLUB}: Move up` })
      .last()
      .click();
    await page.getByRole("button", { name: "Save columns" }).click();
    await page.getByRole("button", { name: "Save columns" }).and(page.locator(":disabled")).waitFor();
    await capture("fields");
    await page.getByRole("tab", { name: "Space fields" }).click();
    assert(new URL(page.url()).searchParams.get("kind") === "space", "the tab is in the URL");
    const form = page.locator("form.new-field");
    await form.getByLabel("Key").fill("e2e_room");
    await form.getByLabel("Label").fill("E2E Room 교실");
    await form.getByLabel("Type").selectOption("NUMBER");
    await form.getByRole("button", { name: "Add to the list" }).click();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor({ timeout: 5000 });
    await page.locator("code", { hasText: "e2e_room" }).waitFor();
    await capture("fields-space");
    await page.goto(`${base}/members`);
    await page.getByRole("columnheader", { name: CLUB }).waitFor();
    assert((await page.getByRole("columnheader", { name: "Created" }).count()) === 0, "the hidden column is gone");
    clean();
  });

  await check("admin: org — a unit renamed, moved under another and given a leader", async () => {
    await page.goto(`${base}/org`);
    for (const name of [HQ, TEAM]) {
      await page.getByLabel("New top-level unit").fill(name);
      await page.getByRole("button", { name: "Create" }).first().click();
      await page.getByRole("button", { name, exact: true }).waitFor();
    }
    await page.getByRole("button", { name: TEAM, exact: true }).click();
    const panel = page.locator(".panel");
    await panel.getByLabel("Name", { exact: true }).fill(TEAM_RENAMED);
    await panel.getByRole("button", { name: "Rename" }).click();
    await panel.getByRole("heading", { name: TEAM_RENAMED }).waitFor();
    await panel.getByLabel("Parent unit").selectOption({ label: HQ });
    await panel.getByRole("button", { name: "Move", exact: true }).click();
    // Nested now: the renamed unit is inside the HQ's list item.
    await page
      .locator(".tree li", { has: page.getByRole("button", { name: HQ, exact: true }) })
      .getByRole("button", { name: TEAM_RENAMED })
      .waitFor();
    await panel.getByLabel("Add a member").fill("t-park");
    await panel.getByRole("button", { name: /^Add / }).first().click();
    await panel.getByRole("cell", { name: "t-park" }).waitFor();
    const leader = (await panel.getByRole("cell", { name: "t-park" }).locator("xpath=../td[1]").textContent())?.trim() ?? "";
    await panel.getByLabel("Leader").selectOption({ label: leader });
    await page.getByText(`Leader: ${leader}`).first().waitFor();
    await capture("org-unit");
    clean();
  });

  await check("admin: positions — switched on, edited (a bounds problem on its field), given to a member", async () => {
    await page.goto(`${base}/org`);
    const on = page.getByRole("checkbox", { name: "Show positions on members" });
    if (!(await on.isChecked())) await on.click();
    await page.getByRole("checkbox", { name: "Show positions on members", checked: true }).waitFor();
    await page.getByLabel("New position").fill(POSITION);
    await page.getByRole("button", { name: "Create" }).last().click();
    await page.getByRole("button", { name: `Edit ${POSITION}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Order").fill("10000");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("Use a whole number from 0 to 9999.").waitFor();
    assert((await dialog.getByLabel("Order").getAttribute("aria-invalid")) === "true", "the order is marked invalid");
    await page.screenshot({ path: join(shots, "en-org-position-bounds.png") });
    errors.take(); // the 400 was the point
    await dialog.getByLabel("Order").fill("5");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await page
      .getByRole("row", { name: new RegExp(POSITION) })
      .getByRole("cell", { name: "5", exact: true })
      .waitFor();
    await page.goto(`${base}/members?q=s2603`);
    await page.locator("tbody tr button.link").first().click();
    const member = page.getByRole("dialog");
    await member.getByLabel("Position").selectOption({ label: POSITION });
    await member.getByRole("button", { name: "Assign position" }).click();
    await member.getByText("Saved.").waitFor();
    await page.waitForLoadState("networkidle");
    await page.reload();
    await page.getByRole("dialog").getByLabel("Position").waitFor();
    const chosen = await page.getByRole("dialog").getByLabel("Position").locator("option:checked").textContent();
    assert(chosen === POSITION, `the member's position is kept (${chosen})`);
    await page.keyboard.press("Escape");
    clean();
  });

  await check(
    "admin: members filtered by two roles and a last sign-in range, space counts and two field filters; the URL survives a reload",
    async () => {
      // A teacher signs in now, so the range has someone besides the owner.
      const other = await h.context();
      const teacher = await other.newPage();
      await h.signInByForm(teacher, base, "t-lee");
      await other.close();
      // A student with values in two custom fields.
      await page.goto(`${base}/members?q=s2602`);
      await page.locator("tbody tr button.link").first().click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("학년 Grade").selectOption("2");
      await dialog.getByLabel(CLUB).selectOption("Chess");
      await dialog.getByRole("button", { name: "Save fields" }).click();
      await dialog.getByText("Saved.").waitFor();
      await page.keyboard.press("Escape");

      await page.goto(`${base}/members`);
      const filters = page.getByRole("group", { name: "Filters" });
      await filters.locator("summary", { hasText: "Role" }).click();
      await filters.getByRole("checkbox", { name: "교사 Teacher" }).check();
      await filters.getByRole("checkbox", { name: "Owner" }).check();
      await page.keyboard.press("Escape");
      assert(!(await filters.getByRole("checkbox", { name: "Owner" }).isVisible()), "Esc closes the role choices");
      const range = filters.getByRole("group", { name: "Last sign-in" });
      await range.getByLabel("From").fill(today());
      await range.getByLabel("To").fill(today());
      await page.getByRole("cell", { name: "t-lee", exact: true }).waitFor();
      const url = new URL(page.url());
      assert(url.searchParams.getAll("role").length === 2, `two roles in the URL: ${url.search}`);
      const roles = await page.locator("tbody tr td:nth-child(3)").allTextContents();
      assert(
        roles.length >= 2 && roles.every((r) => r === "교사 Teacher" || r === "Owner"),
        `only teachers and the owner: ${roles.join(", ")}`,
      );
      await page.waitForLoadState("networkidle");
      await page.reload();
      await page.getByRole("cell", { name: "t-lee", exact: true }).waitFor();
      assert(
        (await filters.locator("summary", { hasText: "Role" }).textContent())?.includes("교사 Teacher"),
        "the role filter shows its choice",
      );
      assert((await range.getByLabel("From").inputValue()) === today(), "the range is back after the reload");
      await capture("members-filtered");

      await filters.getByRole("button", { name: "Clear filters" }).click();
      const spaces = filters.getByRole("group", { name: "Active spaces", exact: true });
      await spaces.getByLabel("From").fill("1");
      await spaces.getByLabel("From").press("Enter");
      await page.waitForURL(/activeMin=1/);
      const adder = filters.getByRole("group", { name: "Field value" });
      await adder.getByLabel("Field").selectOption({ label: "학년 Grade" });
      await adder.getByLabel("Value").selectOption("2");
      await adder.getByRole("button", { name: "Add filter" }).click();
      await adder.getByLabel("Field").selectOption({ label: CLUB });
      await adder.getByLabel("Value").selectOption("Chess");
      await adder.getByRole("button", { name: "Add filter" }).click();
      await page.getByRole("button", { name: `Remove filter ${CLUB}: Chess` }).waitFor();
      await page.getByText("1 member", { exact: true }).waitFor();
      await page.getByRole("cell", { name: "s2602", exact: true }).waitFor();
      await page.waitForLoadState("networkidle");
      await page.reload();
      await page.getByRole("cell", { name: "s2602", exact: true }).waitFor();
      assert(new URL(page.url()).searchParams.getAll("ff").length === 2, "two field filters in the URL");
      await page.getByRole("button", { name: "Active spaces", exact: true }).click();
      await page.waitForURL(/sort=activeSpaceCount/);
      await capture("members-field-filters");
      await filters.getByRole("button", { name: "Clear filters" }).click();
      await page.getByLabel("Rows per page").selectOption("50");
      await page.waitForURL(/size=50/);
      await page.locator("tbody tr").nth(49).waitFor();
      await page.waitForLoadState("networkidle");
      await page.reload();
      await page.locator("tbody tr").nth(49).waitFor();
      assert((await page.locator("tbody tr").count()) === 50, "50 rows a page after a reload");
      clean();
    },
  );

  await ctx.close();
}
