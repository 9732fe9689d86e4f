import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { findUsableJoinCode } from "../src/modules/join-codes/lookup";
import { tenantJoinCodes } from "../src/modules/join-codes/tables";
import type { Tenant } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const s = useServer();
let owner: Tenant;
let other: Tenant;
let noPerm: { token: string };

beforeAll(async () => {
  owner = await createTenantFixture(s.server);
  other = await createTenantFixture(s.server);
  noPerm = await createMemberFixture(s.server, owner);
});

const DAY = 24 * 60 * 60 * 1000;
const create = (body: unknown, token = owner.token) => s.call("POST", "/api/v1/join-codes", { json: body, token });
const list = async (token = owner.token) => (await s.call("GET", "/api/v1/join-codes", { token })).body.joinCodes as any[];
const inTenant = <T>(tenantId: string, fn: (db: any) => T) => s.server.rt.tenants.use(tenantId, (h) => fn(h.db));

describe("POST /api/v1/join-codes — createTenantJoinCode", () => {
  test("creates an enabled code without expiry; link carries the code", async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ enabled: true, expiresAt: null });
    expect(res.body.code).toMatch(/^[A-Z0-9]{10}$/);
    expect(res.body.link).toBe(`${s.server.rt.config.publicUrl}/t/${owner.tenantKey}/join?code=${res.body.code}`);
    expect(Date.parse(res.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await list()).find((c) => c.id === res.body.id)).toEqual(res.body);
  });

  test("a body-less request creates a code without expiry", async () => {
    const res = await s.call("POST", "/api/v1/join-codes", { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBeNull();
  });

  test("expiresInDays sets expiresAt; bounds 1 and 3650 are accepted", async () => {
    const before = Date.now();
    const one = await create({ expiresInDays: 1 });
    expect(one.status).toBe(201);
    const at = Date.parse(one.body.expiresAt);
    expect(at).toBeGreaterThanOrEqual(before + DAY);
    expect(at).toBeLessThanOrEqual(Date.now() + DAY);
    expect((await create({ expiresInDays: 3650 })).status).toBe(201);
  });

  test.each([[{ expiresInDays: 0 }], [{ expiresInDays: 3651 }], [{ expiresInDays: 1.5 }], [{ expiresInDays: null }]])(
    "returns 400 for %j",
    async (body) => {
      const b = expectProblem(await create(body), 400, "VALIDATION_FAILED");
      expect(b.errors[0].field).toBe("expiresInDays");
    },
  );

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("POST", "/api/v1/join-codes", { json: {} }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await create({}, noPerm.token), 403, "FORBIDDEN");
  });
});

describe("PATCH /api/v1/join-codes/{joinCodeId} — updateTenantJoinCode", () => {
  const patch = (id: string, body: unknown, token = owner.token) => s.call("PATCH", `/api/v1/join-codes/${id}`, { json: body, token });

  test("disables and enables a code; the list shows it", async () => {
    const code = (await create({})).body;
    const off = await patch(code.id, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...code, enabled: false });
    expect((await list()).find((c) => c.id === code.id).enabled).toBe(false);
    expect((await patch(code.id, { enabled: true })).body.enabled).toBe(true);
  });

  test.each([[{}], [{ enabled: "false" }], [{ enabled: null }]])("returns 400 for %j", async (body) => {
    const code = (await create({})).body;
    const b = expectProblem(await patch(code.id, body), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toBe("enabled");
  });

  test("returns 404 for an unknown id and for a code of another tenant", async () => {
    expectProblem(await patch("nope", { enabled: false }), 404, "NOT_FOUND");
    const theirs = (await create({}, other.token)).body;
    expectProblem(await patch(theirs.id, { enabled: false }), 404, "NOT_FOUND");
    expect((await list(other.token)).find((c) => c.id === theirs.id).enabled).toBe(true);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("PATCH", "/api/v1/join-codes/x", { json: { enabled: false } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    const code = (await create({})).body;
    expectProblem(await patch(code.id, { enabled: false }, noPerm.token), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/join-codes — listTenantJoinCodes", () => {
  test("lists newest first, disabled and expired included, only the caller's tenant", async () => {
    const t = await createTenantFixture(s.server);
    const a = (await create({}, t.token)).body;
    const b = (await create({ expiresInDays: 1 }, t.token)).body;
    await s.call("PATCH", `/api/v1/join-codes/${b.id}`, { json: { enabled: false }, token: t.token });
    const c = (await create({}, t.token)).body;
    inTenant(t.tenantId, (db) =>
      db
        .update(tenantJoinCodes)
        .set({ expiresAt: Date.now() - 1 })
        .where(eq(tenantJoinCodes.id, c.id))
        .run(),
    );
    const codes = await list(t.token);
    expect(codes.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(codes[1].enabled).toBe(false);
    expect((await list()).some((x) => x.id === a.id)).toBe(false);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("GET", "/api/v1/join-codes"), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await s.call("GET", "/api/v1/join-codes", { token: noPerm.token }), 403, "FORBIDDEN");
  });
});

describe("findUsableJoinCode", () => {
  test("finds an enabled, unexpired code; not a disabled, expired or unknown one", async () => {
    const live = (await create({ expiresInDays: 2 })).body;
    const forever = (await create({})).body;
    const disabled = (await create({})).body;
    await s.call("PATCH", `/api/v1/join-codes/${disabled.id}`, { json: { enabled: false }, token: owner.token });
    const expired = (await create({})).body;
    inTenant(owner.tenantId, (db) =>
      db
        .update(tenantJoinCodes)
        .set({ expiresAt: Date.now() - 1 })
        .where(eq(tenantJoinCodes.id, expired.id))
        .run(),
    );
    inTenant(owner.tenantId, (db) => {
      expect(findUsableJoinCode(db, live.code)?.id).toBe(live.id);
      expect(findUsableJoinCode(db, forever.code)?.id).toBe(forever.id);
      expect(findUsableJoinCode(db, disabled.code)).toBeNull();
      expect(findUsableJoinCode(db, expired.code)).toBeNull();
      expect(findUsableJoinCode(db, "NOSUCHCODE")).toBeNull();
      expect(findUsableJoinCode(db, live.code, Date.parse(live.expiresAt))).toBeNull();
    });
    // Another tenant's file does not know the code.
    inTenant(other.tenantId, (db) => expect(findUsableJoinCode(db, live.code)).toBeNull());
  });
});
