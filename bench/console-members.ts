// Time to an interactive members list in the console on a tenant with 100,000 members: the compiled
// binary serves the console, headless chromium loads /members with a signed-in session cookie, and the
// clock stops when the first page of rows is on screen and its first name can be clicked.
// Usage: npm run build && bun bench/console-members.ts [--members 100000] [--runs 7]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { insertMember } from "../src/modules/members/create";
import { roleByKey } from "../src/modules/roles/builtin";
import { write } from "../src/platform/db/types";
import { createRuntime } from "../src/platform/runtime";
import { launchChromium } from "../test/helpers/chromium";
import { benchTenant, percentile, round, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const count = arg("members", 100_000);
const runs = arg("runs", 7);
const port = 31300;
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-console-"));

// 1. Seed through the members service (one transaction), then a session for the owner.
const seedStart = performance.now();
const rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true }), resolveMember);
const { tenant, session } = await benchTenant(rt);
rt.tenants.use(tenant.tenantId, (h) =>
  write(h.db, (tx) => {
    const role = roleByKey(tx, "member");
    if (!role) throw new Error("member role missing");
    const start = Date.now() - count * 60_000;
    for (let i = 0; i < count; i++) {
      insertMember(
        tx,
        { displayName: `Student ${i}`, userId: `user${i}`, email: `user${i}@bench.test`, roleId: role.id },
        start + i * 60_000,
      );
    }
  }),
);
rt.close();
const seedMs = round(performance.now() - seedStart);

// 2. The binary in its own process; chromium opens /members again and again on one signed-in context.
const server = Bun.spawn([join(import.meta.dir, "..", "dist", "learnspace"), "serve", "--port", String(port), "--data-dir", dataDir], {
  env: { ...process.env, LEARNSPACE_QUIET: "1", LEARNSPACE_IP_RATE_LIMIT: "0" },
  stdout: "ignore",
  stderr: "inherit",
});
const browser = await launchChromium();
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  const base = `http://localhost:${port}`;
  const times: number[] = [];
  let refreshToken = session.refreshToken;
  for (let i = 0; i < runs; i++) {
    // A fresh context each run: an empty cache, as on a first visit (the refresh cookie rotates each load).
    const context = await browser.newContext({ locale: "en-US" });
    await context.addCookies([{ name: "lsp_session", value: refreshToken, url: `${base}/api/v1/auth/session` }]);
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(`${base}/members`);
    await page.locator("tbody tr").nth(19).waitFor();
    await page.locator("tbody tr button.link").first().click({ trial: true });
    times.push(performance.now() - started);
    // Where the time went, from the page's own clock (ms since navigation start).
    const marks = await page.evaluate(() => {
      // PerformanceResourceTiming (the bench compiles without DOM types).
      const end = (e: unknown) => (e as { responseEnd?: number } | undefined)?.responseEnd ?? -1;
      const at = (re: RegExp) => Math.round(end(performance.getEntriesByType("resource").find((e) => re.test(e.name))));
      return {
        html: Math.round(end(performance.getEntriesByType("navigation")[0])),
        shellJs: at(/assets\/index-.*\.js/),
        refresh: at(/session\/refresh/),
        membersChunk: at(/MembersPage-/),
        listMembers: at(/api\/v1\/members\?/),
        interactive: Math.round(performance.now()),
      };
    });
    console.log(`run ${i + 1}: ${Math.round(times.at(-1) ?? 0)} ms`, JSON.stringify(marks));
    const total = await page.locator("p.muted").first().textContent();
    if (i === 0) console.log(`list shows: ${total}`);
    refreshToken = (await context.cookies()).find((c) => c.name === "lsp_session")?.value ?? refreshToken;
    await context.close();
  }
  const api: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await (
      await fetch(`${base}/api/v1/members?page=1&pageSize=20&sortBy=createdAt&sortDir=desc`, {
        headers: { authorization: `Bearer ${session.accessToken}` },
      })
    ).arrayBuffer();
    api.push(performance.now() - t0);
  }
  api.sort((a, b) => a - b);
  console.log(`listMembers (first page of the console's query) over HTTP: p50 ${round(percentile(api, 0.5))} ms`);
  times.sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        members: count,
        seedMs,
        runs,
        coldCacheMs: { p50: round(percentile(times, 0.5)), min: round(times[0] ?? 0), max: round(times.at(-1) ?? 0) },
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
