import { beforeAll, describe, expect, test } from "bun:test";
import { tenantById } from "../src/platform/db/registry";
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

const patch = (body: unknown, token = owner.token) => s.call("PATCH", "/api/v1/tenant", { json: body, token });
const read = async (token = owner.token) => (await s.call("GET", "/api/v1/tenant", { token })).body;

describe("GET /api/v1/tenant — getTenant", () => {
  test("any member reads the tenant info", async () => {
    const res = await s.call("GET", "/api/v1/tenant", { token: noPerm.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: owner.tenantId, key: owner.tenantKey, loginIdentifier: "userId", currentPlan: "FREE" });
    expect(res.body.sessionPolicy).toEqual({ defaultSessionType: "personal", publicAbsoluteTimeoutMinutes: 480 });
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("GET", "/api/v1/tenant"), 401, "UNAUTHENTICATED");
  });
});

describe("PATCH /api/v1/tenant — updateTenant", () => {
  test("updates every field; a later read shows it and the registry carries the new name", async () => {
    const res = await patch({
      name: "Renamed Tenant",
      description: "About us",
      contactInfo: "help@example.com",
      sessionPolicy: { defaultSessionType: "public", publicAbsoluteTimeoutMinutes: 60 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      key: owner.tenantKey,
      name: "Renamed Tenant",
      description: "About us",
      contactInfo: "help@example.com",
      sessionPolicy: { defaultSessionType: "public", publicAbsoluteTimeoutMinutes: 60 },
    });
    expect(await read()).toEqual(res.body);
    expect(tenantById(s.server.rt.platform.db, owner.tenantId)?.name).toBe("Renamed Tenant");
  });

  test("an absent field is left unchanged, also inside sessionPolicy", async () => {
    await patch({ description: "Keep", sessionPolicy: { defaultSessionType: "public", publicAbsoluteTimeoutMinutes: 90 } });
    const res = await patch({ sessionPolicy: { defaultSessionType: "personal" } });
    expect(res.body).toMatchObject({
      description: "Keep",
      sessionPolicy: { defaultSessionType: "personal", publicAbsoluteTimeoutMinutes: 90 },
    });
    expect((await patch({})).body).toEqual(res.body);
  });

  test("null clears description and contactInfo", async () => {
    await patch({ description: "x", contactInfo: "y" });
    const res = await patch({ description: null, contactInfo: null });
    expect(res.body).toMatchObject({ description: null, contactInfo: null });
    expect(await read()).toMatchObject({ description: null, contactInfo: null });
  });

  test("accepts the bounds of publicAbsoluteTimeoutMinutes and name", async () => {
    expect((await patch({ sessionPolicy: { publicAbsoluteTimeoutMinutes: 5 } })).status).toBe(200);
    expect((await patch({ sessionPolicy: { publicAbsoluteTimeoutMinutes: 43200 } })).status).toBe(200);
    expect((await patch({ name: "n".repeat(255) })).status).toBe(200);
  });

  test.each([
    [{ name: "" }, "name"],
    [{ name: "x".repeat(256) }, "name"],
    [{ name: null }, "name"],
    [{ description: 5 }, "description"],
    [{ description: "d".repeat(5001) }, "description"],
    [{ contactInfo: "c".repeat(1001) }, "contactInfo"],
    [{ sessionPolicy: null }, "sessionPolicy"],
    [{ sessionPolicy: "public" }, "sessionPolicy"],
    [{ sessionPolicy: [] }, "sessionPolicy"],
    [{ sessionPolicy: { defaultSessionType: "shared" } }, "sessionPolicy.defaultSessionType"],
    [{ sessionPolicy: { publicAbsoluteTimeoutMinutes: 4 } }, "sessionPolicy.publicAbsoluteTimeoutMinutes"],
    [{ sessionPolicy: { publicAbsoluteTimeoutMinutes: 43201 } }, "sessionPolicy.publicAbsoluteTimeoutMinutes"],
    [{ sessionPolicy: { publicAbsoluteTimeoutMinutes: 30.5 } }, "sessionPolicy.publicAbsoluteTimeoutMinutes"],
  ])("returns 400 for %j", async (body, field) => {
    const b = expectProblem(await patch(body), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toBe(field);
  });

  test("changes only the caller's tenant", async () => {
    const before = await read(other.token);
    await patch({ name: "Mine only" });
    expect(await read(other.token)).toEqual(before);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("PATCH", "/api/v1/tenant", { json: { name: "x" } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without tenant-settings:manage", async () => {
    expectProblem(await patch({ name: "x" }, noPerm.token), 403, "FORBIDDEN");
  });
});

describe("PATCH /api/v1/tenant — check order", () => {
  test("401 comes before 400, and 403 before 400", async () => {
    expectProblem(await s.call("PATCH", "/api/v1/tenant", { json: { sessionPolicy: null } }), 401, "UNAUTHENTICATED");
    expectProblem(await patch({ sessionPolicy: null }, noPerm.token), 403, "FORBIDDEN");
    expectProblem(await patch({ name: "" }, noPerm.token), 403, "FORBIDDEN");
  });
});
