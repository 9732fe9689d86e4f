import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../src/schema/members";
import type { Tenant } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const s = useServer();
let owner: Tenant;
let other: Tenant;
let noPerm: { token: string };
let reader: { token: string };

beforeAll(async () => {
  owner = await createTenantFixture(s.server);
  other = await createTenantFixture(s.server);
  noPerm = await createMemberFixture(s.server, owner);
  reader = await createMemberFixture(s.server, owner, { permissions: ["role:read"] });
});

const create = (body: unknown, token = owner.token) => s.call("POST", "/api/v1/roles", { json: body, token });
const list = async (token = owner.token) => (await s.call("GET", "/api/v1/roles", { token })).body.roles as any[];

describe("POST /api/v1/roles — createRole", () => {
  test("creates a role with deduplicated permissions in enumeration order", async () => {
    const res = await create({ key: "teacher-1", name: "Teacher", permissions: ["space:create", "member:read", "space:create"] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key: "teacher-1", name: "Teacher", scope: "tenant", isBuiltin: false });
    expect(res.body.permissions).toEqual(["member:read", "space:create"]);
    expect(typeof res.body.id).toBe("string");
    expect((await list()).some((r) => r.id === res.body.id)).toBe(true);
  });

  test("permissions default to empty", async () => {
    const res = await create({ key: "plain", name: "Plain" });
    expect(res.status).toBe(201);
    expect(res.body.permissions).toEqual([]);
  });

  test("returns 409 ALREADY_EXISTS for a taken key, builtin keys included", async () => {
    expect((await create({ key: "dup", name: "A" })).status).toBe(201);
    expectProblem(await create({ key: "dup", name: "B" }), 409, "ALREADY_EXISTS");
    expectProblem(await create({ key: "owner", name: "B" }), 409, "ALREADY_EXISTS");
  });

  test("the same key is free in another tenant", async () => {
    expect((await create({ key: "shared-key", name: "A" })).status).toBe(201);
    expect((await create({ key: "shared-key", name: "A" }, other.token)).status).toBe(201);
  });

  test.each([
    [{ name: "No key" }, "key"],
    [{ key: "", name: "x" }, "key"],
    [{ key: "a".repeat(51), name: "x" }, "key"],
    [{ key: "Upper", name: "x" }, "key"],
    [{ key: "under_score", name: "x" }, "key"],
    [{ key: "ok" }, "name"],
    [{ key: "ok", name: "" }, "name"],
    [{ key: "ok", name: "x".repeat(256) }, "name"],
    [{ key: "ok", name: "x", permissions: ["role:fly"] }, "permissions[0]"],
    [{ key: "ok", name: "x", permissions: "role:read" }, "permissions"],
  ])("returns 400 for %j", async (body, field) => {
    const b = expectProblem(await create(body), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toStartWith(field);
  });

  test("accepts the bounds: key of 50, name of 255", async () => {
    const res = await create({ key: `${"a".repeat(48)}-9`, name: "n".repeat(255) });
    expect(res.status).toBe(201);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("POST", "/api/v1/roles", { json: { key: "x", name: "x" } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without role:manage", async () => {
    expectProblem(await create({ key: "x", name: "x" }, reader.token), 403, "FORBIDDEN");
  });
});

describe("a role cannot carry a permission its creator does not hold", () => {
  test("a role:manage holder cannot create a role with, or add to a role, a code it lacks; removing is fine; the owner can", async () => {
    const admin = await createMemberFixture(s.server, owner, { permissions: ["role:read", "role:manage"] });
    const code = "tenant-settings:manage";
    expectProblem(await create({ key: "sneaky", name: "Sneaky", permissions: ["role:read", code] }, admin.token), 403, "FORBIDDEN");
    expect((await list()).some((r) => r.key === "sneaky")).toBe(false);
    const mine = await create({ key: "mine", name: "Mine", permissions: ["role:read"] }, admin.token);
    expect(mine.status).toBe(201);
    const patch = (body: unknown, token: string) => s.call("PATCH", `/api/v1/roles/${mine.body.id}`, { json: body, token });
    expectProblem(await patch({ permissions: ["role:read", code] }, admin.token), 403, "FORBIDDEN");
    expect((await list()).find((r) => r.key === "mine").permissions).toEqual(["role:read"]);
    // The owner adds it; the admin may keep it while renaming, and may remove it.
    expect((await patch({ permissions: ["role:read", code] }, owner.token)).body.permissions).toContain(code);
    expect((await patch({ name: "Renamed", permissions: ["role:read", code] }, admin.token)).status).toBe(200);
    expect((await patch({ permissions: ["role:read"] }, admin.token)).body.permissions).toEqual(["role:read"]);
    expect((await create({ key: "owner-made", name: "O", permissions: [code] })).status).toBe(201);
  });
});

describe("GET /api/v1/roles — listRoles", () => {
  test("lists builtin roles first, then by name", async () => {
    await create({ key: "zeta", name: "Zeta" });
    await create({ key: "alpha", name: "Alpha" });
    const roles = await list(reader.token);
    const builtin = roles.filter((r) => r.isBuiltin);
    expect(builtin.map((r) => r.key).sort()).toEqual(["member", "owner"]);
    expect(roles.slice(0, 2).every((r) => r.isBuiltin)).toBe(true);
    const names = roles.slice(2).map((r) => r.name);
    expect(names).toEqual([...names].sort());
    const ownerRole = roles.find((r) => r.key === "owner");
    expect(ownerRole.permissions).toContain("role:manage");
    expect(roles.find((r) => r.key === "member").permissions).toEqual([]);
  });

  test("shows only the caller's tenant", async () => {
    const mine = await create({ key: "only-mine", name: "Mine" });
    expect((await list(other.token)).some((r) => r.id === mine.body.id)).toBe(false);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("GET", "/api/v1/roles"), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without role:read", async () => {
    expectProblem(await s.call("GET", "/api/v1/roles", { token: noPerm.token }), 403, "FORBIDDEN");
  });
});

describe("PATCH /api/v1/roles/{roleId} — updateRole", () => {
  const patch = (id: string, body: unknown, token = owner.token) => s.call("PATCH", `/api/v1/roles/${id}`, { json: body, token });

  test("renames and replaces permissions; the list shows it", async () => {
    const role = (await create({ key: "editable", name: "Editable", permissions: ["member:read"] })).body;
    const res = await patch(role.id, { name: "Edited", permissions: ["library:upload", "role:read"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: role.id, key: "editable", name: "Edited", permissions: ["role:read", "library:upload"] });
    expect((await list()).find((r) => r.id === role.id)).toMatchObject({ name: "Edited", permissions: ["role:read", "library:upload"] });
  });

  test("an absent field is left unchanged", async () => {
    const role = (await create({ key: "partial", name: "Partial", permissions: ["member:read"] })).body;
    expect((await patch(role.id, { name: "Renamed" })).body.permissions).toEqual(["member:read"]);
    expect((await patch(role.id, { permissions: [] })).body).toMatchObject({ name: "Renamed", permissions: [] });
  });

  test("a permission change applies to the role's holders at once", async () => {
    const holder = await createMemberFixture(s.server, owner, { permissions: ["role:read"] });
    const roleId = s.server.rt.tenants.use(owner.tenantId, (h) =>
      h.db.select({ roleId: members.roleId }).from(members).where(eq(members.id, holder.memberId)).get(),
    )?.roleId as string;
    expect((await s.call("GET", "/api/v1/roles", { token: holder.token })).status).toBe(200);
    await patch(roleId, { permissions: [] });
    expectProblem(await s.call("GET", "/api/v1/roles", { token: holder.token }), 403, "FORBIDDEN");
    await patch(roleId, { permissions: ["role:read"] });
    expect((await s.call("GET", "/api/v1/roles", { token: holder.token })).status).toBe(200);
  });

  test("a builtin role may be renamed", async () => {
    const member = (await list()).find((r) => r.key === "member");
    const res = await patch(member.id, { name: "Learner" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: "member", name: "Learner", isBuiltin: true, permissions: [] });
  });

  test("returns 409 INVALID_STATE when a builtin role's permissions change", async () => {
    const roles = await list();
    const member = roles.find((r) => r.key === "member");
    const ownerRole = roles.find((r) => r.key === "owner");
    expectProblem(await patch(member.id, { permissions: ["member:read"] }), 409, "INVALID_STATE");
    expectProblem(await patch(ownerRole.id, { permissions: [] }), 409, "INVALID_STATE");
    // Sending the same set is not a change.
    expect((await patch(ownerRole.id, { permissions: ownerRole.permissions })).status).toBe(200);
  });

  test.each([
    [{ name: "" }, "name"],
    [{ name: "x".repeat(256) }, "name"],
    [{ permissions: ["nope"] }, "permissions[0]"],
  ])("returns 400 for %j", async (body, field) => {
    const role = (await list()).find((r) => r.key === "plain");
    const b = expectProblem(await patch(role.id, body), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toStartWith(field);
  });

  test("returns 404 for an unknown id and for a role of another tenant", async () => {
    expectProblem(await patch("nope", { name: "x" }), 404, "NOT_FOUND");
    const theirs = (await create({ key: "theirs", name: "Theirs" }, other.token)).body;
    expectProblem(await patch(theirs.id, { name: "x" }), 404, "NOT_FOUND");
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("PATCH", "/api/v1/roles/x", { json: { name: "x" } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without role:manage", async () => {
    const role = (await list()).find((r) => r.key === "plain");
    expectProblem(await patch(role.id, { name: "x" }, reader.token), 403, "FORBIDDEN");
  });
});

describe("DELETE /api/v1/roles/{roleId} — deleteRole", () => {
  const del = (id: string, token = owner.token) => s.call("DELETE", `/api/v1/roles/${id}`, { token });

  test("deletes an unused role with 204; the list no longer shows it", async () => {
    const role = (await create({ key: "doomed", name: "Doomed" })).body;
    const res = await del(role.id);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await list()).some((r) => r.id === role.id)).toBe(false);
    expectProblem(await del(role.id), 404, "NOT_FOUND");
    // The key is free again.
    expect((await create({ key: "doomed", name: "Again" })).status).toBe(201);
  });

  test("returns 409 INVALID_STATE for a builtin role", async () => {
    const roles = await list();
    expectProblem(await del(roles.find((r) => r.key === "member").id), 409, "INVALID_STATE");
    expectProblem(await del(roles.find((r) => r.key === "owner").id), 409, "INVALID_STATE");
  });

  test("returns 409 IN_USE while a member holds the role", async () => {
    await createMemberFixture(s.server, owner, { permissions: ["space:create"] });
    const held = (await list()).find((r) => r.key.startsWith("fixture-role-") && r.permissions.join() === "space:create");
    expectProblem(await del(held.id), 409, "IN_USE");
  });

  test("returns 409 IN_USE while a pending invitation holds the role; free once it is cancelled", async () => {
    await create({ key: "invited-role", name: "Invited" });
    const inv = await s.call("POST", "/api/v1/invitations", {
      json: { emails: ["role-holder@example.com"], roleKey: "invited-role" },
      token: owner.token,
    });
    expect(inv.status).toBe(201);
    const role = (await list()).find((r) => r.key === "invited-role");
    expectProblem(await del(role.id), 409, "IN_USE");
    await s.call("POST", "/api/v1/invitations/bulk-cancel", { json: { ids: [inv.body.invited[0].id] }, token: owner.token });
    expect((await del(role.id)).status).toBe(204);
    // The cancelled invitation keeps showing the role it was sent with.
    const listed = await s.call("GET", "/api/v1/invitations?status=cancelled", { token: owner.token });
    expect(listed.body.invitations.find((i: any) => i.id === inv.body.invited[0].id).role).toEqual({
      key: "invited-role",
      name: "Invited",
    });
  });

  test("returns 404 for a role of another tenant", async () => {
    const theirs = (await create({ key: "theirs-del", name: "Theirs" }, other.token)).body;
    expectProblem(await del(theirs.id), 404, "NOT_FOUND");
    expect((await list(other.token)).some((r) => r.id === theirs.id)).toBe(true);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("DELETE", "/api/v1/roles/x"), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without role:manage", async () => {
    const role = (await list()).find((r) => r.key === "plain");
    expectProblem(await del(role.id, reader.token), 403, "FORBIDDEN");
  });
});
