import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config";
import { enableGroupCommit, settled } from "../src/platform/db/group-commit";
import { holdsOutsideHeap, outsideHeapMiB, tenantBudget } from "../src/platform/db/memory-budget";
import { SchemaTooNewError } from "../src/platform/db/migrate";
import { platformMigrations, tenantMigrations } from "../src/platform/db/migrations.gen";
import { openPlatformDb } from "../src/platform/db/platform-db";
import { closeSqlite, drizzleOf, openSqlite } from "../src/platform/db/sqlite";
import {
  collectableRssMiB,
  collectionDue,
  createTenantStore,
  type WatchState,
  watchCheck,
  watchCollection,
} from "../src/platform/db/tenant-store";
import { write } from "../src/platform/db/types";
import { startServer } from "../src/server";
import { createMemberFixture, createTenantFixture, eventually, expectProblem, useServer } from "./helpers/server";

const s = useServer({ tenantHandles: 2 });

describe("data directory", () => {
  test("a fresh directory gets the platform file, tenants/, files/, outbox/ and a 0600 secret", async () => {
    const dir = s.server.dataDir;
    for (const name of ["platform.sqlite", "tenants", "files", "outbox", "secret"]) expect(existsSync(join(dir, name))).toBe(true);
    expect(statSync(join(dir, "secret")).mode & 0o777).toBe(0o600);
    expect((await s.call("GET", "/readyz")).body).toEqual({ status: "ready" });
    expect((await s.call("GET", "/healthz")).body).toEqual({ status: "ok" });
  });

  test("re-opening the same directory is idempotent: no migration runs twice, data and secret stay", async () => {
    const dir = mkdtempSync(join(tmpdir(), "learnspace-reopen-"));
    try {
      const config = loadConfig([], {}, { port: 0, dataDir: dir, quiet: true });
      const first = startServer(config);
      const t = await createTenantFixture(Object.assign(first, { dataDir: dir }));
      const secret = first.rt.secret;
      await first.stop();
      const second = startServer(config);
      expect(second.rt.secret).toBe(secret);
      const res = await fetch(`${second.url}/api/v1/tenant`, { headers: { authorization: `Bearer ${t.token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).key).toBe(t.tenantKey);
      const applied = second.rt.platform.sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
      // Each embedded migration once, not once per start.
      expect(applied.n).toBe(platformMigrations.length);
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a platform file migrated by a newer binary is refused, not half-migrated", () => {
    const dir = mkdtempSync(join(tmpdir(), "learnspace-newer-"));
    try {
      openPlatformDb(dir).sqlite.close();
      const db = new Database(join(dir, "platform.sqlite"));
      db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)");
      db.close();
      expect(() => openPlatformDb(dir)).toThrow(SchemaTooNewError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("tenant files", () => {
  test("a tenant's file is named by its id, created and migrated on first use", async () => {
    const t = await createTenantFixture(s.server, { key: "file-check" });
    const file = join(s.server.dataDir, "tenants", `${t.tenantId}.sqlite`);
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(join(s.server.dataDir, "tenants")).some((f) => f.includes("file-check"))).toBe(false);
    const db = new Database(file, { readonly: true });
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    db.close();
    expect(tables).toContain("members");
    expect(tables).toContain("__drizzle_migrations");
  });

  test("each token reaches only its own tenant's file", async () => {
    const a = await createTenantFixture(s.server, { name: "School A" });
    const b = await createTenantFixture(s.server, { name: "School B" });
    expect((await s.call("GET", "/api/v1/tenant", { token: a.token })).body.name).toBe("School A");
    expect((await s.call("GET", "/api/v1/tenant", { token: b.token })).body.name).toBe("School B");
  });

  test("more tenants than open handles: the LRU closes idle files and reopens them on demand", async () => {
    const fixtures = [];
    for (let i = 0; i < 5; i++) fixtures.push(await createTenantFixture(s.server, { name: `LRU ${i}` }));
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(fixtures.map((f) => s.call("GET", "/api/v1/tenant", { token: f.token })));
      results.forEach((r, i) => {
        expect(r.status).toBe(200);
        expect(r.body.name).toBe(`LRU ${i}`);
      });
    }
    // Handles are released after the response is sent.
    await eventually(() => s.server.rt.tenants.openCount() <= 2);
  });

  test("a tenant file migrated by a newer binary is refused with a clear error", async () => {
    const t = await createTenantFixture(s.server);
    s.server.rt.tenants.drop(t.tenantId);
    // Other fixtures may hold it open in the LRU; make sure it is closed before tampering.
    for (let i = 0; i < 3; i++) await createTenantFixture(s.server);
    const db = new Database(join(s.server.dataDir, "tenants", `${t.tenantId}.sqlite`));
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)");
    db.close();
    s.server.rt.tenants.drop(t.tenantId);
    expect(() => s.server.rt.tenants.acquire(t.tenantId)).toThrow(SchemaTooNewError);
    const res = await s.call("GET", "/api/v1/tenant", { token: t.token });
    expectProblem(res, 500, "INTERNAL");
  });
});

describe("closing a tenant file (docs/rules/performance.md#reopen)", () => {
  test("refreshes the planner's statistics after a connection that wrote, not after one that only read", () => {
    const dir = mkdtempSync(join(tmpdir(), "ls-close-"));
    mkdirSync(join(dir, "tenants"));
    const store = createTenantStore(dir, tenantBudget(128));
    const id = crypto.randomUUID();
    try {
      store.use(id, () => {}, { create: true });
      store.drop(id);
      // A table PRAGMA optimize analyses once a query used its index.
      const raw = new Database(store.fileOf(id));
      raw.exec("CREATE TABLE probe (k TEXT NOT NULL); CREATE INDEX probe_k ON probe (k)");
      for (let i = 0; i < 100; i++) raw.run("INSERT INTO probe (k) VALUES (?)", [`k${i}`]);
      raw.close();
      const analysed = () => {
        const r = new Database(store.fileOf(id), { readonly: true });
        try {
          return (r.query("SELECT count(*) AS n FROM sqlite_stat1 WHERE tbl = 'probe'").get() as { n: number }).n;
        } catch {
          return 0; // no sqlite_stat1 yet
        } finally {
          r.close();
        }
      };
      const read = (h: { sqlite: Database }) => expect(h.sqlite.query("SELECT k FROM probe WHERE k = ?").all("k1")).toHaveLength(1);

      store.use(id, read);
      store.drop(id);
      expect(analysed()).toBe(0);

      store.use(id, (h) => {
        write(h.db, (tx) => tx.run(sql`INSERT INTO probe (k) VALUES ('k100')`));
        read(h);
      });
      store.drop(id);
      expect(analysed()).toBe(1);
    } finally {
      store.closeAll();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("access tokens", () => {
  test("missing, malformed and revoked tokens are 401 UNAUTHENTICATED", async () => {
    const t = await createTenantFixture(s.server);
    expectProblem(await s.call("GET", "/api/v1/tenant"), 401, "UNAUTHENTICATED");
    expectProblem(await s.call("GET", "/api/v1/tenant", { token: `${t.token}x` }), 401, "UNAUTHENTICATED");
    s.server.rt.platform.sqlite.query("UPDATE sessions SET revoked_at = ? WHERE id = ?").run(Date.now(), t.sessionId);
    expectProblem(await s.call("GET", "/api/v1/tenant", { token: t.token }), 401, "UNAUTHENTICATED");
  });

  test("the Bearer scheme name is case-insensitive; a malformed JSON body still answers 401 before 400", async () => {
    const t = await createTenantFixture(s.server);
    for (const scheme of ["bearer", "BEARER", "Bearer"]) {
      const res = await fetch(`${s.url}/api/v1/tenant`, { headers: { authorization: `${scheme} ${t.token}` } });
      expect(res.status).toBe(200);
    }
    // More than one space or a tab after the scheme is still the token; whitespace inside it is not.
    for (const [header, status] of [
      [`Bearer   ${t.token}`, 200],
      [`Bearer\t${t.token}`, 200],
      [`Bearer ${t.token} x`, 401],
      [`Bearer ${t.token}\tx`, 401],
      ["Bearer", 401],
      ["Bearer ", 401],
    ] as const) {
      const res = await fetch(`${s.url}/api/v1/tenant`, { headers: { authorization: header } });
      expect([header, res.status]).toEqual([header, status]);
    }
    const patch = async (headers: Record<string, string>) => {
      const res = await fetch(`${s.url}/api/v1/tenant`, {
        method: "PATCH",
        headers: { "content-type": "application/json", ...headers },
        body: "{bad",
      });
      return [res.status, ((await res.json()) as { code: string }).code];
    };
    expect(await patch({})).toEqual([401, "UNAUTHENTICATED"]);
    const member = await createMemberFixture(s.server, t, { email: "plain@example.com" });
    expect(await patch({ authorization: `Bearer ${member.token}` })).toEqual([403, "FORBIDDEN"]);
    expect(await patch({ authorization: `Bearer ${t.token}` })).toEqual([400, "INVALID_JSON"]);
  });

  test("a token without a tenant is 403 NO_TENANT on tenant-scoped operations", async () => {
    const rt = s.server.rt;
    const { openSession } = await import("../src/platform/auth/sessions");
    const session = await openSession(rt, rt.platform.db, {
      accountId: null,
      email: "nobody@example.com",
      tenantId: null,
      tenantKey: null,
      memberId: null,
      sessionType: "personal",
      confirmed: false,
      absoluteExpiresAt: Date.now() + 60_000,
    });
    expectProblem(await s.call("GET", "/api/v1/tenant", { token: session.accessToken }), 403, "NO_TENANT");
  });
});

describe("statement reuse", () => {
  test("queries, writes and transactions stay correct when the bounded statement cache evicts", () => {
    const sqlite = new Database(":memory:");
    sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    const db = drizzleOf(sqlite, 2);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) {
        db.transaction((tx) => tx.run(sql`INSERT INTO t (v) VALUES (${`r${round}-${i}`})`));
        const rows = db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM t WHERE id > ${i}`));
        expect(rows[0]?.n).toBe(round * 5 + i + 1 - i);
      }
    }
    expect(() =>
      db.transaction((tx) => {
        tx.run(sql`INSERT INTO t (v) VALUES ('rolled back')`);
        throw new Error("abort");
      }),
    ).toThrow("abort");
    expect(db.all<{ n: number }>(sql`SELECT count(*) AS n FROM t`)[0]?.n).toBe(15);
    sqlite.close();
  });
});

describe("memory budget", () => {
  test("LEARNSPACE_MEMORY_MB sets the handle cap and page cache; LEARNSPACE_TENANT_HANDLES still overrides the cap", () => {
    const small = tenantBudget(loadConfig([], {}).memoryMb);
    const large = tenantBudget(loadConfig([], { LEARNSPACE_MEMORY_MB: "1024" }).memoryMb);
    expect(small.handles).toBeGreaterThanOrEqual(4);
    expect(large.handles).toBeGreaterThan(small.handles * 4);
    expect(large.cacheKiB).toBeGreaterThan(small.cacheKiB);
    const pinned = loadConfig([], { LEARNSPACE_MEMORY_MB: "1024", LEARNSPACE_TENANT_HANDLES: "7" });
    expect(tenantBudget(pinned.memoryMb, pinned.tenantHandles).handles).toBe(7);
    expect(() => loadConfig([], { LEARNSPACE_MEMORY_MB: "12" })).toThrow("LEARNSPACE_MEMORY_MB");
  });

  test("the memory watch asks for a collection above the budget + 10 %, again only after 2 MiB more or 10 s (docs/rules/performance.md#memory)", () => {
    const mark = tenantBudget(128).collectAboveMiB;
    expect(mark).toBe(134);
    expect(tenantBudget(256).collectAboveMiB).toBe(269);
    const long = { rssMiB: 0, msAgo: 60_000 };
    expect(collectionDue(mark - 1, mark, long)).toBe(false);
    expect(collectionDue(mark + 1, mark, long)).toBe(true);
    // Just collected at mark + 1: not again until RSS grew 2 MiB more, or 10 s later (a live set above the mark).
    expect(collectionDue(mark + 2.9, mark, { rssMiB: mark + 1, msAgo: 100 })).toBe(false);
    expect(collectionDue(mark + 3, mark, { rssMiB: mark + 1, msAgo: 100 })).toBe(true);
    expect(collectionDue(mark + 1, mark, { rssMiB: mark + 1, msAgo: 9_999 })).toBe(false);
    expect(collectionDue(mark + 1, mark, { rssMiB: mark + 1, msAgo: 10_000 })).toBe(true);
  });

  test("the memory watch stops the event loop (a full collection) only with at most 16 requests in flight or above the budget + 20 %; otherwise a concurrent one, and a full one owed (docs/rules/performance.md#memory)", () => {
    const budget = tenantBudget(128);
    expect(budget.collectFullAboveMiB).toBe(146);
    const mark = budget.collectAboveMiB;
    const long = { rssMiB: 0, msAgo: 60_000, owed: false };
    expect(watchCollection(mark - 1, budget, long, 0)).toBeNull();
    expect(watchCollection(mark + 1, budget, long, 0)).toBe("full");
    expect(watchCollection(mark + 1, budget, long, 16)).toBe("full");
    // An exam: many requests in flight. Due, but the loop is not stopped for it.
    expect(watchCollection(mark + 1, budget, long, 40)).toBe("concurrent");
    expect(watchCollection(mark + 1, budget, long, 17)).toBe("concurrent");
    // The same due rule: not again until 2 MiB more or 10 s.
    const justConcurrent = { rssMiB: mark + 1, msAgo: 100, owed: true };
    expect(watchCollection(mark + 2, budget, justConcurrent, 40)).toBeNull();
    // The owed full collection runs at the first check with few requests, if RSS is still above the mark.
    expect(watchCollection(mark + 2, budget, justConcurrent, 3)).toBe("full");
    expect(watchCollection(mark - 1, budget, justConcurrent, 3)).toBeNull();
    expect(watchCollection(mark + 2, budget, { ...justConcurrent, owed: false }, 3)).toBeNull();
    // Above the budget + 20 % the bound comes first: a full collection even under load.
    expect(watchCollection(budget.collectFullAboveMiB + 1, budget, long, 40)).toBe("full");
  });

  test("the memory watch counts growth from the lowest RSS since its last collection once RSS fell under the mark, not from the RSS that collection started at (docs/rules/performance.md#memory)", () => {
    const budget = tenantBudget(128);
    const mark = budget.collectAboveMiB;
    // A collection at mark + 5 (a visit's burst) brought RSS down to mark - 9 over the next checks.
    const state: WatchState = { at: 0, rssMiB: mark + 5, lowMiB: mark + 5, owed: false };
    expect(watchCheck(state, mark + 3, 25, budget, 0)).toBeNull();
    expect(watchCheck(state, mark - 9, 50, budget, 0)).toBeNull();
    expect(state.lowMiB).toBe(mark - 9);
    // A read burst passes the mark: a concurrent collection at once, not only 2 MiB above where the
    // last collection started; no full one owed for it (an exam's live set near the mark).
    expect(watchCheck(state, mark + 1, 75, budget, 0)).toBe("early");
    // 2 MiB above where the last one started: a full one, as before.
    expect(watchCheck(state, mark + 7, 100, budget, 0)).toBe("full");
    // A live set above the mark (never under it since): as before, 2 MiB above where the last one started, or 10 s.
    const above: WatchState = { at: 0, rssMiB: mark + 8, lowMiB: mark + 8, owed: false };
    expect(watchCheck(above, mark + 3, 100, budget, 0)).toBeNull();
    expect(watchCheck(above, mark + 9.9, 125, budget, 0)).toBeNull();
    expect(watchCheck(above, mark + 10, 150, budget, 0)).toBe("full");
    expect(watchCheck({ at: 0, rssMiB: mark + 8, lowMiB: mark + 3, owed: false }, mark + 4, 10_000, budget, 0)).toBe("full");
  });

  test("the memory watch leaves out memory held outside the JS heap (a running hash's argon2 memory), which no collection lowers", () => {
    const before = collectableRssMiB();
    let held = 40;
    holdsOutsideHeap(() => held);
    expect(outsideHeapMiB()).toBeGreaterThanOrEqual(40);
    // RSS moves a little between two readings; 40 MiB held is far beyond that
    expect(collectableRssMiB()).toBeLessThan(before - 30);
    held = 0;
    expect(collectableRssMiB()).toBeGreaterThan(before - 10);
  });

  test("a new tenant file uses 2 KiB pages, so an empty school costs about half a megabyte", async () => {
    const t = await createTenantFixture(s.server);
    const file = new Database(s.server.rt.tenants.fileOf(t.tenantId), { readonly: true });
    try {
      const { page_size, page_count } = file.query("SELECT * FROM pragma_page_size(), pragma_page_count()").get() as {
        page_size: number;
        page_count: number;
      };
      expect(page_size).toBe(2048);
      // 720 KiB: each index is at least one page (notifications_record_idx made it 700 KiB exactly).
      expect(page_size * page_count).toBeLessThan(720 * 1024);
    } finally {
      file.close();
    }
  });

  test("a closed connection's cached statements are finalized at once, not left to the garbage collector", () => {
    const sqlite = new Database(":memory:");
    sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    const db = drizzleOf(sqlite);
    const stmt = db.select({ n: sql<number>`count(*)` }).from(sql`t`).prepare();
    expect(stmt.get()).toEqual({ n: 0 });
    closeSqlite(sqlite);
    expect(() => stmt.get()).toThrow();
  });
});

describe("group commit", () => {
  test("the writes of one event-loop turn commit together, a failed one alone is undone, and settled() is the commit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "learnspace-group-"));
    const sqlite = openSqlite(join(dir, "t.sqlite"));
    const other = new Database(join(dir, "t.sqlite"), { readonly: true });
    try {
      sqlite.exec("CREATE TABLE t (v TEXT)");
      enableGroupCommit(sqlite);
      const db = drizzleOf(sqlite);
      const count = () => (other.query("SELECT count(*) AS n FROM t").get() as { n: number }).n;
      write(db, (tx) => tx.run(sql`INSERT INTO t VALUES ('a')`));
      write(db, (tx) => tx.run(sql`INSERT INTO t VALUES ('b')`));
      expect(() =>
        write(db, (tx) => {
          tx.run(sql`INSERT INTO t VALUES ('undone')`);
          throw new Error("abort");
        }),
      ).toThrow("abort");
      expect(count()).toBe(0); // not committed yet: nobody has been answered
      await settled();
      expect(count()).toBe(2);
      expect(settled()).toBeNull();
    } finally {
      other.close();
      closeSqlite(sqlite);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("released migrations", () => {
  test("every released migration is still embedded, unchanged and in order (append-only)", () => {
    type Released = { tag: string; when: number; sha256: string };
    const released = JSON.parse(readFileSync(join(import.meta.dir, "..", "drizzle", "released.json"), "utf8")) as Record<
      string,
      Released[]
    >;
    for (const [set, embedded] of [
      ["platform", platformMigrations],
      ["tenant", tenantMigrations],
    ] as const) {
      const list = released[set] ?? [];
      expect(list.length).toBeGreaterThan(0);
      list.forEach((r, i) => {
        const m = embedded[i];
        expect({ set, tag: m?.tag, when: m?.when }).toEqual({ set, tag: r.tag, when: r.when });
        expect(
          createHash("sha256")
            .update(m?.sql ?? "")
            .digest("hex"),
        ).toBe(r.sha256);
      });
      const whens = embedded.map((m) => m.when);
      expect(whens).toEqual([...whens].sort((a, b) => a - b));
    }
  });
});
