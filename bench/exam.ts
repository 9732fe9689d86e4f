// Exam start (issue 11): students of one school arrive uniformly within --within seconds; each one
// (signing in first with --signin) starts the quiz of 10 questions, saves answers three times and
// submits, with no pause; meanwhile 20 other schools read (GET /spaces) at 200 req/s in total.
// Reports p99 of each step, of the others' reads, sheds (503 SERVER_BUSY), writes/s and the server's CPU time (/proc).
// Usage: bun bench/exam.ts [--students 2000] [--within 30] [--signin] [--port 31501]   (env reaches the server)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentile, round, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const count = Math.min(arg("students", 2000), 10_000);
const within = Math.min(arg("within", 30), 300);
const signIn = process.argv.includes("--signin");
const bun = process.execPath;
const root = join(import.meta.dir, "..");
// --port: two runs at once on one machine must not answer each other's requests.
const port = arg("port", 31501);
const base = `http://127.0.0.1:${port}/api/v1`;

const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-exam-"));
const seed = Bun.spawnSync([bun, join(import.meta.dir, "seed-exam.ts"), dataDir, String(count)], { stderr: "inherit" });
if (seed.exitCode !== 0) throw new Error("seeding failed");
type Seed = {
  quizId: string;
  students: { email: string; token: string }[];
  questions: { id: string; options: string[] }[];
  others: string[];
};
const exam: Seed = JSON.parse(readFileSync(join(dataDir, "exam.json"), "utf8"));

const server = Bun.spawn([bun, join(root, "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir], {
  cwd: root,
  env: { LEARNSPACE_IP_RATE_LIMIT: "0", ...process.env, LEARNSPACE_QUIET: "1" },
  stdout: "ignore",
  stderr: "inherit",
});

const steps = ["signIn", "start", "save", "submit", "othersRead"] as const;
const ms = Object.fromEntries(steps.map((s) => [s, [] as number[]])) as Record<(typeof steps)[number], number[]>;
const failures: Record<string, number> = {};
let busy = 0;
let writes = 0;

/** One request, timed; a 503 SERVER_BUSY sign-in is retried after Retry-After, as the login page does. */
async function timed(step: (typeof steps)[number], method: string, path: string, token: string | null, body?: unknown) {
  const t0 = performance.now();
  for (;;) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(120_000),
    });
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (res.status === 503 && json?.code === "SERVER_BUSY") {
      busy++;
      await Bun.sleep(Number(res.headers.get("retry-after") ?? 1) * 1000 * (1 + Math.random()));
      continue;
    }
    if (!res.ok) {
      failures[`${step} ${res.status}`] = (failures[`${step} ${res.status}`] ?? 0) + 1;
      return null;
    }
    ms[step].push(performance.now() - t0);
    return json;
  }
}

const answers = (round: number) => ({
  answers: exam.questions.map((q, i) => ({ questionId: q.id, selectedOptionIds: [q.options[(i + round) % q.options.length] as string] })),
});

async function student(s: { email: string; token: string }) {
  let token: string | null = s.token;
  if (signIn) {
    const r = await timed("signIn", "POST", "/auth/sign-in/password", null, {
      identifier: s.email,
      password: "Passw0rd!",
      tenantKey: "exam",
    });
    token = (r?.accessToken as string | undefined) ?? null;
    if (!token) return;
  }
  const attempt = await timed("start", "POST", `/quizzes/${exam.quizId}/my-attempts`, token);
  const attemptId = (attempt as { attempt?: { attemptId: string } } | null)?.attempt?.attemptId;
  if (!attemptId) return;
  writes++;
  for (let r = 0; r < 3; r++)
    if (await timed("save", "PUT", `/quizzes/${exam.quizId}/my-attempts/${attemptId}/answers`, token, answers(r))) writes++;
  if (await timed("submit", "POST", `/quizzes/${exam.quizId}/my-attempts/${attemptId}/submit`, token, answers(3))) writes++;
}

/** The server's CPU time so far, user and system, in seconds (/proc: the machine's load does not change it). */
function serverCpu() {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const tick = 100; // USER_HZ on Linux
  return { user: Number(fields[11]) / tick, system: Number(fields[12]) / tick };
}

const results: Record<string, unknown> = { students: count, withinSeconds: within, signingIn: signIn };
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  const cpu0 = serverCpu();
  let running = true;
  const readers = (async () => {
    const pending: Promise<unknown>[] = [];
    for (let i = 0; running; i++) {
      pending.push(timed("othersRead", "GET", "/spaces", exam.others[i % exam.others.length] as string));
      await Bun.sleep(5); // 200 req/s, open loop
    }
    await Promise.all(pending);
  })();
  const t0 = performance.now();
  await Promise.all(
    exam.students.map(async (s, i) => {
      await Bun.sleep((i / exam.students.length) * within * 1000);
      await student(s);
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  running = false;
  await readers;
  const cpu1 = serverCpu();
  for (const step of steps) {
    const sorted = ms[step].sort((a, b) => a - b);
    if (sorted.length)
      results[step] = {
        n: sorted.length,
        p50: round(percentile(sorted, 0.5)),
        p99: round(percentile(sorted, 0.99)),
        max: round(sorted.at(-1) as number),
      };
  }
  results.writesPerSecond = round(writes / elapsed);
  results.elapsedSeconds = round(elapsed);
  results.shedSignIns = busy;
  // Over the whole load, the others' reads included: user / system seconds, and per student (5 requests each).
  results.serverCpuSeconds = { user: round(cpu1.user - cpu0.user), system: round(cpu1.system - cpu0.system) };
  results.serverCpuMsPerStudent = round(((cpu1.user - cpu0.user + cpu1.system - cpu0.system) * 1000) / count);
  results.failures = failures;
} finally {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
