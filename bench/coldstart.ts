// Cold start A/B: binaries started in turn on an empty data dir until their first 200 from /readyz,
// alternated so a shared machine's load falls on each alike. Per binary: the server's CPU time until
// ready (every thread's, from /proc/<pid>/task/*/schedstat, in ns: the JIT and GC threads count too)
// and the wall time. Decide on the CPU time on a busy machine; bench/run.ts prints the quiet figure.
// Usage: bun bench/coldstart.ts [--runs 15] BINARY [BINARY …] (e.g. /tmp/before dist/learnspace)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { round } from "./lib";

const runsAt = process.argv.indexOf("--runs");
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 15;
const binaries = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--runs");
if (!binaries.length) throw new Error("usage: bun bench/coldstart.ts [--runs 15] BINARY [BINARY …]");

/** CPU time of every thread of a process so far, ms. */
const threadsCpuMs = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).reduce(
    (ms, t) => ms + Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]) / 1e6,
    0,
  );

// Below the ephemeral range (32768–60999): a port a client socket holds cannot be listened on.
let port = 21000 + Math.floor(Math.random() * 9000);
const results = binaries.map(() => ({ cpu: [] as number[], wall: [] as number[] }));
for (let r = 0; r < runs; r++) {
  for (const [b, binary] of binaries.entries()) {
    const dir = mkdtempSync(join(tmpdir(), "ls-bench-coldstart-"));
    const url = `http://127.0.0.1:${++port}/readyz`;
    const t0 = performance.now();
    const server = Bun.spawn([binary, "serve", "--port", String(port), "--data-dir", join(dir, "data")], {
      env: { ...process.env, LEARNSPACE_QUIET: "1" },
      stdout: "ignore",
      stderr: "inherit",
    });
    let exited = false;
    void server.exited.then(() => (exited = true));
    for (;;) {
      if (exited) throw new Error(`${binary} exited before ready`);
      const ok = await fetch(url).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      await Bun.sleep(1);
    }
    results[b]?.wall.push(performance.now() - t0);
    results[b]?.cpu.push(threadsCpuMs(server.pid));
    server.kill();
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
const median = (xs: number[]) => [...xs].sort((a, c) => a - c)[xs.length >> 1] as number;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
for (const [b, binary] of binaries.entries()) {
  const { cpu, wall } = results[b] as { cpu: number[]; wall: number[] };
  console.log(
    `${binary}: CPU to ready median ${round(median(cpu))} ms (mean ${round(mean(cpu))}, min ${round(Math.min(...cpu))}); wall median ${round(median(wall))} ms (min ${round(Math.min(...wall))}); ${runs} runs`,
  );
}
console.log(`load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
