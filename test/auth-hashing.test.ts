import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { limitPasswordWork } from "../src/platform/auth/password";
import { outsideHeapMiB } from "../src/platform/db/memory-budget";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

// Password hashing on threads of lowered priority, and how shed sign-ins are told to come back
// (docs/rules/sign-in.md#password-hashing).
const s = useServer();
const signIn = (t: { email: string; tenantKey: string }, password = "Passw0rd!") =>
  s.call("POST", "/api/v1/auth/sign-in/password", { json: { identifier: t.email, password, tenantKey: t.tenantKey } });

afterEach(() => limitPasswordWork({ queue: s.server.rt.config.signinQueue }));

/** CPU ticks (user + system) each of this process's threads at `nice` has used so far, by thread id (Linux /proc). */
function ticksAtNice(nice: number) {
  const ticks = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended meanwhile
    }
    // fields after the command's closing parenthesis: state is field 3, utime 14, stime 15, nice 19
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(f[16]) === nice) ticks.set(tid, Number(f[11]) + Number(f[12]));
  }
  return ticks;
}

/**
 * The ticks threads at `nice` used since `before`: a thread that ended meanwhile (another test file's
 * server in the same `bun test --parallel` worker) takes nothing away.
 */
function ticksSince(before: Map<string, number>, nice: number) {
  let used = 0;
  for (const [tid, t] of ticksAtNice(nice)) used += t - (before.get(tid) ?? 0);
  return used;
}

describe("password hashing", () => {
  test.skipIf(process.platform !== "linux")("sign-ins hash on threads at nice 10, not at the event loop's priority", async () => {
    const t = await createTenantFixture(s.server);
    const before = ticksAtNice(10);
    const answers = await Promise.all(Array.from({ length: 8 }, () => signIn(t)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    // eight argon2id verifies of 19 MiB are tens of milliseconds of CPU each: clock ticks (1/100 s) on those threads
    expect(ticksSince(before, 10)).toBeGreaterThanOrEqual(8);
  });

  test("a hash on a thread counts its argon2 memory as held outside the heap while it runs (the memory watch leaves it out)", async () => {
    const t = await createTenantFixture(s.server);
    const idle = outsideHeapMiB();
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, outsideHeapMiB());
    }, 1);
    await Promise.all(Array.from({ length: 4 }, () => signIn(t)));
    clearInterval(watch);
    expect(most).toBeGreaterThanOrEqual(idle + 19);
    expect(outsideHeapMiB()).toBe(idle);
  });

  test("a burst the queue can hold within its wait is served whole, wrong passwords answered 401", async () => {
    const t = await createTenantFixture(s.server);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(t, i % 4 === 3 ? "wrong-password" : "Passw0rd!")));
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 4 === 3 ? 401 : 200)));
  });

  test("shed sign-ins are told to come back about one hash's turn apart, not all after the same wait", async () => {
    const t = await createTenantFixture(s.server);
    // one thread, no waiting room, a hash estimated at 2 s: each shed answer is one more 2 s turn away
    limitPasswordWork({ queue: 0, concurrency: 1, hashMs: 2000 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => signIn(t)));
    const shed = answers.filter((r) => r.status === 503);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(shed.length).toBeGreaterThanOrEqual(2);
    for (const r of shed) expectProblem(r, 503, "SERVER_BUSY");
    const after = shed.map((r) => Number(r.headers.get("retry-after"))).sort((a, b) => a - b);
    expect(new Set(after).size).toBe(after.length);
    expect(after[0]).toBeGreaterThanOrEqual(1);
    expect(after.at(-1)).toBeGreaterThanOrEqual(2 * after.length - 1);
  });
});
