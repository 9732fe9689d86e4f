// Backup, restore and doctor, run on the compiled binary (docs/operating.md#backups). The binary is built in
// beforeAll when missing or older than the sources (test/helpers/binary.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { signUpVerified } from "./helpers/auth";
import { type Appliance, cli, ensureBinary, removeDir, serve, tempDir } from "./helpers/binary";

let root: string;
let a: Appliance;
let owner: Awaited<ReturnType<typeof signUpVerified>>;
let folder: string;
let fileId: string;
const acknowledgedBefore: string[] = [];
let writes = 0;

const dataA = () => join(root, "a");
const lastLine = (s: string) => s.trim().split("\n").at(-1) as string;

beforeAll(async () => {
  ensureBinary();
  root = tempDir();
  a = await serve(dataA());
  owner = await signUpVerified(a);
  // A stored file: its bytes must travel with the tenant file that references it.
  const req = await a.call("POST", "/api/v1/files", {
    token: owner.token,
    json: { fileName: "notes.txt", contentType: "text/plain", size: 5 },
  });
  fileId = req.body.fileId;
  const url = new URL(req.body.uploadUrl);
  const put = await a.call("PUT", `${url.pathname}${url.search}`, { body: "hello", headers: { "content-type": "text/plain" } });
  expect(put.status).toBe(200);

  // A writer loop runs through the whole backup; ids acknowledged before it started must all come back.
  let stop = false;
  const acknowledged: string[] = [];
  const writer = (async () => {
    while (!stop) {
      const res = await a.call("POST", "/api/v1/spaces", { token: owner.token, json: { name: `Space ${writes++}` } });
      if (res.status !== 201) throw new Error(`write failed: ${res.status} ${JSON.stringify(res.body)}`);
      acknowledged.push(res.body.id);
    }
  })();
  while (acknowledged.length < 20) await Bun.sleep(5);
  acknowledgedBefore.push(...acknowledged);
  const proc = Bun.spawn(
    [join(import.meta.dir, "..", "dist", "learnspace"), "backup", "--out", join(root, "backups"), "--data-dir", dataA()],
    {
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, LEARNSPACE_QUIET: "1" },
    },
  );
  const [code, out] = [await proc.exited, await new Response(proc.stdout).text()];
  stop = true;
  await writer;
  expect(code).toBe(0);
  folder = lastLine(out);
  // The writer really overlapped the backup.
  expect(acknowledged.length).toBeGreaterThan(acknowledgedBefore.length);
}, 60_000);

afterAll(async () => {
  await a?.stop();
  removeDir(root);
});

describe("learnspace backup", () => {
  test("prints the new folder last and writes a manifest with a digest of every copied file", () => {
    expect(folder).toMatch(/\/backups\/learnspace-\d{8}T\d{6}Z$/);
    const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ format: 1, version: expect.any(String), createdAt: expect.any(String) });
    expect(manifest.platform).toEqual({ bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(manifest.tenants).toHaveLength(1);
    expect(manifest.tenants[0]).toMatchObject({ key: owner.tenantKey, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(manifest.tenants[0].files).toEqual([{ id: fileId, bytes: 5, sha256: expect.any(String) }]);
  });

  test("--tenant copies one tenant and no platform file", () => {
    const r = cli(["backup", "--out", join(root, "one"), "--tenant", owner.tenantKey as string, "--data-dir", dataA()]);
    expect(r.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(lastLine(r.stdout), "manifest.json"), "utf8"));
    expect(manifest.platform).toBeNull();
    expect(manifest.tenants.map((t: { key: string }) => t.key)).toEqual([owner.tenantKey]);
    expect(existsSync(join(lastLine(r.stdout), "platform.sqlite"))).toBe(false);
  });

  test("refuses an unknown tenant key with a one-line reason", () => {
    const r = cli(["backup", "--out", join(root, "none"), "--tenant", "no-such-key", "--data-dir", dataA()]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('learnspace backup: no tenant with key "no-such-key"');
  });
});

describe("learnspace restore", () => {
  test("a server on the restored dir answers every read acknowledged before the backup exactly as the original", async () => {
    const dataB = join(root, "b");
    const r = cli(["restore", "--from", folder, "--data-dir", dataB]);
    expect(r.code).toBe(0);
    const b = await serve(dataB);
    try {
      for (const id of acknowledgedBefore) {
        const [x, y] = [
          await a.call("GET", `/api/v1/spaces/${id}`, { token: owner.token }),
          await b.call("GET", `/api/v1/spaces/${id}`, { token: owner.token }),
        ];
        expect(y.status).toBe(200);
        expect(y.body).toEqual(x.body);
      }
      const file = await b.call("GET", `/api/v1/files/${fileId}`, { token: owner.token });
      expect(file.body.status).toBe("ready");
      expect(readFileSync(join(dataB, "files", readdirSync(join(dataB, "files"))[0] as string, fileId), "utf8")).toBe("hello");
      // The owner signs in with the password on the restored server.
      const signIn = await b.call("POST", "/api/v1/auth/sign-in/password", { json: { identifier: owner.email, password: owner.password } });
      expect(signIn.status).toBe(200);
    } finally {
      await b.stop();
    }
  }, 60_000);

  test("a --tenant backup restores into an empty dir as a data dir holding that tenant, stored files included", () => {
    const one = cli(["backup", "--out", join(root, "one-only"), "--tenant", owner.tenantKey as string, "--data-dir", dataA()]);
    const target = join(root, "one-restored");
    expect(cli(["restore", "--from", lastLine(one.stdout), "--data-dir", target]).code).toBe(0);
    expect(cli(["tenant", "list", "--data-dir", target]).stdout).toContain(`${owner.tenantKey}\t`);
    // doctor checks the directory entries and that the file record has its bytes.
    const doctor = cli(["doctor", "--data-dir", target]);
    expect(doctor.stdout).not.toContain("problem:");
    expect(doctor.code).toBe(0);
  });

  test("an exported tenant carries its stored files to the importing appliance", () => {
    const archive = join(root, "with-files.tar.gz");
    expect(cli(["tenant", "export", owner.tenantKey as string, "--out", archive, "--data-dir", dataA()]).code).toBe(0);
    const target = join(root, "imported");
    expect(cli(["tenant", "import", archive, "--data-dir", target]).code).toBe(0);
    const tenantDir = readdirSync(join(target, "files"))[0] as string;
    expect(readFileSync(join(target, "files", tenantDir, fileId), "utf8")).toBe("hello");
    expect(cli(["doctor", "--data-dir", target]).code).toBe(0);
  });

  test("refuses a non-empty data dir without --force and changes nothing in it", () => {
    const target = join(root, "busy");
    cli(["migrate", "--data-dir", target]);
    writeFileSync(join(target, "keep.txt"), "mine");
    const r = cli(["restore", "--from", folder, "--data-dir", target]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--force");
    expect(readdirSync(join(target, "tenants"))).toEqual([]);
    expect(readFileSync(join(target, "keep.txt"), "utf8")).toBe("mine");
  });

  test("--force moves the old contents aside, then restores", () => {
    const target = join(root, "forced");
    cli(["migrate", "--data-dir", target]);
    writeFileSync(join(target, "keep.txt"), "mine");
    const r = cli(["restore", "--from", folder, "--data-dir", target, "--force"]);
    expect(r.code).toBe(0);
    const aside = readdirSync(root).find((n) => n.startsWith("forced.before-restore-")) as string;
    expect(readFileSync(join(root, aside, "keep.txt"), "utf8")).toBe("mine");
    expect(readdirSync(join(target, "tenants"))).toHaveLength(1);
  });

  test("a corrupted backup is refused before anything is written", () => {
    const broken = join(root, "broken");
    cli(["backup", "--out", broken, "--data-dir", dataA()]);
    const copy = join(broken, readdirSync(broken)[0] as string);
    const tenantFile = join(copy, "tenants", readdirSync(join(copy, "tenants"))[0] as string);
    const bytes = readFileSync(tenantFile);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
    writeFileSync(tenantFile, bytes);
    const target = join(root, "never");
    const r = cli(["restore", "--from", copy, "--data-dir", target]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("sha256 does not match");
    expect(existsSync(target)).toBe(false);
    // Forced over an existing dir: still nothing moved or written.
    const existing = join(root, "existing");
    cli(["migrate", "--data-dir", existing]);
    const before = readdirSync(existing).sort();
    expect(cli(["restore", "--from", copy, "--data-dir", existing, "--force"]).code).toBe(1);
    expect(readdirSync(existing).sort()).toEqual(before);
    expect(readdirSync(root).some((n) => n.startsWith("existing.before-restore-"))).toBe(false);
  });

  test("a backup whose manifest matches a broken SQLite file is refused by integrity_check", () => {
    const out = join(root, "lying");
    cli(["backup", "--out", out, "--data-dir", dataA()]);
    const copy = join(out, readdirSync(out)[0] as string);
    const manifestPath = join(copy, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    const tenantFile = join(copy, "tenants", `${manifest.tenants[0].id}.sqlite`);
    const bytes = readFileSync(tenantFile);
    // Garbage over the second page: the digest is made to match, SQLite's own check must catch it.
    bytes.fill(0x5a, 4096, 8192);
    writeFileSync(tenantFile, bytes);
    manifest.tenants[0].sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const target = join(root, "never2");
    const r = cli(["restore", "--from", copy, "--data-dir", target]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`tenant ${owner.tenantKey}`);
    expect(existsSync(target)).toBe(false);
  });
});

describe("learnspace doctor", () => {
  test("passes on a healthy dir and fails (exit 1) on a damaged one, naming the problem", async () => {
    const dir = join(root, "doc");
    expect(cli(["restore", "--from", folder, "--data-dir", dir]).code).toBe(0);
    const ok = cli(["doctor", "--data-dir", dir]);
    expect(ok.stdout + ok.stderr).not.toContain("problem:");
    expect(ok.code).toBe(0);
    const tenantId = (readdirSync(join(dir, "tenants"))[0] as string).replace(".sqlite", "");
    // A stored file lost and one without a record.
    removeDir(join(dir, "files", tenantId, fileId));
    writeFileSync(join(dir, "files", tenantId, crypto.randomUUID()), "stray");
    const bad = cli(["doctor", "--data-dir", dir]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`file record ${fileId} has no stored bytes`);
    expect(bad.stdout).toContain("has no record");
  });

  test("fails on a tenant file with damaged pages", () => {
    const dir = join(root, "doc2");
    expect(cli(["restore", "--from", folder, "--data-dir", dir]).code).toBe(0);
    const file = join(dir, "tenants", readdirSync(join(dir, "tenants"))[0] as string);
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 4096, 8192);
    writeFileSync(file, bytes);
    const r = cli(["doctor", "--data-dir", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`problem: tenant ${owner.tenantKey}:`);
  });
});
