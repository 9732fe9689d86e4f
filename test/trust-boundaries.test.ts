// Trust boundaries of the HTTP surface and the data dir (docs/rules/trust.md): JSON bodies only,
// /metrics behind a proxy, file modes, newer data dirs, CSV formulas, import bombs.
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { backup } from "../src/cli/backup";
import { reindex } from "../src/cli/reindex";
import { restore } from "../src/cli/restore";
import { tenantCommand } from "../src/cli/tenant";
import { loadConfig } from "../src/config";
import { gradebookCsv } from "../src/modules/gradebook/csv";
import { csvCell } from "../src/platform/http/csv";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

const temp: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "learnspace-trust-"));
  temp.push(d);
  return d;
};
afterAll(() => {
  for (const d of temp) rmSync(d, { recursive: true, force: true });
});
const quiet = (dataDir: string) => loadConfig([], { LEARNSPACE_QUIET: "1" }, { dataDir });

/** Every path under `dir` whose mode is not 0600 (files) or 0700 (folders). */
function looseModes(dir: string): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    const st = statSync(p);
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(join(p, n));
  };
  visit(dir);
  return out;
}

describe("JSON bodies only (docs/rules/trust.md#json-bodies-only)", () => {
  const api = useServer();

  test("a form-body sign-in is 415 UNSUPPORTED_MEDIA_TYPE problem+json (no login CSRF)", async () => {
    const t = await createTenantFixture(api.server);
    const res = await api.call("POST", "/api/v1/auth/sign-in/password", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ tenantKey: t.tenantKey, identifier: t.email, password: t.password }).toString(),
    });
    expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const json = await api.call("POST", "/api/v1/auth/sign-in/password", {
      json: { tenantKey: t.tenantKey, identifier: t.email, password: t.password },
    });
    expect(json.status).toBe(200);
  });

  test("a text/plain or multipart body to a JSON operation is 415, signed in or not", async () => {
    const t = await createTenantFixture(api.server);
    const text = await api.call("POST", "/api/v1/spaces", {
      token: t.token,
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ name: "Physics" }),
    });
    expectProblem(text, 415, "UNSUPPORTED_MEDIA_TYPE");
    const form = new FormData();
    form.set("name", "Physics");
    const multipart = await api.call("POST", "/api/v1/spaces", { token: t.token, body: form as unknown as Blob });
    expectProblem(multipart, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect((await api.as(t).post("/spaces", { name: "Physics" })).status).toBe(201);
  });

  test("the SAML ACS stays the one form endpoint", async () => {
    const res = await api.call("POST", "/api/v1/public/tenants/no-such-tenant/saml/acs", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ SAMLResponse: "eA==", RelayState: "x" }).toString(),
    });
    expectProblem(res, 404, "NOT_FOUND");
  });

  test("the RFC 8058 one-click unsubscribe takes the mail client's form body", async () => {
    const res = await api.call("POST", "/api/v1/public/notification-unsubscribe?token=bad", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(400);
    expect(res.body.code).not.toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("/metrics behind a reverse proxy (docs/rules/trust.md#metrics)", () => {
  const api = useServer({}, { LEARNSPACE_TRUSTED_PROXIES: "127.0.0.1,::1" });

  test("a request relayed by the proxy on the same host is not loopback: 404", async () => {
    expectProblem(await api.call("GET", "/metrics", { headers: { "x-forwarded-for": "203.0.113.9" } }), 404, "NOT_FOUND");
    // The proxy relays without naming the client: still not the server's own loopback.
    expectProblem(await api.call("GET", "/metrics"), 404, "NOT_FOUND");
  });
});

describe("/metrics without a proxy", () => {
  const api = useServer();
  test("a loopback client still gets it", async () => {
    expect((await api.call("GET", "/metrics")).status).toBe(200);
  });
});

describe("files 0600, folders 0700 (docs/rules/trust.md#files-on-disk)", () => {
  // What a process gets by default: the server itself must not depend on the operator's umask.
  process.umask(0o022);
  const api = useServer();

  test("after start: the platform file, its WAL and SHM, tenant files, the secret, every folder", async () => {
    const t = await createTenantFixture(api.server);
    await api.as(t).post("/spaces", { name: "Modes" });
    const dir = api.server.dataDir;
    expect(existsSync(join(dir, "platform.sqlite-wal"))).toBe(true);
    expect(readdirSync(join(dir, "tenants")).some((n) => n.endsWith("-wal"))).toBe(true);
    expect(looseModes(dir)).toEqual([]);
  });

  test("after migrate, restore and import, also of files an older binary left 0644", async () => {
    const dir = api.server.dataDir;
    const key = (await createTenantFixture(api.server)).tenantKey;
    // A round trip: the group commit holding the fixture's registry row is on disk before the backup reads it.
    await api.call("GET", "/healthz");
    const out = tempDir();
    const made = await backup(quiet(dir), { out });
    for (const n of readdirSync(join(made.folder, "tenants"))) chmodSync(join(made.folder, "tenants", n), 0o644);
    // An older data dir: world-readable files in 0755 folders.
    const old = tempDir();
    process.umask(0o022);
    const restored = join(old, "data");
    await restore(quiet(restored), { from: made.folder, force: false });
    expect(looseModes(restored)).toEqual([]);

    for (const n of readdirSync(join(restored, "tenants"))) chmodSync(join(restored, "tenants", n), 0o644);
    chmodSync(join(restored, "tenants"), 0o755);
    chmodSync(restored, 0o755);
    process.umask(0o022);
    reindex(quiet(restored));
    expect(looseModes(restored)).toEqual([]);

    // Exported from the restored copy: no server holds it.
    const archive = join(out, "t.tar.gz");
    expect(await tenantCommand(quiet(restored), ["export", key, "--out", archive])).toBe(0);
    process.umask(0o022);
    const target = join(old, "imported");
    expect(await tenantCommand(quiet(target), ["import", archive])).toBe(0);
    expect(looseModes(target)).toEqual([]);
  }, 30_000);
});

describe("backup refuses a data dir migrated by a newer binary (docs/rules/trust.md#newer-data-dirs)", () => {
  const api = useServer();
  test("it exits with a reason naming both schema versions, and writes nothing", async () => {
    await createTenantFixture(api.server);
    const dir = tempDir();
    const made = await backup(quiet(api.server.dataDir), { out: join(dir, "first") });
    const data = join(dir, "data");
    await restore(quiet(data), { from: made.folder, force: false });
    const db = new Database(join(data, "platform.sqlite"));
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)");
    db.close();
    const out = join(dir, "second");
    await expect(backup(quiet(data), { out })).rejects.toThrow(/newer learnspace \(schema 99999999999999\).*knows schema \d+/);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });
});

describe("CSV formula guard (docs/rules/trust.md#csv)", () => {
  test("a formula at the start of a field and after ; or , inside it is neutralised", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("x;=cmd|' /C calc'!A0")).toBe(`"x;'=cmd|' /C calc'!A0"`);
    expect(csvCell("a, -2+3")).toBe(`"a, '-2+3"`);
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=x")).toBe("'\t=x");
    expect(csvCell("Kim; Lee")).toBe(`"Kim; Lee"`);
    expect(csvCell("plain")).toBe("plain");
  });

  test("the gradebook CSV uses it in every text field", () => {
    const csv = gradebookCsv({
      columns: [{ title: "Essay;+HYPERLINK(x)" }],
      rows: [{ displayName: "x;=cmd|' /C calc'!A0", userId: "u,@x", cells: [{ score: 3 }], total: null }],
    } as never);
    expect(csv).toContain(`"Essay;'+HYPERLINK(x)"`);
    expect(csv).toContain(`"x;'=cmd|' /C calc'!A0","u,'@x",3`);
  });
});

describe("tenant import bomb (docs/rules/trust.md#bombs)", () => {
  test("an entry larger than the manifest declares is refused before it fills the disk", async () => {
    const dir = tempDir();
    // The manifest declares a 100 KB tenant file; the archive holds 200 MiB of zeros (sparse: ~200 KB compressed).
    const stage = join(dir, "stage");
    const id = crypto.randomUUID();
    mkdirSync(join(stage, "tenants"), { recursive: true });
    const tenant = { id, key: "bomb", bytes: 100 * 1024, sha256: "0".repeat(64), files: [] };
    const manifest = { format: 1, version: "0", createdAt: new Date().toISOString(), platform: null, tenants: [tenant] };
    writeFileSync(join(stage, "manifest.json"), JSON.stringify(manifest));
    const sqlite = join(stage, "tenants", `${id}.sqlite`);
    writeFileSync(sqlite, "");
    truncateSync(sqlite, 200 * 1024 * 1024);
    const bomb = join(dir, "bomb.tar.gz");
    await tar.c({ gzip: true, file: bomb, cwd: stage, portable: true }, ["manifest.json", "tenants"]);
    expect(statSync(bomb).size).toBeLessThan(2 * 1024 * 1024);

    const target = join(dir, "target");
    mkdirSync(target);
    let peak = 0;
    const du = (p: string): number =>
      statSync(p).isDirectory() ? readdirSync(p).reduce((n, c) => n + du(join(p, c)), 0) : statSync(p).blocks * 512;
    const watch = setInterval(() => {
      try {
        peak = Math.max(peak, du(target));
      } catch {}
    }, 5);
    try {
      await expect(tenantCommand(quiet(target), ["import", bomb])).rejects.toThrow(/manifest declares/);
    } finally {
      clearInterval(watch);
    }
    expect(peak).toBeLessThan(32 * 1024 * 1024);
    expect(readdirSync(target).filter((n) => n.startsWith(".import-"))).toEqual([]);
  }, 60_000);
});
