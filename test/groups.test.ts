import { beforeAll, describe, expect, test } from "bun:test";
import { type Member, type Tenant, tenantWithMembers } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();
const { as } = api;

let owner: Tenant;
let other: Tenant;
let plain: Member; // a member without permissions
let alice: Member;
let bob: Member;
let foreign: Member; // a member of the other tenant

beforeAll(async () => {
  ({
    owner,
    other,
    members: [plain, alice, bob],
    otherMembers: [foreign],
  } = await tenantWithMembers(
    api,
    [{ displayName: "Zed" }, { displayName: "Alice", userId: "alice" }, { displayName: "Bob" }],
    [{ displayName: "Foreign" }],
  ));
});

async function newGroup(name = "Group", who: { token: string } = owner, base = "/groups") {
  const res = await as(who).post(base, { name, description: "desc" });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

// Both kinds share every rule; each suite runs once per kind.
for (const kind of [
  { base: "/groups", ops: "Group", list: "groups" },
  { base: "/plain-groups", ops: "PlainGroup", list: "plainGroups" },
]) {
  const { base, ops } = kind;

  describe(`POST /api/v1${base} — create${ops}`, () => {
    test("creates a group with no members", async () => {
      const res = await as(owner).post(base, { name: "Designers", description: null });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: "Designers", description: null, memberCount: 0 });
      expect(typeof res.body.id).toBe("string");
      if (base === "/groups") expect(res.body.createdAt).toMatch(/\.\d{3}Z$/);
      else expect(res.body.createdAt).toBeUndefined();
      const read = await as(owner).get(`${base}/${res.body.id}`);
      expect(read.body).toMatchObject({ name: "Designers", members: [] });
    });

    test("returns 400 for a missing, empty or too long name", async () => {
      for (const body of [{}, { name: "" }, { name: "x".repeat(256) }]) {
        const p = expectProblem(await as(owner).post(base, body), 400, "VALIDATION_FAILED");
        expect(p.errors[0].field).toBe("name");
      }
      expect((await as(owner).post(base, { name: "x".repeat(255) })).status).toBe(201);
    });

    test("returns 400 for a too long description", async () => {
      const p = expectProblem(await as(owner).post(base, { name: "a", description: "x".repeat(2001) }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("description");
    });

    test("returns 401 without a token", async () => {
      expectProblem(await api.call("POST", `/api/v1${base}`, { json: { name: "a" } }), 401, "UNAUTHENTICATED");
    });

    test("returns 403 without member:manage", async () => {
      expectProblem(await as(plain).post(base, { name: "a" }), 403, "FORBIDDEN");
    });
  });

  describe(`GET /api/v1${base}/{id} — get${ops}`, () => {
    test("returns the detail form with members by display name", async () => {
      const id = await newGroup("Readers", owner, base);
      await as(owner).post(`${base}/${id}/members`, { userIds: [bob.memberId, alice.memberId] });
      const res = await as(owner).get(`${base}/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.memberCount).toBe(2);
      expect(res.body.members).toEqual([
        { id: alice.memberId, userId: "alice", displayName: "Alice", email: alice.email },
        { id: bob.memberId, userId: null, displayName: "Bob", email: bob.email },
      ]);
    });

    test("returns 404 for an unknown id and for a group of another tenant", async () => {
      expectProblem(await as(owner).get(`${base}/nope`), 404, "NOT_FOUND");
      expectProblem(await as(owner).get(`${base}/${"x".repeat(101)}`), 404, "NOT_FOUND"); // overlong: 404, not 400
      const theirs = await newGroup("Theirs", other, base);
      expectProblem(await as(owner).get(`${base}/${theirs}`), 404, "NOT_FOUND");
    });

    test("returns 401 and 403", async () => {
      const id = await newGroup("G", owner, base);
      expectProblem(await api.call("GET", `/api/v1${base}/${id}`), 401, "UNAUTHENTICATED");
      expectProblem(await as(plain).get(`${base}/${id}`), 403, "FORBIDDEN");
    });
  });

  describe(`PATCH /api/v1${base}/{id} — update${ops}`, () => {
    test("changes only the fields sent; null clears the description", async () => {
      const id = await newGroup("Before", owner, base);
      let res = await as(owner).patch(`${base}/${id}`, { name: "After" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: "After", description: "desc", members: [] });
      res = await as(owner).patch(`${base}/${id}`, { description: null });
      expect(res.body).toMatchObject({ name: "After", description: null });
      expect((await as(owner).get(`${base}/${id}`)).body).toMatchObject({ name: "After", description: null });
    });

    test("returns 400 for an empty or too long name", async () => {
      const id = await newGroup("G", owner, base);
      for (const name of ["", "x".repeat(256)]) {
        const p = expectProblem(await as(owner).patch(`${base}/${id}`, { name }), 400, "VALIDATION_FAILED");
        expect(p.errors[0].field).toBe("name");
      }
    });

    test("returns 401, 403 and cross-tenant 404", async () => {
      const id = await newGroup("G", owner, base);
      expectProblem(await api.call("PATCH", `/api/v1${base}/${id}`, { json: { name: "x" } }), 401, "UNAUTHENTICATED");
      expectProblem(await as(plain).patch(`${base}/${id}`, { name: "x" }), 403, "FORBIDDEN");
      expectProblem(await as(other).patch(`${base}/${id}`, { name: "x" }), 404, "NOT_FOUND");
    });
  });

  describe(`POST /api/v1${base}/{id}/members — add${ops}Members`, () => {
    test("adds members; present ones and repeats are unchanged", async () => {
      const id = await newGroup("G", owner, base);
      let res = await as(owner).post(`${base}/${id}/members`, { userIds: [alice.memberId, alice.memberId] });
      expect(res.status).toBe(200);
      expect(res.body.memberCount).toBe(1);
      res = await as(owner).post(`${base}/${id}/members`, { userIds: [alice.memberId, bob.memberId] });
      expect(res.body.members.map((m: any) => m.id)).toEqual([alice.memberId, bob.memberId]);
      expect(res.body.memberCount).toBe(2);
    });

    test("returns 400 naming userIds[i] for an unknown id or a member of another tenant", async () => {
      const id = await newGroup("G", owner, base);
      let p = expectProblem(await as(owner).post(`${base}/${id}/members`, { userIds: [alice.memberId, "nope"] }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("userIds[1]");
      p = expectProblem(await as(owner).post(`${base}/${id}/members`, { userIds: [foreign.memberId] }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("userIds[0]");
      expect((await as(owner).get(`${base}/${id}`)).body.memberCount).toBe(0);
    });

    test("returns 400 for 0 or 501 ids and an empty id", async () => {
      const id = await newGroup("G", owner, base);
      for (const userIds of [[], Array.from({ length: 501 }, (_, i) => `m${i}`)]) {
        const p = expectProblem(await as(owner).post(`${base}/${id}/members`, { userIds }), 400, "VALIDATION_FAILED");
        expect(p.errors[0].field).toBe("userIds");
      }
      const p = expectProblem(await as(owner).post(`${base}/${id}/members`, { userIds: [""] }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("userIds[0]");
      expectProblem(await as(owner).post(`${base}/${id}/members`, {}), 400, "VALIDATION_FAILED");
    });

    test("returns 401, 403 and cross-tenant 404", async () => {
      const id = await newGroup("G", owner, base);
      const body = { userIds: [alice.memberId] };
      expectProblem(await api.call("POST", `/api/v1${base}/${id}/members`, { json: body }), 401, "UNAUTHENTICATED");
      expectProblem(await as(plain).post(`${base}/${id}/members`, body), 403, "FORBIDDEN");
      expectProblem(await as(other).post(`${base}/${id}/members`, { userIds: [foreign.memberId] }), 404, "NOT_FOUND");
    });
  });

  describe(`DELETE /api/v1${base}/{id}/members/{userPkId} — remove${ops}Member`, () => {
    test("removes a member and returns the detail form", async () => {
      const id = await newGroup("G", owner, base);
      await as(owner).post(`${base}/${id}/members`, { userIds: [alice.memberId, bob.memberId] });
      const res = await as(owner).del(`${base}/${id}/members/${alice.memberId}`);
      expect(res.status).toBe(200);
      expect(res.body.members.map((m: any) => m.id)).toEqual([bob.memberId]);
      expect((await as(owner).get(`${base}/${id}`)).body.memberCount).toBe(1);
    });

    test("returns 404 for a non-member and for a group of another tenant", async () => {
      const id = await newGroup("G", owner, base);
      expectProblem(await as(owner).del(`${base}/${id}/members/${bob.memberId}`), 404, "NOT_FOUND");
      expectProblem(await as(other).del(`${base}/${id}/members/${bob.memberId}`), 404, "NOT_FOUND");
    });

    test("returns 401 and 403", async () => {
      const id = await newGroup("G", owner, base);
      expectProblem(await api.call("DELETE", `/api/v1${base}/${id}/members/${bob.memberId}`), 401, "UNAUTHENTICATED");
      expectProblem(await as(plain).del(`${base}/${id}/members/${bob.memberId}`), 403, "FORBIDDEN");
    });
  });

  describe(`DELETE /api/v1${base}/{id} — delete${ops}`, () => {
    test("deletes the group and its memberships", async () => {
      const id = await newGroup("Doomed", owner, base);
      await as(owner).post(`${base}/${id}/members`, { userIds: [alice.memberId] });
      const res = await as(owner).del(`${base}/${id}`);
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      expectProblem(await as(owner).get(`${base}/${id}`), 404, "NOT_FOUND");
      expectProblem(await as(owner).del(`${base}/${id}`), 404, "NOT_FOUND");
    });

    test("returns 401, 403 and cross-tenant 404", async () => {
      const id = await newGroup("G", owner, base);
      expectProblem(await api.call("DELETE", `/api/v1${base}/${id}`), 401, "UNAUTHENTICATED");
      expectProblem(await as(plain).del(`${base}/${id}`), 403, "FORBIDDEN");
      expectProblem(await as(other).del(`${base}/${id}`), 404, "NOT_FOUND");
      expect((await as(owner).get(`${base}/${id}`)).status).toBe(200);
    });
  });
}

describe("GET /api/v1/groups and /plain-groups — listGroups, listPlainGroups", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    for (const name of ["charlie", "Alpha", "bravo 100%", "delta_x"]) await newGroup(name, tenant);
    await newGroup("Alpha plain", tenant, "/plain-groups");
    const alpha = (await as(tenant).get("/groups?search=alpha")).body.groups[0].id;
    await as(tenant).post(`/groups/${alpha}/members`, { userIds: [m.memberId, tenant.memberId] });
  });

  test("lists grant groups by name with member counts and page totals", async () => {
    const res = await as(tenant).get("/groups");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 1, pageSize: 20, totalPages: 1 });
    expect(res.body.groups.map((g: any) => g.name)).toEqual(["Alpha", "bravo 100%", "charlie", "delta_x"]);
    expect(res.body.groups.map((g: any) => g.memberCount)).toEqual([2, 0, 0, 0]);
  });

  test("pages; a page past the end is empty with the real totals", async () => {
    let res = await as(tenant).get("/groups?page=2&pageSize=3");
    expect(res.body).toMatchObject({ total: 4, page: 2, pageSize: 3, totalPages: 2 });
    expect(res.body.groups.map((g: any) => g.name)).toEqual(["delta_x"]);
    res = await as(tenant).get("/groups?page=9");
    expect(res.body).toMatchObject({ groups: [], total: 4, totalPages: 1 });
  });

  test("search is a case-insensitive name substring; wildcards are literal", async () => {
    expect((await as(tenant).get("/groups?search=ALP")).body.groups.map((g: any) => g.name)).toEqual(["Alpha"]);
    expect((await as(tenant).get("/groups?search=%25")).body.groups.map((g: any) => g.name)).toEqual(["bravo 100%"]);
    expect((await as(tenant).get("/groups?search=_")).body.groups.map((g: any) => g.name)).toEqual(["delta_x"]);
  });

  test("plain groups and grant groups are separate lists", async () => {
    const res = await as(tenant).get("/plain-groups");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, plainGroups: [{ name: "Alpha plain", memberCount: 0 }] });
    const plainId = res.body.plainGroups[0].id;
    expectProblem(await as(tenant).get(`/groups/${plainId}`), 404, "NOT_FOUND");
  });

  test("returns 400 for page, pageSize and search bounds", async () => {
    for (const q of ["page=0", "pageSize=0", "pageSize=101", "page=x", "search=", `search=${"x".repeat(256)}`]) {
      expectProblem(await as(tenant).get(`/groups?${q}`), 400, "VALIDATION_FAILED");
      expectProblem(await as(tenant).get(`/plain-groups?${q}`), 400, "VALIDATION_FAILED");
    }
  });

  test("never lists another tenant's groups", async () => {
    const res = await as(other).get("/groups?search=alpha");
    expect(res.body.groups).toEqual([]);
  });

  test("returns 401 and 403", async () => {
    expectProblem(await api.call("GET", "/api/v1/groups"), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).get("/groups"), 403, "FORBIDDEN");
    expectProblem(await as(plain).get("/plain-groups"), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/groups/{id}/members — a group carrying grants", () => {
  test("member:manage alone cannot add anyone (itself included) to a group granting codes it lacks (403)", async () => {
    const manager = await createMemberFixture(api.server, owner, { permissions: ["member:manage"] });
    const id = await newGroup("Role admins");
    const grant = await as(owner).post("/permission-grants/role:manage/subjects", { subjectType: "GROUP", subjectId: id });
    expect(grant.status).toBe(200);
    expectProblem(await as(manager).post(`/groups/${id}/members`, { userIds: [manager.memberId] }), 403, "FORBIDDEN");
    expectProblem(await as(manager).post(`/groups/${id}/members`, { userIds: [bob.memberId] }), 403, "FORBIDDEN");
    expect((await as(owner).get(`/groups/${id}`)).body.members).toEqual([]);
    // the escalation did not happen: role:manage is still refused to the manager
    expectProblem(await as(manager).post("/roles", { key: "x-escalated", name: "X", permissions: [] }), 403, "FORBIDDEN");
    // a group without grants, and a caller holding every granted code, may add
    const free = await newGroup("No grants");
    expect((await as(manager).post(`/groups/${free}/members`, { userIds: [bob.memberId] })).status).toBe(200);
    const holder = await createMemberFixture(api.server, owner, { permissions: ["member:manage", "role:manage"] });
    const added = await as(holder).post(`/groups/${id}/members`, { userIds: [bob.memberId] });
    expect(added.status).toBe(200);
    expect(added.body.members.map((m: { id: string }) => m.id)).toEqual([bob.memberId]);
  });
});
