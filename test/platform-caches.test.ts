// The request path's caches (docs/rules/performance.md#caches, #prepared-queries): exact, invalidated
// by what changed, never by time.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createTokens } from "../src/platform/auth/tokens";
import { changeGuardedCache, closeSqlite, drizzleOf, openSqlite, preparedQuery, tableGuardedCache } from "../src/platform/db/sqlite";
import { savepoint, write } from "../src/platform/db/types";
import { createContent } from "./helpers/fixture";
import { createContentSpace, createMemberFixture, createTenantFixture, useServer } from "./helpers/server";

const people = sqliteTable("people", { id: text("id").primaryKey(), name: text("name").notNull() });
const notes = sqliteTable("notes", { id: integer("id").primaryKey(), body: text("body").notNull() });

function withFile(fn: (sqlite: ReturnType<typeof openSqlite>, db: ReturnType<typeof drizzleOf>) => void) {
  const dir = mkdtempSync(join(tmpdir(), "ls-caches-"));
  const sqlite = openSqlite(join(dir, "t.sqlite"));
  sqlite.exec(
    "CREATE TABLE people (id TEXT PRIMARY KEY, name TEXT NOT NULL); CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
  );
  sqlite.exec("INSERT INTO people VALUES ('a', 'Ann')");
  const db = drizzleOf(sqlite);
  try {
    fn(sqlite, db);
  } finally {
    closeSqlite(sqlite);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("tableGuardedCache", () => {
  test("keeps its entries across writes to other tables, reloads after a write to a guarded one", () => {
    withFile((sqlite, db) => {
      const cache = tableGuardedCache<string>(sqlite, ["people"]);
      let loads = 0;
      const name = () =>
        cache("a", () => {
          loads++;
          return db.select().from(people).where(eq(people.id, "a")).get()?.name ?? "";
        });
      expect(name()).toBe("Ann");
      expect(name()).toBe("Ann");
      expect(loads).toBe(1);
      write(db, (tx) => tx.insert(notes).values({ body: "unrelated" }).run());
      expect(name()).toBe("Ann");
      expect(loads).toBe(1);
      write(db, (tx) => tx.update(people).set({ name: "Anna" }).where(eq(people.id, "a")).run());
      expect(name()).toBe("Anna");
      expect(loads).toBe(2);
    });
  });

  test("a value read inside a write that rolls back is not served after it", () => {
    withFile((sqlite, db) => {
      const cache = tableGuardedCache<string>(sqlite, ["people"]);
      const name = () => cache("a", () => db.select().from(people).where(eq(people.id, "a")).get()?.name ?? "");
      expect(name()).toBe("Ann");
      expect(name()).toBe("Ann");
      expect(() =>
        write(db, (tx) => {
          tx.update(people).set({ name: "Uncommitted" }).where(eq(people.id, "a")).run();
          expect(name()).toBe("Uncommitted");
          throw new Error("refused");
        }),
      ).toThrow("refused");
      // The rolled-back change and a later committed one leave the guard's count where the uncommitted read saw it.
      write(db, (tx) => tx.insert(people).values({ id: "b", name: "Bo" }).run());
      expect(name()).toBe("Ann");
    });
  });

  test("caches from the first lookup, inside a write too, and runs no statement to check its guard", () => {
    withFile((sqlite, db) => {
      const cache = tableGuardedCache<string>(sqlite, ["people"]);
      let loads = 0;
      const load = () => {
        loads++;
        return "x";
      };
      cache("a", load);
      // Every step of an exam looks up inside its write(): those lookups are served from the cache.
      write(db, () => {
        cache("a", load);
        cache("a", load);
      });
      expect(loads).toBe(1);
      // While SQLite runs a statement (here: in the update hook of the connection), any other statement
      // on it throws; a guard that costs no statement still answers.
      const seen: string[] = [];
      const hook = sqlite.onInsert;
      sqlite.onInsert = (...args) => {
        hook?.apply(sqlite, args);
        seen.push(cache("a", load));
      };
      write(db, (tx) => tx.insert(notes).values({ body: "unrelated" }).run());
      sqlite.onInsert = hook;
      expect(seen).toEqual(["x"]);
      expect(loads).toBe(1);
    });
  });

  test("rows changed by a raw statement, a foreign key's cascade or a trigger invalidate it", () => {
    withFile((sqlite, db) => {
      sqlite.exec(`CREATE TABLE teams (id TEXT PRIMARY KEY);
        CREATE TABLE members (id TEXT PRIMARY KEY, team TEXT REFERENCES teams(id) ON DELETE CASCADE);
        CREATE TABLE audit (what TEXT);
        CREATE TRIGGER audit_notes AFTER INSERT ON notes BEGIN INSERT INTO audit VALUES (new.body); END;
        INSERT INTO teams VALUES ('t'); INSERT INTO members VALUES ('m', 't')`);
      const members = tableGuardedCache<number>(sqlite, ["members"]);
      const audits = tableGuardedCache<number>(sqlite, ["audit"]);
      const count = (table: string) => (sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(members("all", () => count("members"))).toBe(1);
      expect(audits("all", () => count("audit"))).toBe(0);
      write(db, () => sqlite.query("DELETE FROM teams WHERE id = ?").run("t"));
      expect(members("all", () => count("members"))).toBe(0);
      write(db, (tx) => tx.insert(notes).values({ body: "audited" }).run());
      expect(audits("all", () => count("audit"))).toBe(1);
    });
  });

  test("a value read inside a write that failed before writing is served until a later write", () => {
    withFile((sqlite, db) => {
      const cache = tableGuardedCache<string>(sqlite, ["people"]);
      const name = () => cache("a", () => db.select().from(people).where(eq(people.id, "a")).get()?.name ?? "");
      expect(name()).toBe("Ann");
      expect(() =>
        write(db, () => {
          expect(name()).toBe("Ann");
          throw new Error("refused");
        }),
      ).toThrow("refused");
      expect(name()).toBe("Ann");
      write(db, (tx) => tx.update(people).set({ name: "Anna" }).where(eq(people.id, "a")).run());
      expect(name()).toBe("Anna");
    });
  });

  test("a Drizzle savepoint rolled back inside a write (not through savepoint()) is noted: its values are not served", () => {
    withFile((sqlite, db) => {
      const cache = tableGuardedCache<string>(sqlite, ["people"]);
      const name = () => cache("a", () => db.select().from(people).where(eq(people.id, "a")).get()?.name ?? "");
      expect(name()).toBe("Ann");
      write(db, (tx) => {
        try {
          tx.transaction((sp) => {
            sp.update(people).set({ name: "Gone" }).where(eq(people.id, "a")).run();
            expect(name()).toBe("Gone");
            throw new Error("item refused");
          });
        } catch {
          // As a bulk operation's item: the list goes on.
        }
      });
      expect(name()).toBe("Ann");
      write(db, (tx) => tx.update(people).set({ name: "Anna" }).where(eq(people.id, "a")).run());
      expect(name()).toBe("Anna");
    });
  });

  test("a bulk item's savepoint rolled back: what it saw is not served after a later write", () => {
    withFile((sqlite, db) => {
      const cache = tableGuardedCache<string>(sqlite, ["people"]);
      const name = () => cache("a", () => db.select().from(people).where(eq(people.id, "a")).get()?.name ?? "");
      expect(name()).toBe("Ann");
      write(db, (tx) => {
        try {
          savepoint(tx, (sp) => {
            sp.update(people).set({ name: "Gone" }).where(eq(people.id, "a")).run();
            expect(name()).toBe("Gone");
            throw new Error("item refused");
          });
        } catch {
          // As a bulk operation's item: the list goes on.
        }
      });
      // Nothing looked up in between (that would replace the entry), then one committed write.
      write(db, (tx) => tx.update(people).set({ name: "Anna" }).where(eq(people.id, "a")).run());
      expect(name()).toBe("Anna");
    });
  });

  test("bounded: the least recently used entry goes first", () => {
    withFile((sqlite) => {
      const cache = tableGuardedCache<string>(sqlite, ["people"], 2);
      const loads: string[] = [];
      const get = (key: string) =>
        cache(key, () => {
          loads.push(key);
          return key;
        });
      get("a");
      for (const key of ["a", "b", "a", "c", "a", "b"]) get(key);
      // a, b cached; a used again, so c pushes b out, not a.
      expect(loads).toEqual(["a", "b", "c", "b"]);
    });
  });
});

describe("changeGuardedCache", () => {
  test("reloads after a change to any table, and serves nothing read inside a write that rolled back", () => {
    withFile((sqlite, db) => {
      const cache = changeGuardedCache<string>(sqlite);
      let loads = 0;
      const name = () =>
        cache("a", () => {
          loads++;
          return db.select().from(people).where(eq(people.id, "a")).get()?.name ?? "";
        });
      expect(name()).toBe("Ann");
      expect(name()).toBe("Ann");
      expect(loads).toBe(1);
      write(db, (tx) => tx.insert(notes).values({ body: "any table" }).run());
      expect(name()).toBe("Ann");
      expect(loads).toBe(2);
      expect(() =>
        write(db, (tx) => {
          tx.update(people).set({ name: "Uncommitted" }).where(eq(people.id, "a")).run();
          expect(name()).toBe("Uncommitted");
          throw new Error("refused");
        }),
      ).toThrow("refused");
      // The file's change count stays where the uncommitted read saw it: only the noted rollback tells.
      expect(name()).toBe("Ann");
    });
  });
});

describe("the verified access tokens (src/platform/auth/tokens.ts)", () => {
  test("a token in use stays verified while newer ones pass through the bound; an unused one goes", async () => {
    const tokens = createTokens("a-test-secret-of-32-characters!!", 8);
    const now = Date.now();
    const sign = async (i: number) =>
      (await tokens.sign({ sid: `s${i}`, acc: null, email: `e${i}@example.com`, tid: null, tkey: null, sub: null }, now, now + 60_000))
        .accessToken;
    const hot = await sign(0);
    const cold = await sign(1);
    expect((await tokens.verify(hot))?.sid).toBe("s0");
    expect((await tokens.verify(cold))?.sid).toBe("s1");
    for (let i = 2; i < 40; i++) {
      expect((await tokens.verify(await sign(i)))?.sid).toBe(`s${i}`);
      // Answered without a promise: still verified (first in, but used).
      const again = tokens.verify(hot);
      expect(again instanceof Promise).toBe(false);
      expect((again as { sid: string } | null)?.sid).toBe("s0");
    }
    const later = tokens.verify(cold);
    expect(later instanceof Promise).toBe(true);
    expect((await later)?.sid).toBe("s1");
  });

  test("a token with a verified token's signature but other claims is verified anew and refused; the verified one stays", async () => {
    const tokens = createTokens("a-test-secret-of-32-characters!!", 8);
    const now = Date.now();
    const token = (
      await tokens.sign({ sid: "s0", acc: null, email: "e0@example.com", tid: null, tkey: null, sub: null }, now, now + 60_000)
    ).accessToken;
    expect((await tokens.verify(token))?.sid).toBe("s0");
    // The payload of another session, the same signature: the cache is keyed by the signature alone.
    const [head, , signature] = token.split(".");
    const payload = Buffer.from(JSON.stringify({ sid: "s1", email: "e1@example.com", exp: Math.floor(now / 1000) + 60 })).toString(
      "base64url",
    );
    const forged = `${head}.${payload}.${signature}`;
    const answer = tokens.verify(forged);
    expect(answer instanceof Promise).toBe(true);
    expect(await answer).toBeNull();
    const again = tokens.verify(token);
    expect(again instanceof Promise).toBe(false);
    expect((again as { sid: string } | null)?.sid).toBe("s0");
  });
});

describe("preparedQuery", () => {
  test("built once per connection, usable inside a write, bound per call", () => {
    withFile((_sqlite, db) => {
      let builds = 0;
      const byId = (d: typeof db, id: string) =>
        preparedQuery(d, "people.byId", (base) => {
          builds++;
          return base
            .select()
            .from(people)
            .where(eq(people.id, sql.placeholder("id")))
            .prepare();
        }).get({ id });
      expect(byId(db, "a")?.name).toBe("Ann");
      write(db, (tx) => {
        tx.insert(people).values({ id: "b", name: "Bo" }).run();
        expect(byId(tx, "b")?.name).toBe("Bo");
      });
      expect(byId(db, "zz")).toBeUndefined();
      expect(builds).toBe(1);
    });
  });
});

describe("the statement LRU of a connection", () => {
  test("finalizes the statements it drops at once, never a prepared query's", () => {
    const dir = mkdtempSync(join(tmpdir(), "ls-caches-"));
    const sqlite = openSqlite(join(dir, "t.sqlite"));
    try {
      sqlite.exec("CREATE TABLE people (id TEXT PRIMARY KEY, name TEXT NOT NULL); INSERT INTO people VALUES ('a', 'Ann')");
      const db = drizzleOf(sqlite, 2);
      const client = (db as unknown as { $client: { prepare(sql: string): { get(): unknown } } }).$client;
      const byId = preparedQuery(db, "people.byId", (base) =>
        base
          .select()
          .from(people)
          .where(eq(people.id, sql.placeholder("id")))
          .prepare(),
      );
      const first = client.prepare("SELECT 1 AS n");
      expect(first.get()).toEqual({ n: 1 });
      for (const n of [2, 3, 4]) expect(db.all(sql.raw(`SELECT ${n} AS n`))).toEqual([{ n }]);
      expect(() => first.get()).toThrow();
      expect(byId.get({ id: "a" })?.name).toBe("Ann");
    } finally {
      closeSqlite(sqlite);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the member behind a token", () => {
  const api = useServer();

  test("a change to the member's role reaches its next request, with unrelated writes cached around it", async () => {
    const t = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, t, { displayName: "Cached", permissions: ["space:create"] });
    const owner = api.as(t);
    const member = api.as(m);
    // Writes to other tables (spaces) leave the member cached; the role change must still show at once.
    expect((await member.get("/members?pageSize=1")).status).toBe(403);
    expect((await member.post("/spaces", { name: "Unrelated" })).status).toBe(201);
    expect((await member.get("/members?pageSize=1")).status).toBe(403);
    const list = (await owner.get("/roles")).body as { roles: { id: string; key: string }[] };
    const role = list.roles.find((r) => r.key.startsWith("fixture-role-")) as { id: string };
    expect((await owner.patch(`/roles/${role.id}`, { permissions: ["space:create", "member:read"] })).status).toBe(200);
    expect((await member.get("/members?pageSize=1")).status).toBe(200);
  });
});

describe("a content's access (src/modules/library/access.ts)", () => {
  const api = useServer();

  // Each check reads twice first: the first lookup on a connection caches nothing, so only the second fills the cache.
  test("a content's visibility and the caller's enrolment reach the next request", async () => {
    const { owner, spaceId, nodeId, participants } = await createContentSpace(api, { spaceName: "Cached space", participants: ["Pat"] });
    const [pat] = participants;
    const id = await createContent(api, owner, nodeId, "QUIZ", { title: "Cached quiz" });
    const read = () => api.as(pat).get(`/library/contents/${id}`);
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    // A write to other tables leaves it cached, and changes nothing.
    expect((await api.as(owner).post("/spaces", { name: "Unrelated" })).status).toBe(201);
    expect((await read()).status).toBe(200);
    expect((await api.as(owner).patch(`/library/contents/${id}`, { visibility: "PRIVATE" })).status).toBe(200);
    expect((await read()).status).toBe(404);
    expect((await api.as(pat).post(`/quizzes/${id}/my-attempts`)).status).toBe(404);
    expect((await api.as(owner).patch(`/library/contents/${id}`, { visibility: "SHARED" })).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect((await api.as(owner).del(`/spaces/${spaceId}/members/${pat.memberId}`)).status).toBe(204);
    expect((await read()).status).toBe(404);
  });

  test("a space role, a share, a title and the author's name reach the next request", async () => {
    const { owner, spaceId, nodeId, participants } = await createContentSpace(api, { spaceName: "Managed space", participants: ["Pam"] });
    const [pam] = participants;
    const id = await createContent(api, owner, nodeId, "QUIZ", { title: "Before" });
    const read = async () => (await api.as(pam).get(`/library/contents/${id}`)).body;
    // Reads only: a refused write rolls back, which would reload everything anyway.
    expect((await read()).canManage).toBe(false);
    expect((await read()).canManage).toBe(false);
    expect((await api.as(owner).patch(`/spaces/${spaceId}/members/${pam.memberId}`, { role: "ADMIN" })).status).toBe(200);
    expect((await read()).canManage).toBe(true);
    expect((await api.as(pam).patch(`/library/contents/${id}`, { title: "By Pam" })).status).toBe(200);
    expect(await read()).toMatchObject({ title: "By Pam", canManage: true });
    expect((await api.as(owner).patch(`/members/${owner.memberId}`, { displayName: "Renamed Owner" })).status).toBe(200);
    expect((await api.as(pam).get(`/library/contents/${id}`)).body.authorName).toBe("Renamed Owner");

    // Outside any space: visible to the members its shares name, and only while they do.
    const t = await createTenantFixture(api.server);
    const sam = await createMemberFixture(api.server, t, { displayName: "Sam" });
    const node = await api.as(t).post("/library/nodes", { title: "Own folder" });
    const own = await createContent(api, t, node.body.id, "QUIZ", { title: "Shared quiz" });
    const share = (ids: string[]) =>
      api
        .as(t)
        .put(`/library/contents/${own}/shares`, { shares: ids.map((targetId) => ({ targetType: "USER", targetId, level: "VIEW" })) });
    const seen = () => api.as(sam).get(`/library/contents/${own}`);
    expect((await seen()).status).toBe(404);
    expect((await seen()).status).toBe(404);
    expect((await share([sam.memberId])).status).toBe(200);
    expect((await seen()).status).toBe(200);
    expect((await seen()).status).toBe(200);
    expect((await share([])).status).toBe(200);
    expect((await seen()).status).toBe(404);
  });
});
