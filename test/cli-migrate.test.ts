import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { startServer } from "../src/server";
import { createTenantFixture } from "./helpers/server";

test("migrate names each bad tenant file, migrates the others and exits 1", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "learnspace-migrate-"));
  try {
    const config = loadConfig([], { LEARNSPACE_QUIET: "1" }, { port: 0, dataDir });
    const server = Object.assign(startServer(config), { dataDir });
    const a = await createTenantFixture(server, { key: "bad-a" });
    const good = await createTenantFixture(server, { key: "good" });
    const b = await createTenantFixture(server, { key: "bad-b" });
    const files = [a, b].map((t) => server.rt.tenants.fileOf(t.tenantId));
    await server.stop();
    for (const f of files) {
      for (const suffix of ["-wal", "-shm"]) rmSync(f + suffix, { force: true });
      writeFileSync(f, "this is not a database, it is a corrupt file ".repeat(200));
    }
    const r = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "src", "main.ts"), "migrate", "--data-dir", dataDir], {
      env: { PATH: process.env.PATH ?? "" },
    });
    const stderr = r.stderr.toString();
    expect(r.exitCode).toBe(1);
    expect(stderr).toContain(`tenant bad-a: ${files[0]}`);
    expect(stderr).toContain(`tenant bad-b: ${files[1]}`);
    expect(stderr).not.toContain("    at ");
    expect(r.stdout.toString()).toContain("1 tenant files migrated, 1 directory entries written");
    expect(good.tenantKey).toBe("good");
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
