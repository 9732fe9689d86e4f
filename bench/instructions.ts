// Instructions per request, counted by valgrind's callgrind in the server process: repeatable on a
// busy machine where wall-clock numbers are noise. The server runs from source under callgrind with
// its access log on (to /dev/null); each phase is warmed up on other students/requests first, then
// the counters are zeroed, the phase's requests are sent one at a time, and the counters dumped.
// The phases that need no student of their own (healthz, tenantRead, othersRead) are warmed up with
// --hot-warmup requests and measured over --hot-requests: after a few hundred requests the JIT is still
// compiling their code (on threads callgrind counts too) and one collection in a window of 100 moved
// /healthz by ~40 %. The seeded access tokens live 15 minutes: on a busy machine, where callgrind is
// slowest, keep the whole run under that (fewer hot requests) or the reads answer 401.
// --quiet: the access log off (LEARNSPACE_QUIET=1), as bench/run.ts runs the server. --keep DIR copies the dumps there (cg.out.N, one per measured phase) for `callgrind_annotate`.
// Usage: bun bench/instructions.ts [--requests 100] [--warmup 150] [--hot-requests 500] [--hot-warmup 1000] [--only healthz,tenantRead] [--keep DIR] [--port 31701] [--quiet]
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const n = arg("requests", 100);
const warm = arg("warmup", 150);
const hot = { n: arg("hot-requests", 500), warm: arg("hot-warmup", 1000) };
const hotPhases = new Set(["healthz", "tenantRead", "othersRead"]);
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
type Seed = { quizId: string; students: { token: string }[]; questions: { id: string; options: string[] }[]; others: string[] };
const exam: Seed = JSON.parse(readFileSync(join(dataDir, "exam.json"), "utf8"));
const outDir = mkdtempSync(join(tmpdir(), "ls-bench-callgrind-"));

const server = Bun.spawn(
  [
    "valgrind",
    "--tool=callgrind",
    // Not instrumented until the server is ready: starting it under full instrumentation takes minutes.
    "--instr-atstart=no",
    `--callgrind-out-file=${join(outDir, "cg.out")}`,
    bun,
    join(root, "src", "main.ts"),
    "serve",
    "--port",
    String(port),
    "--data-dir",
    dataDir,
  ],
  {
    cwd: root,
    env: { ...process.env, LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: process.argv.includes("--quiet") ? "1" : "" },
    stdout: "ignore",
    stderr: "ignore",
  },
);

function control(...flags: string[]) {
  const r = Bun.spawnSync(["callgrind_control", ...flags, String(server.pid)]);
  if (r.exitCode !== 0) throw new Error(`callgrind_control ${flags.join(" ")} failed`);
}

const dumps = () => readdirSync(outDir).filter((f) => /^cg\.out\.\d+$/.test(f));

/** The instructions counted since the last zero: the totals line of dump number `n` (waited for: valgrind writes it when it gets to it). */
async function dumped(n: number): Promise<number> {
  const file = join(outDir, `cg.out.${n}`);
  for (let i = 0; i < 6000 && !dumps().includes(`cg.out.${n}`); i++) await Bun.sleep(100);
  for (let i = 0; i < 600; i++) {
    const total = /^totals:\s+(\d+)/m.exec(readFileSync(file, "utf8"))?.[1];
    if (total) return Number(total);
    await Bun.sleep(100);
  }
  throw new Error(`no totals in ${file}`);
}

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

/** Each phase: one request for index i (warm-up indexes first, then the measured ones). */
const phases: Record<string, (i: number) => Promise<unknown>> = {
  healthz: () => call("GET", "/healthz", null),
  tenantRead: () => call("GET", "/api/v1/tenant", students[0]?.token ?? null),
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
  await waitReady(`${base}/readyz`, 600_000);
  // Instrumented from here: the warm-ups then run the same code the measured requests do.
  control("-i", "on");
  for (const [name, run] of Object.entries(phases)) {
    // save and submit need each student's attempt: start runs (unmeasured) whenever they are measured.
    const measured = !only || only.includes(name);
    const exam = ["start", "save", "submit"];
    if (!measured && !(exam.includes(name) && exam.some((x) => !only || only.includes(x)))) continue;
    const [w, m] = hotPhases.has(name) ? [hot.warm, hot.n] : [warm, n];
    for (let i = 0; i < w; i++) await run(i);
    if (measured) control("-z");
    for (let i = w; i < w + m; i++) await run(i);
    if (!measured) continue;
    control("-d");
    results[name] = Math.round((await dumped(++dumpCount)) / (m * (perIndex[name] ?? 1)));
    console.error(`${name}: ${results[name]?.toLocaleString("en")} instructions per request`);
  }
} finally {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
  if (keep) cpSync(outDir, keep, { recursive: true });
  rmSync(outDir, { recursive: true, force: true });
}
console.log(
  JSON.stringify({ instructionsPerRequest: results, requests: n, warmup: warm, hot, quiet: process.argv.includes("--quiet") }, null, 2),
);
