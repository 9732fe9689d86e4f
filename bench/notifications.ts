// Notifications (issue 18): a post's answer time to a space of 10 vs 1,000 members (the fan-out is
// written in the post's transaction), the e-mail digest of a school of 10,000 members (every member
// DIGEST by default: one mail each), and what 2,000 pending due dates cost in memory (they are rows,
// not timers). In-process server on a temp dir; mails go to the outbox dir (no SMTP).
// Usage: bun bench/notifications.ts [--posts 20] [--digest 10000] [--due 2000]

import { heapStats } from "bun:jsc";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { sendDueMails } from "../src/modules/notifications/mail";
import { scheduleJob } from "../src/modules/notifications/schedule";
import { write } from "../src/platform/db/types";
import { startServer } from "../src/server";
import { percentile, round } from "./lib";
import { benchApi, seedSchool, seedSpace } from "./seed-members";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const posts = arg("posts", 20);
const digestMembers = arg("digest", 10_000);
const dueDates = arg("due", 2000);
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-notif-"));
const server = startServer(loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir }));
const rt = server.rt;
const call = benchApi(`http://127.0.0.1:${server.port}/api/v1`);
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

const results: Record<string, unknown> = {};
try {
  // 1. Fan-out: posts to a space of 10 and one of 1,000, alternating.
  const fan = await school("fanout", 1000, [10, 1000]);
  const times: Record<string, number[]> = { to10: [], to1000: [] };
  for (let i = 0; i < posts * 2; i++) {
    const [name, space] = i % 2 === 0 ? ["to10", fan.spaces[0]] : ["to1000", fan.spaces[1]];
    const t0 = performance.now();
    await call(fan.token, "POST", "/posts", { spaceId: space, title: `Notice ${i}`, content: "Please read." });
    (times[name as string] as number[]).push(performance.now() - t0);
  }
  for (const [name, list] of Object.entries(times)) {
    list.sort((a, b) => a - b);
    results[`post${name.slice(2)}Members`] = { n: list.length, p50: round(percentile(list, 0.5)), p99: round(percentile(list, 0.99)) };
  }

  // 2. Digest: one post reaches every member of a 10,000-member school, then the digest hour comes.
  const dig = await school("digest", digestMembers, [digestMembers]);
  await call(dig.token, "POST", "/posts", { spaceId: dig.spaces[0], title: "For everyone", content: "A notice." });
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
console.log(JSON.stringify(results, null, 2));
