// What a sign-in costs the server's event loop besides the hash (issue 27, the storm's reads p99): CPU
// time of the server's main thread (/proc/<pid>/task/<pid>/schedstat: not the hash threads', not the
// collector's) per request, for a read of another school (`GET /spaces`), a successful password sign-in
// (one at a time: the hash itself runs on the hash threads) and a shed one (503 SERVER_BUSY: bursts
// against `LEARNSPACE_SIGNIN_QUEUE=0`, so all but the two running are shed; the bursts' successful
// sign-ins are subtracted at the measured sign-in cost). Servers from source; with several
// `--server-src DIR` they run side by side on copies of one seeded data dir and are measured in turn,
// round after round (A/B on a loaded machine).
// `--cpu-prof DIR`: each server writes its CPU profile (markdown) there when it stops.
// Usage: bun bench/signin-cost.ts [--students 400] [--rounds 3] [--burst 50] [--server-src DIR …] [--port N] [--cpu-prof DIR] [--only reads,signIn,shed]
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const students = Math.min(arg("students", 400), 5000);
const rounds = Math.min(arg("rounds", 3), 20);
const burst = Math.min(arg("burst", 50), 500);
// Another engineer's server on a fixed port would answer these requests: one of this run's own, below
// the ephemeral range (loopback clients hold ports there)
const port0 = arg("port", 21000 + Math.floor(Math.random() * 2000) * 4);
const root = join(import.meta.dir, "..");
const sources = process.argv.flatMap((a, i) => (a === "--server-src" ? [process.argv[i + 1] as string] : []));
if (!sources.length) sources.push(root);
const profDir = process.argv.includes("--cpu-prof") ? (process.argv[process.argv.indexOf("--cpu-prof") + 1] as string) : null;
/** `--only signIn` (or reads, shed): the phases measured (a profile of one alone). */
const only = process.argv.includes("--only") ? (process.argv[process.argv.indexOf("--only") + 1] as string).split(",") : null;
const runs = (phase: string) => !only || only.includes(phase);
const prof = profDir ? ["--cpu-prof", "--cpu-prof-md", "--cpu-prof-dir", profDir] : [];

const seedDir = mkdtempSync(join(tmpdir(), "ls-bench-signin-cost-"));
const seed = Bun.spawnSync([process.execPath, join(import.meta.dir, "seed-exam.ts"), seedDir, String(students)], { stderr: "inherit" });
if (seed.exitCode !== 0) throw new Error("seeding failed");
const exam: { students: { email: string }[]; others: string[] } = JSON.parse(readFileSync(join(seedDir, "exam.json"), "utf8"));

type Server = { src: string; base: string; proc: ReturnType<typeof Bun.spawn>; dir: string; next: number };
const servers: Server[] = [];
/** CPU time of the server's main thread (its event loop) so far, µs. */
const loopUs = (s: Server) => Number(readFileSync(`/proc/${s.proc.pid}/task/${s.proc.pid}/schedstat`, "utf8").split(" ")[0]) / 1000;

const signIn = (s: Server) => {
  const who = exam.students[s.next++ % exam.students.length] as { email: string };
  return fetch(`${s.base}/auth/sign-in/password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ identifier: who.email, password: "Passw0rd!", tenantKey: "exam" }),
  });
};

async function reads(s: Server, n: number) {
  const t0 = loopUs(s);
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${s.base}/spaces`, { headers: { authorization: `Bearer ${exam.others[i % exam.others.length]}` } });
    if (res.status !== 200) throw new Error(`GET /spaces: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  return (loopUs(s) - t0) / n;
}

async function signIns(s: Server, n: number) {
  const t0 = loopUs(s);
  for (let i = 0; i < n; i++) {
    const res = await signIn(s);
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  return (loopUs(s) - t0) / n;
}

/** µs a shed answer, from bursts of `burst` at once; the bursts' successful sign-ins cost `signInUs` each. */
async function sheds(s: Server, bursts: number, signInUs: number) {
  let ok = 0;
  let shed = 0;
  const t0 = loopUs(s);
  for (let b = 0; b < bursts; b++) {
    const answers = await Promise.all(Array.from({ length: burst }, () => signIn(s)));
    for (const res of answers) {
      if (res.status === 200) ok++;
      else if (res.status === 503) shed++;
      else throw new Error(`sign-in: ${res.status}`);
      await res.arrayBuffer();
    }
    await Bun.sleep(200); // the running hashes finish
  }
  return { us: (loopUs(s) - t0 - ok * signInUs) / shed, shed, ok };
}

const table: Record<string, { readUs: number[]; signInUs: number[]; shedUs: number[] }> = {};
try {
  for (const [i, src] of sources.entries()) {
    const dir = `${seedDir}-${i}`;
    cpSync(seedDir, dir, { recursive: true });
    const port = port0 + i;
    const proc = Bun.spawn([process.execPath, ...prof, join(src, "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dir], {
      cwd: src,
      env: { ...process.env, LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_SIGNIN_QUEUE: "0", LEARNSPACE_QUIET: "1" },
      stdout: "ignore",
      stderr: "inherit",
    });
    servers.push({ src, base: `http://127.0.0.1:${port}/api/v1`, proc, dir, next: 0 });
    await waitReady(`http://127.0.0.1:${port}/readyz`);
  }
  for (const s of servers) {
    await reads(s, 100); // warm-up
    await signIns(s, 10);
    await sheds(s, 2, 0);
    table[s.src] = { readUs: [], signInUs: [], shedUs: [] };
  }
  for (let r = 0; r < rounds; r++) {
    for (const s of servers) {
      const row = table[s.src] as (typeof table)[string];
      if (runs("reads")) row.readUs.push(Math.round(await reads(s, 300)));
      const signInUs = runs("signIn") || runs("shed") ? await signIns(s, 40) : 0;
      row.signInUs.push(Math.round(signInUs));
      if (runs("shed")) row.shedUs.push(Math.round((await sheds(s, 4, signInUs)).us));
    }
    console.error(`round ${r + 1}/${rounds}, load ${loadavg()[0]?.toFixed(1)}`);
  }
} finally {
  for (const s of servers) {
    s.proc.kill();
    await s.proc.exited;
    rmSync(s.dir, { recursive: true, force: true });
  }
  rmSync(seedDir, { recursive: true, force: true });
}
console.log(JSON.stringify({ students, rounds, burst, load: loadavg()[0], eventLoopCpuUsPerRequest: table }, null, 2));
