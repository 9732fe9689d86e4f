import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { accounts, pendingSignUps } from "../src/modules/auth/platform-tables";
import { insertMember } from "../src/modules/members/create";
import { roleByKey } from "../src/modules/roles/builtin";
import { directoryOf } from "../src/platform/db/registry";
import { write } from "../src/platform/db/types";
import { startServer } from "../src/server";
import { createTenantFixture } from "./helpers/server";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A data dir where a server was killed (SIGKILL) in the middle of signing `email` up with tenantKey "halfmade". */
async function killedDuringSignUp(point: string, email: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "learnspace-crash-"));
  dirs.push(dataDir);
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "helpers", "crash-sign-up.ts"), dataDir, point, email], {
    stderr: "pipe",
  });
  expect(await child.exited).not.toBe(3);
  expect(child.signalCode).toBe("SIGKILL");
  return dataDir;
}

const start = (dataDir: string) =>
  startServer(loadConfig([], { LEARNSPACE_QUIET: "1", LEARNSPACE_IP_RATE_LIMIT: "0" }, { port: 0, dataDir, devCodes: true }));

async function post(url: string, json: unknown) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) });
  return { status: res.status, body: (await res.json()) as any };
}

describe("a sign-up cut by kill -9 is rolled back at the next start", () => {
  for (const point of ["before-tenant-file", "after-tenant-file"]) {
    test(`killed ${point}: the e-mail and tenantKey sign up again, and no file is left behind`, async () => {
      const email = `half-${point}@example.com`;
      const dataDir = await killedDuringSignUp(point, email);
      const server = start(dataDir);
      try {
        expect(readdirSync(join(dataDir, "tenants"))).toEqual([]);
        const signIn = await post(`${server.url}/api/v1/auth/sign-in/password`, { identifier: email, password: "Passw0rd!" });
        expect(signIn.status).toBe(401);
        const up = await post(`${server.url}/api/v1/auth/sign-up`, {
          email,
          password: "Passw0rd!",
          displayName: "Whole",
          tenantKey: "halfmade",
          tenantName: "Whole",
        });
        expect(up.status).toBe(201);
        const verified = await post(`${server.url}/api/v1/auth/sign-up/verify`, { email, code: up.body.devCode });
        expect(verified.status).toBe(200);
        expect(verified.body.tenants.map((t: { key?: string; tenantKey?: string }) => t.key ?? t.tenantKey)).toEqual(["halfmade"]);
        // One tenant file (with its WAL side files), nothing left of the killed attempt.
        expect(readdirSync(join(dataDir, "tenants")).filter((f) => f.endsWith(".sqlite") || f.endsWith("-journal"))).toHaveLength(1);
      } finally {
        await server.stop();
      }
    });
  }
});

describe("after a crash the directory is rebuilt from the tenant files", () => {
  test("a member committed to its tenant file but not yet to the directory is found after the restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "learnspace-crash-dir-"));
    dirs.push(dataDir);
    const first = start(dataDir);
    const owner = await createTenantFixture(Object.assign(first, { dataDir }));
    // What a kill between a member's two commits leaves: the member in the tenant file only.
    const email = "late-index@example.com";
    first.rt.tenants.use(owner.tenantId, (h) => {
      const role = roleByKey(h.db, "member");
      insertMember(h.db, { email, displayName: "Late", passwordHash: null, roleId: role?.id as string }, Date.now());
    });
    const lookup = (s: ReturnType<typeof start>) => directoryOf(s.rt.platform.db, email).map((d) => d.tenantId);
    expect(lookup(first)).toEqual([]);
    await first.stop();
    // The killed process never removed its lock.
    writeFileSync(join(dataDir, "server.lock"), "999999999\n");
    const second = start(dataDir);
    try {
      expect(lookup(second)).toEqual([owner.tenantId]);
    } finally {
      await second.stop();
    }
  });
});

describe("a half-made sign-up is rolled back by the next sign-up of its e-mail", () => {
  test("an account left with its pending marker does not block the e-mail or the tenantKey", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "learnspace-crash-next-"));
    dirs.push(dataDir);
    const server = start(dataDir);
    try {
      // What a crash between the account's commit and the tenant's leaves, met by a running server.
      const tenantId = crypto.randomUUID();
      const accountId = Bun.randomUUIDv7();
      const email = "next-attempt@example.com";
      write(server.rt.platform.db, (tx) => {
        tx.insert(accounts)
          .values({ id: accountId, email, displayName: "Half", signUpTenantId: tenantId, createdAt: 1, updatedAt: 1 })
          .run();
        tx.insert(pendingSignUps).values({ tenantId, accountId, createdAt: 1 }).run();
      });
      writeFileSync(server.rt.tenants.fileOf(tenantId), "");
      writeFileSync(`${server.rt.tenants.fileOf(tenantId)}-journal`, "");
      const up = await post(`${server.url}/api/v1/auth/sign-up`, {
        email,
        password: "Passw0rd!",
        displayName: "Whole",
        tenantKey: "nextkey",
      });
      expect(up.status).toBe(201);
      expect(readdirSync(join(dataDir, "tenants")).some((f) => f.startsWith(tenantId))).toBe(false);
    } finally {
      await server.stop();
    }
  });
});
