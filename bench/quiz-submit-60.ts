// 60 students submit a quiz at once (issue 14), through the API calls the console makes when a student
// takes a quiz: open the content (getContent, participant view, my attempts), start, save the answers
// after each question (the console saves 0.5 s after the last change), submit, then the console's
// refetch of the participant view and my attempts. Runs the built binary's `demo` (its 60 students
// sign in with their password first; sign-in is timed apart from the quiz). p50/p99/max per call and
// the wall time from "go" to the last student's refetch.
// Usage: npm run build && bun bench/quiz-submit-60.ts [--think 0] [--runs 1]   (think: ms between answers)
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentile, round, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const think = Math.min(arg("think", 0), 10_000);
const runs = Math.min(arg("runs", 1), 10);
const binary = join(import.meta.dir, "..", "dist", "learnspace");
if (!existsSync(binary)) throw new Error("dist/learnspace is missing: run `npm run build` first");
const port = 31600 + Math.floor(Math.random() * 300);
const base = `http://127.0.0.1:${port}/api/v1`;
const QUESTIONS = 10;

async function call(token: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as any;
}

const calls = ["getContent", "participantView", "myAttempts", "start", "save", "submit", "refetchView", "refetchAttempts"] as const;
type Call = (typeof calls)[number];

const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-quiz60-"));
const server = Bun.spawn([binary, "demo", "--port", String(port), "--data-dir", dataDir], {
  env: { ...process.env, LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" },
  stdout: "ignore",
  stderr: "inherit",
});

const results: Record<string, unknown> = { students: 60, questions: QUESTIONS, thinkMs: think, runs };
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`, 60_000);
  // The demo seeds on its first start; readyz answers before the seed ends, so wait for the students to sign in.
  const signIn = async (identifier: string) => {
    for (let i = 0; ; i++) {
      try {
        return (await call(null, "POST", "/auth/sign-in/password", { identifier, password: "learnspace-demo", tenantKey: "demo" }))
          .accessToken as string;
      } catch (e) {
        if (i > 120) throw e;
        await Bun.sleep(500);
      }
    }
  };
  const owner = await signIn("owner@demo.school");
  const found = await call(owner, "GET", "/members?search=s26&pageSize=100");
  const students = (found.members as { id: string; userId: string }[]).filter((m) => /^s26\d\d$/.test(m.userId));
  if (students.length !== 60) throw new Error(`expected the demo's 60 students, found ${students.length}`);
  const space = await call(owner, "POST", "/spaces", { name: "Bench 60" });
  await call(owner, "POST", `/spaces/${space.id}/members`, { userIds: students.map((s) => s.id), role: "PARTICIPANT" });
  const node = await call(owner, "POST", "/library/nodes", { title: "Bench", spaceId: space.id });

  const signInMs: number[] = [];
  const tokens: string[] = [];
  for (const s of students) {
    const t0 = performance.now();
    tokens.push(await signIn(s.userId));
    signInMs.push(performance.now() - t0);
  }
  signInMs.sort((a, b) => a - b);
  results.signInSequential = { n: 60, p50: round(percentile(signInMs, 0.5)), max: round(signInMs.at(-1) as number) };

  const perRun: Record<string, unknown>[] = [];
  for (let run = 0; run < runs; run++) {
    const quiz = await call(owner, "POST", "/library/contents", {
      type: "QUIZ",
      title: `Bench quiz ${run}`,
      nodeId: node.id,
      visibility: "SHARED",
    });
    // Eight choice questions, a short answer and an essay: the mix of a class quiz.
    const questions = [
      ...Array.from({ length: QUESTIONS - 2 }, (_, i) => ({
        type: "SINGLE",
        body: `Question ${i + 1}`,
        point: 1,
        options: [{ body: "A", isCorrect: true }, { body: "B" }, { body: "C" }, { body: "D" }],
      })),
      { type: "SHORT_ANSWER", body: "Capital of Korea?", point: 1, answerCandidates: [{ text: "Seoul" }] },
      { type: "ESSAY", body: "Explain in one sentence.", point: 2 },
    ];
    const config = await call(owner, "PUT", `/quizzes/${quiz.id}/config`, { questions, timeLimitMin: 30 });
    const qs = config.questions as { id: string; type: string; options: { id: string }[] }[];
    const ms = Object.fromEntries(calls.map((c) => [c, [] as number[]])) as Record<Call, number[]>;
    const timed = async (c: Call, token: string, method: string, path: string, body?: unknown) => {
      const t0 = performance.now();
      const r = await call(token, method, path, body);
      ms[c].push(performance.now() - t0);
      return r;
    };
    const student = async (token: string, n: number) => {
      const q = `/quizzes/${quiz.id}`;
      await Promise.all([
        timed("getContent", token, "GET", `/library/contents/${quiz.id}`),
        timed("participantView", token, "GET", `${q}/participant-view`),
        timed("myAttempts", token, "GET", `${q}/my-attempts`),
      ]);
      const { attempt } = await timed("start", token, "POST", `${q}/my-attempts`);
      const answers: { questionId: string; selectedOptionIds: string[]; textAnswer: string | null }[] = [];
      for (const [i, question] of qs.entries()) {
        answers.push(
          question.type === "SINGLE"
            ? { questionId: question.id, selectedOptionIds: [question.options[(n + i) % 4]?.id as string], textAnswer: null }
            : {
                questionId: question.id,
                selectedOptionIds: [],
                textAnswer: question.type === "ESSAY" ? `Essay of student ${n}.` : "Seoul",
              },
        );
        if (think) await Bun.sleep(think * (0.5 + Math.random()));
        await timed("save", token, "PUT", `${q}/my-attempts/${attempt.attemptId}/answers`, { answers });
      }
      await timed("submit", token, "POST", `${q}/my-attempts/${attempt.attemptId}/submit`, { answers });
      await Promise.all([
        timed("refetchView", token, "GET", `${q}/participant-view`),
        timed("refetchAttempts", token, "GET", `${q}/my-attempts`),
      ]);
    };
    const t0 = performance.now();
    await Promise.all(tokens.map((token, n) => student(token, n)));
    const wall = performance.now() - t0;
    const attempts = await call(owner, "GET", `/quizzes/${quiz.id}/attempts?limit=100`);
    const submitted = (attempts.attempts as { submittedAt: string | null }[]).filter((a) => a.submittedAt).length;
    const row: Record<string, unknown> = { wallMs: round(wall), submitted };
    const all: number[] = [];
    for (const c of calls) {
      const sorted = ms[c].sort((a, b) => a - b);
      all.push(...sorted);
      row[c] = {
        n: sorted.length,
        p50: round(percentile(sorted, 0.5)),
        p99: round(percentile(sorted, 0.99)),
        max: round(sorted.at(-1) as number),
      };
    }
    all.sort((a, b) => a - b);
    row.everyCall = {
      n: all.length,
      p50: round(percentile(all, 0.5)),
      p99: round(percentile(all, 0.99)),
      max: round(all.at(-1) as number),
    };
    perRun.push(row);
  }
  results.runs = perRun;
} finally {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
