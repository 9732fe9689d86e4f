// createMembers with a class list of 500 (issue 12: < 10 s): the server in its own process, one
// bulk request per run over fresh userIds, generated passwords (the common case) and, with
// --chosen, a password sent per item (each hashed at full cost). Usage:
// bun bench/members-bulk.ts [--runs 3] [--items 500] [--chosen]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { createRuntime } from "../src/platform/runtime";
import { benchTenant, round, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const runs = arg("runs", 3);
const items = arg("items", 500);
const chosen = process.argv.includes("--chosen");
const port = 31210;
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-bulk-"));

const rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true }), resolveMember);
const { session } = await benchTenant(rt);
rt.close();

const server = Bun.spawn(
  [process.execPath, join(import.meta.dir, "..", "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir],
  { env: { ...process.env, LEARNSPACE_QUIET: "1" }, stdout: "ignore", stderr: "inherit" },
);
try {
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/readyz`);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const members = Array.from({ length: items }, (_, i) => ({
      displayName: `Student ${r}-${i}`,
      userId: `s${r}-${i}`,
      email: `s${r}-${i}@class.test`,
      roleKey: "member",
      ...(chosen ? { password: `Welcome${r}x${i}` } : {}),
    }));
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/members/bulk-create`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ members }),
    });
    const body = (await res.json()) as { created: unknown[]; failed: unknown[] };
    times.push(performance.now() - t0);
    if (res.status !== 201 || body.created.length !== items)
      throw new Error(`run ${r}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `createMembers ${items} items (${chosen ? "chosen" : "generated"} passwords): median ${round(sorted[Math.floor(sorted.length / 2)] as number)} ms, max ${round(sorted.at(-1) as number)} ms over ${runs} runs`,
  );
} finally {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
