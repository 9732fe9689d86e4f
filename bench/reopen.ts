// What a tenant handle's reopen costs (issue 27, the spread read): the server's CPU per `GET /spaces`
// cycling over more schools than it keeps handles for (a reopen each) against fewer (none), over
// loopback in this process (the client's JS runs on the same thread: the difference is the reopen);
// then the parts of a reopen, each alone, on the same files: the connection and its pragmas (the schema
// parse happens at `PRAGMA cache_size`), the migration check, the Drizzle handle, the actor cache's first
// use, PRAGMA optimize, the checkpoint and close. CPU time of the event loop's thread
// (/proc/thread-self/schedstat), steadier than wall time on a loaded machine; still noisy under load.
// Usage: bun bench/reopen.ts [--schools 96] [--rounds 5]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { tenantBudget } from "../src/platform/db/memory-budget";
import { applyMigrations } from "../src/platform/db/migrate";
import { tenantMigrations } from "../src/platform/db/migrations.gen";
import { closeSqlite, drizzleOf, openSqlite } from "../src/platform/db/sqlite";
import { startServer } from "../src/server";
import { seedSchool } from "./seed-members";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const schools = arg("schools", 96);
const rounds = arg("rounds", 5);

const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-reopen-"));
const config = loadConfig([], { LEARNSPACE_QUIET: "1", LEARNSPACE_IP_RATE_LIMIT: "0" }, { port: 0, dataDir });
const server = startServer(config);
const rt = server.rt;
const base = `http://127.0.0.1:${server.port}/api/v1`;
const budget = tenantBudget(config.memoryMb, config.tenantHandles);
const handles = budget.handles;

/** CPU time of this thread (the server's event loop; not the collector's or the JIT's threads) so far, µs. */
const cpu = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1000;

const seeded: { tenantId: string; memberId: string; token: string }[] = [];
for (let i = 0; i < schools; i++) {
  const s = await seedSchool(rt, `reopen-${i}`, { members: 20 });
  const headers = { authorization: `Bearer ${s.ownerToken}`, "content-type": "application/json" };
  const res = await fetch(`${base}/spaces`, { method: "POST", headers, body: JSON.stringify({ name: `Space ${i}` }) });
  if (res.status !== 201) throw new Error(`createSpace: ${res.status} ${await res.text()}`);
  seeded.push({ tenantId: s.tenantId, memberId: s.ownerMemberId, token: s.ownerToken });
}

// Counts the reopens the request path makes (a handle object not seen before).
const seen = new WeakSet<object>();
let reopens = 0;
const acquire = rt.tenants.acquire;
rt.tenants.acquire = (id, opts) => {
  const h = acquire(id, opts);
  if (!seen.has(h)) {
    seen.add(h);
    reopens++;
  }
  return h;
};

/** µs of CPU per GET /spaces, cycling over the first `n` schools `rounds` times (after one warm-up round). */
async function spread(n: number) {
  const get = (t: { token: string }) => fetch(`${base}/spaces`, { headers: { authorization: `Bearer ${t.token}` } });
  // Two rounds first: a handle's guarded caches are made at its second request (docs/rules/performance.md#reopen).
  for (let r = 0; r < 2; r++) for (const t of seeded.slice(0, n)) await (await get(t)).text();
  Bun.gc(true);
  const r0 = reopens;
  const t0 = cpu();
  for (let r = 0; r < rounds; r++) {
    for (const t of seeded.slice(0, n)) {
      const res = await get(t);
      if (res.status !== 200) throw new Error(`listSpaces: ${res.status}`);
      await res.text();
    }
  }
  const us = (cpu() - t0) / (n * rounds);
  console.error(`${n} schools: ${Math.round(us)} µs a request, ${reopens - r0} reopens in ${n * rounds} requests`);
  return us;
}

// The parts of a reopen, each alone, over the same files (the store's own handles stay as they are).
const parts = { open: 0, migrationCheck: 0, drizzle: 0, actor: 0, optimize: 0, close: 0 };
const n = Math.min(schools, 64);
for (let r = 0; r < rounds; r++) {
  for (const s of seeded.slice(0, n)) {
    let t = cpu();
    const lap = (k: keyof typeof parts) => {
      const now = cpu();
      parts[k] += now - t;
      t = now;
    };
    const sqlite = openSqlite(rt.tenants.fileOf(s.tenantId), budget);
    lap("open");
    applyMigrations(sqlite, tenantMigrations, "bench");
    lap("migrationCheck");
    const db = drizzleOf(sqlite, budget.statements);
    lap("drizzle");
    resolveMember({ tenantId: s.tenantId, sqlite, db, users: 1, evicted: false, cache: new Map() }, s.memberId);
    lap("actor");
    sqlite.exec("PRAGMA optimize");
    lap("optimize");
    closeSqlite(sqlite);
    lap("close");
  }
}

// Alternated, three times each: the first rounds also warm the JIT.
const hot: number[] = [];
const cold: number[] = [];
for (let i = 0; i < 3; i++) {
  hot.push(await spread(Math.min(handles, schools) - 4));
  cold.push(await spread(schools));
}
const best = (xs: number[]) => Math.round(Math.min(...xs)) / 1000;
const per = (us: number) => Math.round(us / (n * rounds)) / 1000;
const out = {
  handles,
  schools,
  rounds,
  cpuMsPerRequest: { openHandle: best(hot), reopen: best(cold), all: { openHandle: hot, reopen: cold } },
  reopenPartsCpuMs: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, per(v)])),
};
console.log(JSON.stringify(out, null, 2));
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
