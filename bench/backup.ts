// The backup benchmark (issue 8): a tenant with 10,000 members and 1,000 posts (members through the
// real insert code in one transaction, posts through the HTTP API of the compiled binary), then the
// binary's `backup --tenant`, full `backup`, `tenant export` and `restore`, timed while the server
// runs on the same data dir. Sizes are bytes on disk.
// Usage: bun bench/backup.ts [--members 10000] [--posts 1000]   (build the binary first: npm run build)
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { createRuntime } from "../src/platform/runtime";
import { round, rssMiB, seedSchool, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const memberCount = arg("members", 10_000);
const postCount = arg("posts", 1_000);
const binary = join(import.meta.dir, "..", "dist", "learnspace");
if (!existsSync(binary)) throw new Error("build the binary first: npm run build");
const root = mkdtempSync(join(tmpdir(), "ls-bench-backup-"));
const dataDir = join(root, "data");
const port = 31300;
const results: Record<string, unknown> = { members: memberCount, posts: postCount };

// 1. The tenant and its members.
const rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true }), resolveMember);
const { tenant, session } = await seedSchool(rt, "school", memberCount);
rt.close();

// 2. The server, a space and the posts (8 concurrent writers).
const server = Bun.spawn([binary, "serve", "--port", String(port), "--data-dir", dataDir], {
  env: { ...process.env, LEARNSPACE_QUIET: "1" },
  stdout: "ignore",
  stderr: "inherit",
});
const cli = (...args: string[]) => {
  const t0 = performance.now();
  const r = Bun.spawnSync([binary, ...args], { env: { ...process.env, LEARNSPACE_QUIET: "1" }, stderr: "inherit" });
  if (r.exitCode !== 0) throw new Error(`${args[0]} failed`);
  return { ms: round(performance.now() - t0), out: r.stdout.toString().trim() };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  const api = (path: string, json: unknown) =>
    fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
  const space = (await (await api("/spaces", { name: "Year 1" })).json()) as { id: string };
  const body = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(16);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < postCount) {
        const i = next++;
        const res = await api("/posts", { spaceId: space.id, title: `Post ${i}`, content: body });
        if (res.status !== 201) throw new Error(`post ${i}: ${res.status} ${await res.text()}`);
      }
    }),
  );
  results.serverRssMiB = rssMiB(server.pid);
  const tenantFile = join(dataDir, "tenants", `${tenant.tenantId}.sqlite`);
  results.tenantFileBytes = statSync(tenantFile).size + (existsSync(`${tenantFile}-wal`) ? statSync(`${tenantFile}-wal`).size : 0);

  // 3. Backups while the server runs (median of 5), their size, an export and a restore.
  const one: number[] = [];
  let folder = "";
  for (let i = 0; i < 5; i++) {
    const r = cli("backup", "--out", join(root, "one"), "--tenant", "school", "--data-dir", dataDir);
    one.push(r.ms);
    folder = r.out.split("\n").at(-1) as string;
  }
  const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"));
  results.backupTenantMs = { median: median(one), min: Math.min(...one), max: Math.max(...one) };
  results.backupTenantBytes = manifest.tenants[0].bytes;
  const full = cli("backup", "--out", join(root, "full"), "--data-dir", dataDir);
  results.backupFullMs = full.ms;
  const archive = join(root, "school.tar.gz");
  results.exportMs = cli("tenant", "export", "school", "--out", archive, "--data-dir", dataDir).ms;
  results.exportBytes = statSync(archive).size;
  results.restoreMs = cli("restore", "--from", full.out.split("\n").at(-1) as string, "--data-dir", join(root, "restored")).ms;
  results.doctorMs = cli("doctor", "--data-dir", dataDir).ms;
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
