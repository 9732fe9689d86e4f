// Tenant export/import/list/delete and version, run on the compiled binary (docs/operating.md#moving-or-removing-one-school).
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { signUpVerified } from "./helpers/auth";
import { type Appliance, cli, ensureBinary, removeDir, serve, tempDir } from "./helpers/binary";

let root: string;
let a: Appliance;
let owner: Awaited<ReturnType<typeof signUpVerified>>;
let archive: string;
let spaceId: string;
const dataA = () => join(root, "a");
const dataB = () => join(root, "b");

beforeAll(async () => {
  ensureBinary();
  root = tempDir();
  a = await serve(dataA());
  owner = await signUpVerified(a);
  const space = await a.call("POST", "/api/v1/spaces", { token: owner.token, json: { name: "Physics" } });
  spaceId = space.body.id;
  archive = join(root, "export", `${owner.tenantKey}.tar.gz`);
}, 60_000);

afterAll(async () => {
  await a?.stop();
  removeDir(root);
});

const signIn = (app: { call: Appliance["call"] }, tenantKey?: string) =>
  app.call("POST", "/api/v1/auth/sign-in/password", {
    json: { identifier: owner.email, password: owner.password, ...(tenantKey ? { tenantKey } : {}) },
  });

describe("learnspace tenant export / import", () => {
  test("an exported tenant imports into a second appliance, where its member signs in with the password", async () => {
    const out = cli(["tenant", "export", owner.tenantKey as string, "--out", archive, "--data-dir", dataA()]);
    expect(out.code).toBe(0);
    // A real gzip'd tar, readable by the system's tar.
    const listing = Bun.spawnSync(["tar", "tzf", archive]).stdout.toString();
    expect(listing).toContain("manifest.json");
    expect(listing).toMatch(/tenants\/[0-9a-f-]{36}\.sqlite/);

    expect(cli(["migrate", "--data-dir", dataB()]).code).toBe(0);
    const imported = cli(["tenant", "import", archive, "--data-dir", dataB()]);
    expect(imported.code).toBe(0);
    const b = await serve(dataB());
    try {
      const res = await signIn(b);
      expect(res.status).toBe(200);
      const space = await b.call("GET", `/api/v1/spaces/${spaceId}`, { token: res.body.accessToken });
      expect(space.status).toBe(200);
      expect(space.body.name).toBe("Physics");
      const tenant = await b.call("GET", "/api/v1/tenant", { token: res.body.accessToken });
      expect(tenant.body.key).toBe(owner.tenantKey);
    } finally {
      await b.stop();
    }
  }, 60_000);

  test("an existing key is refused and nothing is added; --key NEWKEY imports it beside", async () => {
    const before = readdirSync(join(dataB(), "tenants")).sort();
    const again = cli(["tenant", "import", archive, "--data-dir", dataB()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`a tenant with key "${owner.tenantKey}" exists here`);
    expect(readdirSync(join(dataB(), "tenants")).sort()).toEqual(before);

    const copy = cli(["tenant", "import", archive, "--key", "copy-of-school", "--data-dir", dataB()]);
    expect(copy.code).toBe(0);
    expect(readdirSync(join(dataB(), "tenants"))).toHaveLength(before.length + 1);
    const b = await serve(dataB());
    try {
      const res = await signIn(b, "copy-of-school");
      expect(res.status).toBe(200);
      const tenant = await b.call("GET", "/api/v1/tenant", { token: res.body.accessToken });
      expect(tenant.body.key).toBe("copy-of-school");
    } finally {
      await b.stop();
    }
    expect(cli(["doctor", "--data-dir", dataB()]).code).toBe(0);
  }, 60_000);

  test("a damaged archive is refused", async () => {
    const bad = join(root, "bad.tar.gz");
    await Bun.write(bad, "not an archive");
    const r = cli(["tenant", "import", bad, "--data-dir", dataB()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith("learnspace tenant:");
  });
});

describe("learnspace tenant list / delete", () => {
  test("list shows key, name, members and bytes", () => {
    const r = cli(["tenant", "list", "--data-dir", dataB()]);
    expect(r.code).toBe(0);
    const row = r.stdout.split("\n").find((l) => l.startsWith(`${owner.tenantKey}\t`)) as string;
    const [key, name, members, bytes] = row.split("\t");
    expect([key, name, members]).toEqual([owner.tenantKey, `Tenant ${owner.tenantKey}`, "1"]);
    expect(Number(bytes)).toBeGreaterThan(0);
  });

  test("delete without --yes removes nothing", async () => {
    const files = readdirSync(join(dataB(), "tenants")).sort();
    const r = cli(["tenant", "delete", "copy-of-school", "--data-dir", dataB()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--yes");
    expect(readdirSync(join(dataB(), "tenants")).sort()).toEqual(files);
    expect(cli(["tenant", "list", "--data-dir", dataB()]).stdout).toContain("copy-of-school\t");
    expect(cli(["doctor", "--data-dir", dataB()]).code).toBe(0);
  });

  test("delete --yes removes the file, directory entries and sessions; the key is free again", async () => {
    const b = await serve(dataB());
    const res = await signIn(b, "copy-of-school");
    expect(res.status).toBe(200);
    await b.stop();
    const platform = new Database(join(dataB(), "platform.sqlite"), { readonly: true });
    const tenantId = (platform.query("SELECT id FROM tenants WHERE key = 'copy-of-school'").get() as { id: string }).id;
    platform.close();
    const r = cli(["tenant", "delete", "copy-of-school", "--yes", "--data-dir", dataB()]);
    expect(r.code).toBe(0);
    expect(existsSync(join(dataB(), "tenants", `${tenantId}.sqlite`))).toBe(false);
    const after = new Database(join(dataB(), "platform.sqlite"), { readonly: true });
    expect(after.query("SELECT count(*) AS n FROM directory WHERE tenant_id = ?").get(tenantId)).toEqual({ n: 0 });
    expect(after.query("SELECT count(*) AS n FROM sessions WHERE tenant_id = ?").get(tenantId)).toEqual({ n: 0 });
    after.close();
    expect(cli(["tenant", "list", "--data-dir", dataB()]).stdout).not.toContain("copy-of-school");
    expect(cli(["doctor", "--data-dir", dataB()]).code).toBe(0);
    // The other tenant is untouched.
    const b2 = await serve(dataB());
    try {
      expect((await signIn(b2, owner.tenantKey)).status).toBe(200);
      expect((await signIn(b2, "copy-of-school")).status).toBe(401);
    } finally {
      await b2.stop();
    }
  }, 60_000);
});

describe("learnspace help", () => {
  test("lists every operating command", () => {
    const r = cli(["help"]);
    expect(r.code).toBe(0);
    for (const c of [
      "backup --out",
      "restore --from",
      "doctor",
      "version",
      "tenant list",
      "tenant export",
      "tenant import",
      "tenant delete",
    ]) {
      expect(r.stdout).toContain(`learnspace ${c}`);
    }
  });
});

describe("learnspace version", () => {
  test("names the binary's version and the schema versions it knows", () => {
    const r = cli(["version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^learnspace \d+\.\d+\.\d+\nplatform schema \S+ \(\d+, \d+ migrations\)\ntenant schema \S+ \(\d+, \d+ migrations\)\n$/,
    );
  });

  test("a data dir migrated by a newer binary is refused: exit 1 naming both versions", () => {
    const dir = join(root, "newer");
    expect(cli(["migrate", "--data-dir", dir]).code).toBe(0);
    const db = new Database(join(dir, "platform.sqlite"));
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 9999999999999)");
    db.close();
    for (const command of [["serve", "--port", "0"], ["tenant", "list"], ["migrate"]]) {
      const r = cli([...command, "--data-dir", dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/newer learnspace \(schema 9999999999999\); this binary, learnspace \d+\.\d+\.\d+, knows schema \d+/);
    }
    const doctor = cli(["doctor", "--data-dir", dir]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain("platform.sqlite: migrated by a newer learnspace");
  });
});
