// Instructions per request, counted by valgrind's callgrind in the server process: repeatable on a
// busy machine where wall-clock numbers are noise. The server runs from source under callgrind with
// its access log on (to /dev/null); each phase is warmed up on other students/requests first, then
// the counters are zeroed, the phase's requests are sent one at a time, and the counters dumped.
// The phases that need no student of their own (healthz, tenantRead, othersRead) are warmed up with
// --hot-warmup requests and measured over --hot-requests: after a few hundred requests the JIT is still
// compiling their code (on threads callgrind counts too) and one collection in a window of 100 moved
// /healthz by ~40 %. The seeded access tokens live 15 minutes: on a busy machine, where callgrind is
// slowest, keep the whole run under that (fewer hot requests) or the reads answer 401 (the tenant read
// signs its student in again before its warm-up and before its measured requests). `bare`: bench/bare-server.ts, the bare Elysia route of bench/run.ts,
// under its own callgrind (port + 1), warmed and measured as the hot phases are.
// --rounds N: the hot phases measured N times over, the median kept (the first thousands of requests still tier up).
// --idle: each round's wall time again without requests, taken off (the timers' share: they fire by the clock).
// --quiet: the access log off (LEARNSPACE_QUIET=1), as bench/run.ts runs the server. --keep DIR copies the dumps there (cg.out.N, one per measured phase) for `callgrind_annotate`.
// Usage: bun bench/instructions.ts [--requests 100] [--warmup 150] [--hot-requests 500] [--hot-warmup 1000] [--only bare,healthz,tenantRead] [--keep DIR] [--port 31701] [--quiet] [--main-thread] [--idle] [--rounds 1]
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const n = arg("requests", 100);
const warm = arg("warmup", 150);
const hot = { n: arg("hot-requests", 500), warm: arg("hot-warmup", 1000) };
const hotPhases = new Set(["healthz", "tenantRead", "othersRead"]);
// --main-thread: the server's main thread only (--separate-threads=yes; the collector's and the JIT's threads
// are noise on a busy machine) with the memory watch's budget raised, as session 12 measured the tenant read.
const mainThread = process.argv.includes("--main-thread");
// --idle: after each measured phase, the same wall time without requests is counted too and taken off
// (`<phase>LessIdle`): timers fire by the clock, and a phase under callgrind lasts minutes.
const idle = process.argv.includes("--idle");
const rounds = arg("rounds", 1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const keep = process.argv.includes("--keep") ? process.argv[process.argv.indexOf("--keep") + 1] : undefined;
const only = process.argv.includes("--only") ? (process.argv[process.argv.indexOf("--only") + 1] ?? "").split(",") : null;
const bun = process.execPath;
const root = join(import.meta.dir, "..");
// --port: another engineer's run on the same machine may hold the default.
const port = arg("port", 31701);
const base = `http://127.0.0.1:${port}`;

const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-instr-"));
const seed = Bun.spawnSync([bun, join(import.meta.dir, "seed-exam.ts"), dataDir, String(n + warm)], { stderr: "inherit" });
if (seed.exitCode !== 0) throw new Error("seeding failed");
type Seed = {
  quizId: string;
  students: { email: string; token: string }[];
  questions: { id: string; options: string[] }[];
  others: string[];
};
const exam: Seed = JSON.parse(readFileSync(join(dataDir, "exam.json"), "utf8"));
const outDir = mkdtempSync(join(tmpdir(), "ls-bench-callgrind-"));

/** A process under callgrind, not instrumented until `control("-i", "on")`; dumps go to `outDir/<name>.N`. */
function underCallgrind(name: string, args: string[], env: Record<string, string>) {
  const proc = Bun.spawn(
    [
      "valgrind",
      "--tool=callgrind",
      // Not instrumented until the server is ready: starting it under full instrumentation takes minutes.
      "--instr-atstart=no",
      ...(mainThread ? ["--separate-threads=yes"] : []),
      `--callgrind-out-file=${join(outDir, name)}`,
      bun,
      ...args,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdout: "ignore", stderr: "ignore" },
  );
  const control = (...flags: string[]) => {
    const r = Bun.spawnSync(["callgrind_control", ...flags, String(proc.pid)]);
    if (r.exitCode !== 0) throw new Error(`callgrind_control ${flags.join(" ")} failed`);
  };
  const dumps = () => readdirSync(outDir).filter((f) => f.startsWith(`${name}.`));
  // --main-thread: the main thread's file of dump k (callgrind numbers threads from 01).
  const suffix = mainThread ? "-01" : "";
  /** The instructions counted since the last zero: the totals line of dump number `k` (waited for: valgrind writes it when it gets to it). */
  const dumped = async (k: number): Promise<number> => {
    const file = join(outDir, `${name}.${k}${suffix}`);
    for (let i = 0; i < 6000 && !dumps().includes(`${name}.${k}${suffix}`); i++) await Bun.sleep(100);
    for (let i = 0; i < 600; i++) {
      const total = /^totals:\s+(\d+)/m.exec(readFileSync(file, "utf8"))?.[1];
      if (total) return Number(total);
      await Bun.sleep(100);
    }
    throw new Error(`no totals in ${file}`);
  };
  return { proc, control, dumped };
}

/** `--only bare` needs no learnspace server. */
const needsServer = !only || only.some((x) => x !== "bare");
const server = needsServer
  ? underCallgrind("cg.out", [join(root, "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir], {
      LEARNSPACE_IP_RATE_LIMIT: "0",
      LEARNSPACE_QUIET: process.argv.includes("--quiet") ? "1" : "",
      // The memory watch sees valgrind's RSS and would collect inside the window.
      ...(mainThread ? { LEARNSPACE_MEMORY_MB: "4096" } : {}),
    })
  : null;

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    // Under callgrind on a busy machine a first request (a tenant file opened) can take minutes.
    timeout: false,
  });
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const q = `/api/v1/quizzes/${exam.quizId}`;
const answers = (r: number) => ({
  answers: exam.questions.map((x, i) => ({ questionId: x.id, selectedOptionIds: [x.options[(i + r) % x.options.length] as string] })),
});
const attemptOf = new Map<number, string>();
const students = exam.students;

let readToken: string | null = null;

/**
 * Before a phase's warm-up and again before its measured requests (not counted): the seeded tokens
 * live 15 minutes, and under callgrind on a busy machine the server's start, the phases before and
 * the warm-up each can outlast them, so the tenant read signs student 0 in anew.
 */
const prepare: Record<string, () => Promise<unknown>> = {
  tenantRead: async () => {
    const s = students[0] as { email: string };
    const r = await call("POST", "/api/v1/auth/sign-in/password", null, { identifier: s.email, password: "Passw0rd!", tenantKey: "exam" });
    readToken = r?.accessToken as string;
  },
};

/** Each phase: one request for index i (warm-up indexes first, then the measured ones). */
const phases: Record<string, (i: number) => Promise<unknown>> = {
  healthz: () => call("GET", "/healthz", null),
  tenantRead: () => call("GET", "/api/v1/tenant", readToken),
  othersRead: (i) => call("GET", "/api/v1/spaces", exam.others[i % exam.others.length] as string),
  quizPage: async (i) => {
    const t = students[i]?.token as string;
    await call("GET", `/api/v1/library/contents/${exam.quizId}`, t);
    await call("GET", `${q}/participant-view`, t);
    await call("GET", `${q}/my-attempts`, t);
  },
  start: async (i) => {
    const r = (await call("POST", `${q}/my-attempts`, students[i]?.token as string)) as { attempt: { attemptId: string } };
    attemptOf.set(i, r.attempt.attemptId);
  },
  save: (i) => call("PUT", `${q}/my-attempts/${attemptOf.get(i)}/answers`, students[i]?.token as string, answers(i)),
  submit: (i) => call("POST", `${q}/my-attempts/${attemptOf.get(i)}/submit`, students[i]?.token as string, answers(i + 1)),
};
/** How many requests one index makes (the quiz page makes three). */
const perIndex: Record<string, number> = { quizPage: 3 };

const results: Record<string, number> = {};
let dumpCount = 0;
try {
  if (server) await waitReady(`${base}/readyz`, 600_000);
  // Instrumented from here: the warm-ups then run the same code the measured requests do.
  server?.control("-i", "on");
  for (const [name, run] of server ? Object.entries(phases) : []) {
    // save and submit need each student's attempt: start runs (unmeasured) whenever they are measured.
    const measured = !only || only.includes(name);
    const exam = ["start", "save", "submit"];
    if (!measured && !(exam.includes(name) && exam.some((x) => !only || only.includes(x)))) continue;
    const [w, m] = hotPhases.has(name) ? [hot.warm, hot.n] : [warm, n];
    await prepare[name]?.();
    for (let i = 0; i < w; i++) await run(i);
    await prepare[name]?.();
    const requests = m * (perIndex[name] ?? 1);
    // --rounds: the hot phases are measured that many times over (each with its idle window when --idle), the median kept.
    const raw: number[] = [];
    const lessIdle: number[] = [];
    for (let round = 0; round < (measured && hotPhases.has(name) ? rounds : 1); round++) {
      if (measured) server?.control("-z");
      const t0 = performance.now();
      for (let i = w; i < w + m; i++) await run(i);
      if (!measured) break;
      const ms = performance.now() - t0;
      server?.control("-d");
      raw.push(Math.round(((await server?.dumped(++dumpCount)) ?? 0) / requests));
      if (!idle) continue;
      // The same wall time with no request: the timers' share (the notification scheduler's tick every
      // second, the memory watch's every 100 ms, the file collector's first pass a minute after the start).
      server?.control("-z");
      await Bun.sleep(ms);
      server?.control("-d");
      lessIdle.push((raw.at(-1) ?? 0) - Math.round(((await server?.dumped(++dumpCount)) ?? 0) / requests));
    }
    if (!measured) continue;
    results[name] = median(raw);
    console.error(
      `${name}: ${results[name]?.toLocaleString("en")} instructions per request${raw.length > 1 ? ` (median of ${raw.join(", ")})` : ""}`,
    );
    if (idle) {
      results[`${name}LessIdle`] = median(lessIdle);
      console.error(`${name}: ${median(lessIdle).toLocaleString("en")} per request less the idle window's (${lessIdle.join(", ")})`);
    }
  }
} finally {
  server?.proc.kill();
  await server?.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
// The bare Elysia route of bench/run.ts (bench/bare-server.ts), the ceiling the tenant read is compared with.
if (!only || only.includes("bare")) {
  const barePort = port + 1;
  const bare = underCallgrind("bare.out", [join(import.meta.dir, "bare-server.ts")], { PORT: String(barePort) });
  try {
    await waitReady(`http://127.0.0.1:${barePort}/bare`, 600_000);
    bare.control("-i", "on");
    const get = () => fetch(`http://127.0.0.1:${barePort}/bare`).then((r) => r.arrayBuffer());
    for (let i = 0; i < hot.warm; i++) await get();
    bare.control("-z");
    for (let i = 0; i < hot.n; i++) await get();
    bare.control("-d");
    results.bare = Math.round((await bare.dumped(1)) / hot.n);
    console.error(`bare: ${results.bare.toLocaleString("en")} instructions per request`);
  } finally {
    bare.proc.kill();
    await bare.proc.exited;
  }
}
if (keep) cpSync(outDir, keep, { recursive: true });
rmSync(outDir, { recursive: true, force: true });
console.log(
  JSON.stringify({ instructionsPerRequest: results, requests: n, warmup: warm, hot, quiet: process.argv.includes("--quiet") }, null, 2),
);
