// copySpace benchmark (issue 21): a space of 200 contents (quizzes of 10 questions, assignments with
// a rubric, surveys, documents) in 10 folders, made through the API, then one copySpace over HTTP.
// Target: under 5 s. In-process server; one run (the numbers are a single measurement).
// Usage: bun bench/copy-space.ts [--contents 200]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { startServer } from "../src/server";
import { benchTenant, round } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const contents = Math.min(arg("contents", 200), 2000);
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-copy-"));
const server = startServer(loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir }));
const base = `http://127.0.0.1:${server.port}/api/v1`;
const { session } = await benchTenant(server.rt);
const auth = { authorization: `Bearer ${session.accessToken}`, "content-type": "application/json" };

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as any;
}

const questions = Array.from({ length: 10 }, (_, i) => ({
  type: "SINGLE",
  body: `Q${i}`,
  point: 1,
  options: [{ body: "a", isCorrect: true }, { body: "b" }, { body: "c" }],
}));
const space = await call("POST", "/spaces", { name: "Year 7" });
const folders: string[] = [];
for (let i = 0; i < 10; i++) folders.push((await call("POST", "/library/nodes", { title: `Unit ${i}`, spaceId: space.id })).id);
const seedStart = performance.now();
for (let i = 0; i < contents; i++) {
  const kind = ["QUIZ", "ASSIGNMENT", "SURVEY", "DOCUMENT"][i % 4] as string;
  const c = await call("POST", "/library/contents", { type: kind, title: `${kind} ${i}`, nodeId: folders[i % 10], visibility: "SHARED" });
  if (kind === "QUIZ") await call("PUT", `/quizzes/${c.id}/config`, { questions });
  if (kind === "ASSIGNMENT") {
    await call("PUT", `/assignments/${c.id}/config`, { maxScore: 10 });
    await call("PUT", `/assignments/${c.id}/rubric`, {
      useLevel: false,
      visibility: "VISIBLE_ALL",
      criteria: [{ name: "A", maxPoints: 10 }],
    });
  }
  if (kind === "SURVEY") await call("PUT", `/surveys/${c.id}/config`, { questions: [{ type: "TEXT", title: "Why?" }] }).catch(() => null);
}
const seedMs = performance.now() - seedStart;

const t0 = performance.now();
const copy = await call("POST", `/spaces/${space.id}/copy`, { name: "Year 8", includePosts: true });
const copyMs = performance.now() - t0;
const copied = (await call("GET", `/spaces/${copy.id}`)).id === copy.id;

console.log(
  JSON.stringify({ contents, seedSeconds: round(seedMs / 1000), copySpaceMs: round(copyMs), targetMs: 5000, ok: copied && copyMs < 5000 }),
);
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
