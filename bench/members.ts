// The member-list benchmark (issue 4): a tenant with 100,000 members and custom-field values,
// seeded directly through SQL in one transaction, then listMembers over HTTP (server in its own
// process, one request at a time) for the default sort, a custom-field sort with two filters,
// and a search. Usage: bun bench/members.ts [--members 100000] [--seconds 3] [--concurrency 1]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { createRuntime } from "../src/platform/runtime";
import { benchTenant, load, round, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const count = arg("members", 100_000);
const seconds = arg("seconds", 3);
const concurrency = arg("concurrency", 1);
const port = 31200;
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-members-"));

// A fixed pseudo-random sequence: every run seeds the same data.
let state = 42;
const rand = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
const FAMILY = ["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Smith", "Garcia", "Müller", "Rossi"];
const GIVEN = ["Minji", "Jisoo", "Hyun", "Seo", "Woo", "Alex", "Sam", "Maria", "Jonas", "Lena", "Noah", "Emma", "Yuna", "Daniel"];
const DEPTS = Array.from({ length: 30 }, (_, i) => `Department ${String.fromCharCode(65 + (i % 26))}${i}`);
const GRADES = ["A", "B", "C", "D", "E"];

// 1. Seed: the tenant through the provisioning code, then members and values through SQL.
const seedStart = performance.now();
const rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true }), resolveMember);
const { tenant, session } = await benchTenant(rt);
const fields = rt.tenants.use(tenant.tenantId, (h) => {
  const db = h.sqlite;
  const now = Date.now();
  const roleId = (db.query("SELECT id FROM roles WHERE key = 'member'").get() as { id: string }).id;
  const field = (key: string, type: string, position: number, options: string[] = []) => {
    const id = Bun.randomUUIDv7();
    db.query(
      "INSERT INTO custom_fields (id, kind, key, label, type, options, required, is_active, position, created_at, updated_at) VALUES (?, 'member', ?, ?, ?, ?, 0, 1, ?, ?, ?)",
    ).run(id, key, key, type, JSON.stringify(options), position, now, now);
    return id;
  };
  const ids = {
    dept: field("dept", "SHORT_TEXT", 0),
    grade: field("grade", "SELECT", 1, GRADES),
    score: field("score", "NUMBER", 2),
    joined: field("joined", "DATE", 3),
  };
  const member = db.query(
    `INSERT INTO members (id, user_id, user_id_key, email, display_name, role_id, is_active, is_issued_account, must_change_password,
       last_login_at, failed_logins, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?)`,
  );
  const profile = db.query("INSERT INTO profiles (id, member_id, is_main, created_at) VALUES (?, ?, 1, ?)");
  const text = db.query("INSERT INTO member_field_values (member_id, field_id, value_text) VALUES (?, ?, ?)");
  const num = db.query("INSERT INTO member_field_values (member_id, field_id, value_number) VALUES (?, ?, ?)");
  const date = db.query("INSERT INTO member_field_values (member_id, field_id, value_date) VALUES (?, ?, ?)");
  const start = now - count * 60_000;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = Bun.randomUUIDv7();
      const created = start + i * 60_000;
      const userId = `user${i}`;
      member.run(
        id,
        userId,
        userId,
        `user${i}@bench.test`,
        `${pick(FAMILY)} ${pick(GIVEN)}`,
        roleId,
        rand() < 0.9 ? 1 : 0,
        rand() < 0.5 ? 1 : 0,
        rand() < 0.8 ? created + Math.floor(rand() * 1e9) : null,
        created,
        created,
      );
      profile.run(Bun.randomUUIDv7(), id, created);
      if (rand() < 0.95) text.run(id, ids.dept, pick(DEPTS));
      text.run(id, ids.grade, pick(GRADES));
      if (rand() < 0.8) num.run(id, ids.score, Math.floor(rand() * 1000) / 10);
      if (rand() < 0.7) date.run(id, ids.joined, start + Math.floor(rand() * count * 60_000));
    }
  })();
  return ids;
});
rt.close();
const seedMs = round(performance.now() - seedStart);

// 2. The server in its own process, then one closed loop per query.
const server = Bun.spawn(
  [process.execPath, join(import.meta.dir, "..", "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir],
  {
    env: { ...process.env, LEARNSPACE_QUIET: "1" },
    stdout: "ignore",
    stderr: "inherit",
  },
);
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  const base = `http://127.0.0.1:${port}/api/v1/members`;
  const headers = { authorization: `Bearer ${session.accessToken}` };
  const queries: Record<string, string> = {
    defaultSort: "",
    customFieldSortTwoFilters: `?sortBy=${fields.dept}&sortDir=asc&statuses=active&fieldFilters=${fields.grade}:B`,
    customNumberSortDescTwoFilters: `?sortBy=${fields.score}&isIssuedAccount=true&fieldFilters=${fields.dept}:Department%20C2`,
    statusFilterEmailSort: "?statuses=active&sortBy=email&sortDir=asc",
    searchCommon: "?search=minji",
    searchRare: "?search=user12345",
    deepPage: "?page=4000&pageSize=20",
  };
  const results: Record<string, unknown> = { members: count, seedMs };
  for (const [name, query] of Object.entries(queries)) {
    const first = await fetch(base + query, { headers });
    if (!first.ok) throw new Error(`${name}: ${first.status} ${await first.text()}`);
    const { total } = (await first.json()) as { total: number };
    for (let i = 0; i < 20; i++) await (await fetch(base + query, { headers })).arrayBuffer(); // warm-up
    const r = await load(base + query, { seconds, concurrency, headers, maxRequests: 20_000 });
    results[name] = { total, p50: r.p50, p99: r.p99, rps: r.rps, errors: r.errors };
  }
  console.log(JSON.stringify(results, null, 2));
} finally {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
