// Notifications (issue 18): a post's answer time to a space of 10 vs 1,000 members (10 are written in
// the post's transaction, 1,000 by a FANOUT job right after its commit: the time until the last item
// exists is measured too, and each post waits for it before the next), the e-mail digest of a school
// of 10,000 members (every member DIGEST by default: one mail each), and what 2,000 pending due dates
// cost in memory (they are rows, not timers). In-process server on a temp dir; mails go to the
// outbox dir (no SMTP). Prints a table, then the JSON (what bench/run.ts reads).
// --inline-max N moves the fan-out bound (FAN_OUT.inlineMax, docs/rules/notifications.md#fan-out): with
// 1000 every post writes its items in its own transaction, which is what one route for every size costs.
// Usage: bun bench/notifications.ts [--posts 20] [--digest 10000] [--due 2000] [--inline-max 100]

import { heapStats } from "bun:jsc";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config";
import { FAN_OUT } from "../src/modules/notifications/emit";
import { sendDueMails } from "../src/modules/notifications/mail";
import { runDue, scheduleJob } from "../src/modules/notifications/schedule";
import { write } from "../src/platform/db/types";
import { startServer } from "../src/server";
import { percentile, round, workerClient } from "./lib";
import { benchApi, seedSchool, seedSpace } from "./seed-members";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const posts = arg("posts", 20);
const digestMembers = arg("digest", 10_000);
const dueDates = arg("due", 2000);
FAN_OUT.inlineMax = arg("inline-max", FAN_OUT.inlineMax);
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-notif-"));
const server = startServer(loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir }));
const rt = server.rt;
const base = `http://127.0.0.1:${server.port}/api/v1`;
const call = benchApi(base);
const rssMiB = () => round(process.memoryUsage.rss() / 1048576);
const heapMiB = () => {
  Bun.gc(true);
  return round(heapStats().heapSize / 1048576);
};

/** A school of `n` members with all of them enrolled in spaces of the sizes given. */
async function school(key: string, n: number, sizes: number[]) {
  const seeded = await seedSchool(rt, key, { members: n });
  const ids = seeded.members.map((m) => m.id);
  const spaces: string[] = [];
  for (const size of sizes) spaces.push(await seedSpace(call, seeded.ownerToken, `Space of ${size}`, ids.slice(0, size)));
  return { tenantId: seeded.tenantId, token: seeded.ownerToken, spaces };
}

/** Resolves once `n` items of the record exist (a deferred fan-out has run); polls the tenant file. */
async function written(tenantId: string, recordId: string, n: number) {
  const count = () =>
    rt.tenants.use(
      tenantId,
      (h) => (h.db.all(sql`SELECT count(*) AS n FROM notifications WHERE record_id = ${recordId}`)[0] as { n: number }).n,
    );
  for (let i = 0; count() < n; i++) {
    if (i > 60_000) throw new Error(`only ${count()} of ${n} items for ${recordId}`);
    await Bun.sleep(1);
  }
}

const stats = (list: number[]) => {
  list.sort((a, b) => a - b);
  return { n: list.length, p50: round(percentile(list, 0.5)), p99: round(percentile(list, 0.99)) };
};

const results: Record<string, any> = {};
try {
  // 1. Fan-out: posts to a space of 10 and one of 1,000 (the author is one of neither), alternating.
  const fan = await school("fanout", 1000, [10, 1000]);
  const times = { to10: [] as number[], to1000: [] as number[], to1000Written: [] as number[] };
  // The posts go from a Worker thread: the answer is timed when it leaves the server, not when this
  // thread (the server's) is next free, which is after the deferred fan-out.
  const client = workerClient();
  const headers = { authorization: `Bearer ${fan.token}`, "content-type": "application/json" };
  try {
    for (let i = 0; i < posts * 2; i++) {
      const size = i % 2 === 0 ? 10 : 1000;
      const t0 = performance.now();
      const body = JSON.stringify({ spaceId: fan.spaces[size === 10 ? 0 : 1], title: `Notice ${i}`, content: "Please read." });
      const res = await client.send(`${base}/posts`, { method: "POST", headers, body });
      if (res.status !== 201) throw new Error(`POST /posts: ${res.status} ${res.body}`);
      (size === 10 ? times.to10 : times.to1000).push(res.ms);
      await written(fan.tenantId, JSON.parse(res.body).id, size);
      if (size === 1000) times.to1000Written.push(performance.now() - t0);
      await runDue(rt); // the rest of the scheduler's turn (mails, wake-up) ends before the next post
    }
  } finally {
    client.close();
  }
  results.post10Members = stats(times.to10);
  results.post1000Members = stats(times.to1000);
  results.post1000MembersAllWritten = stats(times.to1000Written);

  // 2. Digest: one post reaches every member of a 10,000-member school, then the digest hour comes.
  const dig = await school("digest", digestMembers, [digestMembers]);
  const everyone = await call(dig.token, "POST", "/posts", { spaceId: dig.spaces[0], title: "For everyone", content: "A notice." });
  await written(dig.tenantId, everyone.id, digestMembers);
  const rssBefore = rssMiB();
  const t0 = performance.now();
  const sent = await rt.tenants.use(dig.tenantId, (h) => sendDueMails(rt, h.db, dig.tenantId, Date.now() + 2 * 86_400_000));
  results.digest = {
    members: digestMembers,
    mails: sent,
    seconds: round((performance.now() - t0) / 1000),
    rssBeforeMiB: rssBefore,
    rssAfterMiB: rssMiB(),
  };

  // 3. Pending due dates: 2,000 scheduled jobs (rows in the tenant file), the JS heap before and after.
  const heapBefore = heapMiB();
  rt.tenants.use(fan.tenantId, (h) =>
    write(h.db, (tx) => {
      for (let i = 0; i < dueDates; i++) {
        scheduleJob(
          tx,
          { tenantId: fan.tenantId },
          { kind: "DUE_SOON", recordId: Bun.randomUUIDv7(), fireAt: Date.now() + 86_400_000 + i * 60_000 },
        );
      }
    }),
  );
  results.pendingDueDates = { count: dueDates, heapBeforeMiB: heapBefore, heapAfterMiB: heapMiB() };
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
const r = results;
const table = [
  ["measure", "result"],
  [`post to 10 members: answer (${r.post10Members.n} posts)`, `p50 ${r.post10Members.p50} ms, p99 ${r.post10Members.p99} ms`],
  [`post to 1,000 members: answer (${r.post1000Members.n} posts)`, `p50 ${r.post1000Members.p50} ms, p99 ${r.post1000Members.p99} ms`],
  [
    "post to 1,000 members: until the last item is written",
    `p50 ${r.post1000MembersAllWritten.p50} ms, p99 ${r.post1000MembersAllWritten.p99} ms`,
  ],
  [
    `digest run, ${r.digest.members} members (${r.digest.mails} mails)`,
    `${r.digest.seconds} s, RSS ${r.digest.rssBeforeMiB} → ${r.digest.rssAfterMiB} MiB`,
  ],
  [
    `${r.pendingDueDates.count} pending due dates (job rows)`,
    `JS heap ${r.pendingDueDates.heapBeforeMiB} → ${r.pendingDueDates.heapAfterMiB} MiB`,
  ],
];
for (const [i, row] of table.entries()) {
  console.log(`| ${row.join(" | ")} |`);
  if (i === 0) console.log("| --- | --- |");
}
console.log(JSON.stringify(results, null, 2));
