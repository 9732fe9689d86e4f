import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { settled, setWalSync } from "../src/platform/db/group-commit";
import { createTenantFixture, useServer } from "./helpers/server";

// The group commit's fsync off the event loop (docs/rules/performance.md#durability).
const api = useServer();

/**
 * A WAL sync held until released, and a promise of its first call (the fixture's own commits done first).
 * `only`: hold that file's syncs alone, the others' pass (a commit of another file meanwhile, the platform
 * file's say, would otherwise hold every answer that waits for it).
 */
async function holdSyncs(only?: string) {
  await settled();
  const files: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  let started!: () => void;
  const first = new Promise<void>((r) => {
    started = r;
  });
  setWalSync(async (sqlite) => {
    if (only !== undefined && sqlite.filename !== only) return;
    files.push(sqlite.filename);
    started();
    await held;
  });
  return { files, release, first };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe("group commit: the WAL's fsync", () => {
  afterEach(() => setWalSync(null));

  test("runs after the COMMIT, off the event loop, and the write's answer (and a read's after it) waits for it", async () => {
    const owner = await createTenantFixture(api.server);
    const sync = await holdSyncs();
    let answered = false;
    const created = api
      .as(owner)
      .post("/spaces", { name: "Held by its fsync" })
      .then((r) => {
        answered = true;
        return r;
      });
    await sync.first;
    const file = api.server.rt.tenants.fileOf(owner.tenantId);
    expect(sync.files).toContain(file);
    // Committed (another connection reads it) while its fsync runs: the event loop went on meanwhile.
    const other = new Database(file, { readonly: true });
    try {
      expect(other.query("SELECT count(*) AS n FROM spaces WHERE name = 'Held by its fsync'").get()).toEqual({ n: 1 });
    } finally {
      other.close();
    }
    // A read that could see the write is not answered before the write is durable either.
    let read = false;
    const list = api
      .as(owner)
      .get("/spaces")
      .then((r) => {
        read = true;
        return r;
      });
    await turns(20);
    expect({ answered, read }).toEqual({ answered: false, read: false });
    sync.release();
    expect((await created).status).toBe(201);
    const spaces = await list;
    expect(spaces.status).toBe(200);
    expect(JSON.stringify(spaces.body)).toContain("Held by its fsync");
  });

  test("another school's read does not wait for this school's fsync; this school's read does", async () => {
    const owner = await createTenantFixture(api.server);
    const other = await createTenantFixture(api.server);
    const sync = await holdSyncs(api.server.rt.tenants.fileOf(owner.tenantId));
    const created = api.as(owner).post("/spaces", { name: "Held by its fsync" });
    await sync.first;
    let sameRead = false;
    const same = api
      .as(owner)
      .get("/spaces")
      .then((r) => {
        sameRead = true;
        return r;
      });
    try {
      // Answered while the owner's fsync is held (waiting for it, it would never answer and the test
      // time out): its request touched no file with a commit pending.
      expect((await api.as(other).get("/spaces")).status).toBe(200);
      expect(sameRead).toBe(false);
    } finally {
      sync.release();
    }
    expect((await created).status).toBe(201);
    expect((await same).status).toBe(200);
  });

  test("a failed fsync fails the write's answer (500), as a failed COMMIT did", async () => {
    const owner = await createTenantFixture(api.server);
    await settled();
    setWalSync(async () => {
      throw new Error("EIO: the disk failed");
    });
    const res = await api.as(owner).post("/spaces", { name: "Not durable" });
    expect(res.status).toBe(500);
    setWalSync(null);
    expect((await api.as(owner).post("/spaces", { name: "Durable" })).status).toBe(201);
  });
});
