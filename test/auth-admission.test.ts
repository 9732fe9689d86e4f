import { describe, expect, test } from "bun:test";
import { hashAdmission, MAX_WAIT_MS, RETURN_PACE } from "../src/platform/auth/admission";

// Admission to password hashing on a clock the test moves (docs/rules/sign-in.md#password-hashing).
function clocked(limits: { concurrency: number; queue: number; hashMs: number }) {
  const clock = { ms: 1_000 };
  return { clock, admission: hashAdmission({ ...limits, now: () => clock.ms }) };
}

/** What a shed client is told: whole seconds, at least 1 (serverBusy's Retry-After). */
const header = (seconds: number) => Math.max(1, Math.ceil(seconds));

describe("hash admission", () => {
  test("admits the running hashes and as many waiting as MAX_WAIT_MS of hashing, then sheds", () => {
    const { admission } = clocked({ concurrency: 2, queue: 1000, hashMs: 50 });
    // a turn is 25 ms: 2 running + 200 waiting is 5 s of wait for the last
    const answers = Array.from({ length: 300 }, () => admission.enter());
    const admitted = answers.filter((a) => a === null).length;
    expect(admitted).toBe(2 + MAX_WAIT_MS / 25);
    expect(admission.state.admitted).toBe(admitted);
    expect(answers.slice(admitted).every((a) => a !== null && a > 0)).toBe(true);
  });

  test("shed() tells what enter() would, spacing the returns the same way, and admits nothing", () => {
    const { admission } = clocked({ concurrency: 2, queue: 0, hashMs: 1000 });
    expect(admission.shed()).toBeNull();
    expect(admission.state.admitted).toBe(0);
    expect(admission.enter()).toBeNull();
    expect(admission.enter()).toBeNull();
    const early = admission.shed() as number;
    expect(early).toBeCloseTo(0.5, 6);
    expect(admission.state.admitted).toBe(2);
    // the next one shed, by either, comes back a paced turn later
    expect(admission.enter()).toBeCloseTo(0.5 + 0.5 * RETURN_PACE, 6);
    expect(admission.state.admitted).toBe(2);
  });

  test("the queue bound sheds before the wait does", () => {
    const { admission } = clocked({ concurrency: 2, queue: 3, hashMs: 50 });
    const answers = Array.from({ length: 8 }, () => admission.enter());
    expect(answers.filter((a) => a === null).length).toBe(5);
  });

  test("shed requests are told to come back when there is room, each RETURN_PACE of a turn after the one before", () => {
    const { admission } = clocked({ concurrency: 2, queue: 0, hashMs: 1000 });
    expect(admission.enter()).toBeNull();
    expect(admission.enter()).toBeNull();
    // the third waits one turn (500 ms) for room; the next ones a paced turn each after it
    const told = [admission.enter(), admission.enter(), admission.enter()] as number[];
    expect(told[0]).toBeCloseTo(0.5, 6);
    expect(told[1]).toBeCloseTo(0.5 + 0.5 * RETURN_PACE, 6);
    expect(told[2]).toBeCloseTo(0.5 + 2 * 0.5 * RETURN_PACE, 6);
  });

  test("once the last return time has passed, a shed request waits only for room again", () => {
    const { clock, admission } = clocked({ concurrency: 1, queue: 0, hashMs: 1000 });
    admission.enter();
    for (let i = 0; i < 10; i++) admission.enter(); // told 1 s, 1.9 s, … 9.1 s
    clock.ms += 60_000;
    expect(admission.enter()).toBeCloseTo(1, 6);
  });

  test("finished hashes set the pace: their measured time, as a moving average", () => {
    const { admission } = clocked({ concurrency: 1, queue: 0, hashMs: 1000 });
    admission.enter();
    admission.leave(2000);
    expect(admission.state.admitted).toBe(0);
    expect(admission.state.hashMs).toBeCloseTo(1100, 6);
    admission.enter();
    expect(admission.enter()).toBeCloseTo(1.1, 6);
  });

  test("a class signing in at once, each returning after Retry-After and up to 1 s more as the login page does, keeps the threads busy", () => {
    // 2 threads, 50 ms a hash (40/s); 1,000 arrive within 2 s; returns at the header's whole seconds + jitter
    const { clock, admission } = clocked({ concurrency: 2, queue: 1000, hashMs: 50 });
    type Event = { at: number; kind: "arrive" | "done"; client: number };
    const events: Event[] = Array.from({ length: 1000 }, (_, i) => ({ at: 1_000 + i * 2, kind: "arrive" as const, client: i }));
    const waiting: number[] = [];
    const tries = new Map<number, number>();
    let running = 0;
    let busyMs = 0;
    let lastAt = 1_000;
    let signedIn = 0;
    let gaveUp = 0;
    let jitter = 0;
    const push = (e: Event) => {
      const i = events.findIndex((x) => x.at > e.at);
      events.splice(i < 0 ? events.length : i, 0, e);
    };
    const start = () => {
      while (running < 2 && waiting.length) {
        running++;
        push({ at: clock.ms + 50, kind: "done", client: waiting.shift() as number });
      }
    };
    for (let e = events.shift(); e; e = events.shift()) {
      busyMs += running * (e.at - lastAt);
      lastAt = clock.ms = e.at;
      if (e.kind === "done") {
        running--;
        signedIn++;
        admission.leave(50);
        start();
        continue;
      }
      const told = admission.enter();
      if (told === null) {
        waiting.push(e.client);
        start();
        continue;
      }
      const n = (tries.get(e.client) ?? 0) + 1;
      tries.set(e.client, n);
      if (n > 5) {
        gaveUp++;
        continue;
      }
      jitter = (jitter + 0.37) % 1; // spread over [0, 1) s, deterministic
      push({ at: clock.ms + (header(told) + jitter) * 1000, kind: "arrive", client: e.client });
    }
    expect(gaveUp).toBe(0);
    expect(signedIn).toBe(1000);
    // busy from the first arrival to the last sign-in: the returns never left a thread idle for long
    expect(busyMs / (2 * (lastAt - 1_000))).toBeGreaterThan(0.95);
  });
});
