import { beforeAll, describe, expect, test } from "bun:test";
import { type Member, type Tenant, tenantWithMembers } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();
const { as } = api;

let owner: Tenant;
let other: Tenant;
let plain: Member; // no permissions
let alice: Member;
let bob: Member;
let foreign: Member;

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

async function newUnit(who: { token: string }, name: string, parentId: string | null = null) {
  const res = await as(who).post("/org-units", { name, parentId });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function newPosition(who: { token: string }, name: string) {
  const res = await as(who).post("/positions", { name });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("POST /api/v1/org-units — createOrgUnit", () => {
  test("creates root and child units, each after its siblings", async () => {
    const tenant = await createTenantFixture(api.server);
    const res = await as(tenant).post("/org-units", { name: "HQ" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      parentId: null,
      name: "HQ",
      order: 0,
      leaderUserId: null,
      leaderName: null,
      memberCount: 0,
    });
    const a = await as(tenant).post("/org-units", { name: "Sales", parentId: res.body.id });
    const b = await as(tenant).post("/org-units", { name: "Ops", parentId: res.body.id });
    expect(a.body).toMatchObject({ parentId: res.body.id, order: 0 });
    expect(b.body).toMatchObject({ parentId: res.body.id, order: 1 });
    expect((await as(tenant).get("/org-units")).body.orgUnits.map((u: any) => u.name)).toEqual(["HQ", "Sales", "Ops"]);
  });

  test("returns 400 for name bounds and an unknown or foreign parentId", async () => {
    for (const body of [{}, { name: "" }, { name: "x".repeat(256) }]) {
      expect(expectProblem(await as(owner).post("/org-units", body), 400, "VALIDATION_FAILED").errors[0].field).toBe("name");
    }
    const theirs = await newUnit(other, "Theirs");
    for (const parentId of ["nope", theirs, ""]) {
      const p = expectProblem(await as(owner).post("/org-units", { name: "x", parentId }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("parentId");
    }
  });

  test("returns 401 and 403", async () => {
    expectProblem(await api.call("POST", "/api/v1/org-units", { json: { name: "x" } }), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).post("/org-units", { name: "x" }), 403, "FORBIDDEN");
  });
});

describe("PATCH /api/v1/org-units/{orgUnitId} — updateOrgUnit", () => {
  test("renames, reorders, moves and sets and clears the leader", async () => {
    const root = await newUnit(owner, "Root");
    const unit = await newUnit(owner, "Unit");
    await as(owner).post(`/org-units/${unit}/members`, { userIds: [alice.memberId] });
    const res = await as(owner).patch(`/org-units/${unit}`, { name: "Renamed", order: 7, parentId: root, leaderUserId: alice.memberId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: unit,
      parentId: root,
      name: "Renamed",
      order: 7,
      leaderUserId: alice.memberId,
      leaderName: "Alice",
      memberCount: 1,
    });
    const cleared = await as(owner).patch(`/org-units/${unit}`, { leaderUserId: null, parentId: null });
    expect(cleared.body).toMatchObject({ parentId: null, leaderUserId: null, leaderName: null, name: "Renamed", order: 7 });
    const listed = (await as(owner).get("/org-units")).body.orgUnits.find((u: any) => u.id === unit);
    expect(listed).toMatchObject({ name: "Renamed", parentId: null, order: 7 });
  });

  test("returns 400 when parentId would make a cycle, or is unknown", async () => {
    const a = await newUnit(owner, "A");
    const b = await newUnit(owner, "B", a);
    const c = await newUnit(owner, "C", b);
    for (const parentId of [a, c, "nope"]) {
      const p = expectProblem(await as(owner).patch(`/org-units/${a}`, { parentId }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("parentId");
    }
    expect((await as(owner).patch(`/org-units/${c}`, { parentId: a })).body.parentId).toBe(a);
  });

  test("returns 400 when the leader is not a member of the unit", async () => {
    const unit = await newUnit(owner, "U");
    for (const leaderUserId of [bob.memberId, "nope", foreign.memberId]) {
      const p = expectProblem(await as(owner).patch(`/org-units/${unit}`, { leaderUserId }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("leaderUserId");
    }
  });

  test("returns 400 for name bounds and a non-integer order", async () => {
    const unit = await newUnit(owner, "U");
    for (const [body, field] of [
      [{ name: "" }, "name"],
      [{ name: "x".repeat(256) }, "name"],
      [{ order: 1.5 }, "order"],
      [{ order: Number.MAX_SAFE_INTEGER + 1 }, "order"],
    ] as const) {
      expect(expectProblem(await as(owner).patch(`/org-units/${unit}`, body), 400, "VALIDATION_FAILED").errors[0].field).toBe(field);
    }
  });

  test("order is any safe integer (the API says only integer)", async () => {
    const unit = await newUnit(owner, "U");
    for (const order of [-1, 10000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      const res = await as(owner).patch(`/org-units/${unit}`, { order });
      expect(res.status).toBe(200);
      expect(res.body.order).toBe(order);
    }
    // a new sibling after a unit at the largest order still gets a safe integer
    await as(owner).patch(`/org-units/${unit}`, { order: Number.MAX_SAFE_INTEGER });
    const next = await as(owner).post("/org-units", { name: "After" });
    expect(next.body.order).toBe(Number.MAX_SAFE_INTEGER);
  });

  test("an overlong id in the path is 404, not 400", async () => {
    const long = "x".repeat(101);
    expectProblem(await as(owner).patch(`/org-units/${long}`, { name: "x" }), 404, "NOT_FOUND");
    expectProblem(await as(owner).del(`/org-units/${long}`), 404, "NOT_FOUND");
    expectProblem(await as(owner).patch(`/positions/${long}`, { name: "x" }), 404, "NOT_FOUND");
  });

  test("returns 401, 403 and cross-tenant 404", async () => {
    const unit = await newUnit(owner, "U");
    expectProblem(await api.call("PATCH", `/api/v1/org-units/${unit}`, { json: { name: "x" } }), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).patch(`/org-units/${unit}`, { name: "x" }), 403, "FORBIDDEN");
    expectProblem(await as(other).patch(`/org-units/${unit}`, { name: "x" }), 404, "NOT_FOUND");
  });
});

describe("GET /api/v1/org-units — listOrgUnits", () => {
  test("parents before children, siblings by order, with member counts", async () => {
    const tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    const b = await newUnit(tenant, "B");
    const a = await newUnit(tenant, "A");
    const b2 = await newUnit(tenant, "B2", b);
    const b1 = await newUnit(tenant, "B1", b);
    await as(tenant).patch(`/org-units/${a}`, { order: 0 });
    await as(tenant).patch(`/org-units/${b}`, { order: 1 });
    await as(tenant).patch(`/org-units/${b1}`, { order: 0 });
    await as(tenant).patch(`/org-units/${b2}`, { order: 5 });
    const leaf = await newUnit(tenant, "B1a", b1);
    await as(tenant).post(`/org-units/${b1}/members`, { userIds: [m.memberId, tenant.memberId] });
    const res = await as(tenant).get("/org-units");
    expect(res.status).toBe(200);
    expect(res.body.orgUnits.map((u: any) => [u.name, u.memberCount])).toEqual([
      ["A", 0],
      ["B", 0],
      ["B1", 2],
      ["B1a", 0],
      ["B2", 0],
    ]);
    expect(res.body.orgUnits[3]).toMatchObject({ id: leaf, parentId: b1 });
  });

  test("never lists another tenant's units; 401 and 403", async () => {
    const tenant = await createTenantFixture(api.server);
    expect((await as(tenant).get("/org-units")).body).toEqual({ orgUnits: [] });
    expectProblem(await api.call("GET", "/api/v1/org-units"), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).get("/org-units"), 403, "FORBIDDEN");
  });
});

describe("DELETE /api/v1/org-units/{orgUnitId} — deleteOrgUnit", () => {
  test("deletes a leaf and unlinks its members", async () => {
    const unit = await newUnit(owner, "Gone");
    await as(owner).post(`/org-units/${unit}/members`, { userIds: [alice.memberId] });
    const res = await as(owner).del(`/org-units/${unit}`);
    expect(res.status).toBe(204);
    expect((await as(owner).get("/org-units")).body.orgUnits.some((u: any) => u.id === unit)).toBe(false);
    expectProblem(await as(owner).get(`/org-units/${unit}/members`), 404, "NOT_FOUND");
  });

  test("returns 409 IN_USE while the unit has children", async () => {
    const parent = await newUnit(owner, "Parent");
    const child = await newUnit(owner, "Child", parent);
    expectProblem(await as(owner).del(`/org-units/${parent}`), 409, "IN_USE");
    expect((await as(owner).del(`/org-units/${child}`)).status).toBe(204);
    expect((await as(owner).del(`/org-units/${parent}`)).status).toBe(204);
  });

  test("returns 401, 403 and cross-tenant 404", async () => {
    const unit = await newUnit(owner, "U");
    expectProblem(await api.call("DELETE", `/api/v1/org-units/${unit}`), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).del(`/org-units/${unit}`), 403, "FORBIDDEN");
    expectProblem(await as(other).del(`/org-units/${unit}`), 404, "NOT_FOUND");
  });
});

describe("POST /api/v1/org-units/{orgUnitId}/members — addOrgUnitMembers", () => {
  let tenant: Tenant;
  let people: Member[];
  beforeAll(async () => {
    tenant = await createTenantFixture(api.server);
    people = [];
    for (let i = 0; i < 34; i++) {
      people.push(await createMemberFixture(api.server, tenant, { displayName: `P${String(i).padStart(2, "0")}` }));
    }
  });

  test("adds members and returns the first page of 30 by display name with a cursor", async () => {
    const unit = await newUnit(tenant, "Big");
    const ids = people.map((p) => p.memberId).reverse();
    const res = await as(tenant).post(`/org-units/${unit}/members`, { userIds: [...ids, ids[0]] });
    expect(res.status).toBe(200);
    expect(res.body.members).toHaveLength(30);
    expect(res.body.members[0]).toEqual({ id: people[0]!.memberId, userId: null, displayName: "P00", email: people[0]!.email });
    expect(res.body.members[29].displayName).toBe("P29");
    expect(typeof res.body.nextCursor).toBe("string");
    const next = await as(tenant).get(`/org-units/${unit}/members?cursor=${encodeURIComponent(res.body.nextCursor)}`);
    expect(next.body.members.map((m: any) => m.displayName)).toEqual(["P30", "P31", "P32", "P33"]);
    expect(next.body.nextCursor).toBeNull();
    const again = await as(tenant).post(`/org-units/${unit}/members`, { userIds: [ids[0]] });
    expect(again.body.members).toHaveLength(30);
    expect((await as(tenant).get("/org-units")).body.orgUnits.find((u: any) => u.id === unit).memberCount).toBe(34);
  });

  test("a small unit has no next cursor", async () => {
    const unit = await newUnit(tenant, "Small");
    const res = await as(tenant).post(`/org-units/${unit}/members`, { userIds: [people[1]!.memberId] });
    expect(res.body).toEqual({ members: [expect.objectContaining({ displayName: "P01" })], nextCursor: null });
  });

  test("returns 400 for bounds and naming userIds[i] for unknown ids", async () => {
    const unit = await newUnit(owner, "U");
    for (const userIds of [[], Array.from({ length: 501 }, (_, i) => `x${i}`)]) {
      expect(expectProblem(await as(owner).post(`/org-units/${unit}/members`, { userIds }), 400, "VALIDATION_FAILED").errors[0].field).toBe(
        "userIds",
      );
    }
    const p = expectProblem(
      await as(owner).post(`/org-units/${unit}/members`, { userIds: [alice.memberId, foreign.memberId] }),
      400,
      "VALIDATION_FAILED",
    );
    expect(p.errors[0].field).toBe("userIds[1]");
  });

  test("returns 401, 403 and cross-tenant 404", async () => {
    const unit = await newUnit(owner, "U");
    const body = { userIds: [alice.memberId] };
    expectProblem(await api.call("POST", `/api/v1/org-units/${unit}/members`, { json: body }), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).post(`/org-units/${unit}/members`, body), 403, "FORBIDDEN");
    expectProblem(await as(other).post(`/org-units/${unit}/members`, { userIds: [foreign.memberId] }), 404, "NOT_FOUND");
  });
});

describe("GET /api/v1/org-units/{orgUnitId}/members — listOrgUnitMembers", () => {
  let unit: string;
  beforeAll(async () => {
    unit = await newUnit(owner, "Listed");
    await as(owner).post(`/org-units/${unit}/members`, { userIds: [bob.memberId, plain.memberId, alice.memberId] });
  });

  test("pages with limit and cursor by display name", async () => {
    const first = await as(owner).get(`/org-units/${unit}/members?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.members.map((m: any) => m.displayName)).toEqual(["Alice", "Bob"]);
    const second = await as(owner).get(`/org-units/${unit}/members?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body).toEqual({ members: [expect.objectContaining({ displayName: "Zed" })], nextCursor: null });
  });

  test("returns 400 naming cursor for a tampered cursor or one of another unit", async () => {
    const first = await as(owner).get(`/org-units/${unit}/members?limit=1`);
    const cursor: string = first.body.nextCursor;
    const otherUnit = await newUnit(owner, "Other");
    for (const c of [`${cursor}x`, `x${cursor}`, "garbage", `${Buffer.from('["A","B"]').toString("base64url")}.${cursor.split(".")[1]}`]) {
      const p = expectProblem(await as(owner).get(`/org-units/${unit}/members?cursor=${encodeURIComponent(c)}`), 400, "VALIDATION_FAILED");
      expect(p.errors[0]).toMatchObject({ in: "query", field: "cursor" });
    }
    const p = expectProblem(
      await as(owner).get(`/org-units/${otherUnit}/members?cursor=${encodeURIComponent(cursor)}`),
      400,
      "VALIDATION_FAILED",
    );
    expect(p.errors[0].field).toBe("cursor");
  });

  test("returns 400 for limit bounds", async () => {
    for (const q of ["limit=0", "limit=101", "limit=x", "cursor="]) {
      expectProblem(await as(owner).get(`/org-units/${unit}/members?${q}`), 400, "VALIDATION_FAILED");
    }
  });

  test("returns 401, 403 and cross-tenant 404", async () => {
    expectProblem(await api.call("GET", `/api/v1/org-units/${unit}/members`), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).get(`/org-units/${unit}/members`), 403, "FORBIDDEN");
    expectProblem(await as(other).get(`/org-units/${unit}/members`), 404, "NOT_FOUND");
  });
});

describe("DELETE /api/v1/org-units/{orgUnitId}/members/{userPkId} — removeOrgUnitMember", () => {
  test("removes a member; removing the leader clears the leader", async () => {
    const unit = await newUnit(owner, "Led");
    await as(owner).post(`/org-units/${unit}/members`, { userIds: [alice.memberId, bob.memberId] });
    await as(owner).patch(`/org-units/${unit}`, { leaderUserId: alice.memberId });
    const res = await as(owner).del(`/org-units/${unit}/members/${alice.memberId}`);
    expect(res.status).toBe(204);
    const after = (await as(owner).get("/org-units")).body.orgUnits.find((u: any) => u.id === unit);
    expect(after).toMatchObject({ leaderUserId: null, leaderName: null, memberCount: 1 });
    expect((await as(owner).get(`/org-units/${unit}/members`)).body.members.map((m: any) => m.id)).toEqual([bob.memberId]);
  });

  test("returns 404 for a non-member and for a unit of another tenant", async () => {
    const unit = await newUnit(owner, "U");
    expectProblem(await as(owner).del(`/org-units/${unit}/members/${alice.memberId}`), 404, "NOT_FOUND");
    expectProblem(await as(other).del(`/org-units/${unit}/members/${alice.memberId}`), 404, "NOT_FOUND");
  });

  test("returns 401 and 403", async () => {
    const unit = await newUnit(owner, "U");
    expectProblem(await api.call("DELETE", `/api/v1/org-units/${unit}/members/${alice.memberId}`), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).del(`/org-units/${unit}/members/${alice.memberId}`), 403, "FORBIDDEN");
  });
});

describe("positions — createPosition, updatePosition, deletePosition, getPositionSettings", () => {
  test("creates positions after each other; the settings list them by order with holder counts", async () => {
    const tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    const res = await as(tenant).post("/positions", { name: "Engineer" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: "Engineer", order: 0, memberCount: 0 });
    const lead = await newPosition(tenant, "Lead");
    await as(tenant).put(`/members/${m.memberId}/position`, { positionId: lead });
    await as(tenant).put(`/members/${tenant.memberId}/position`, { positionId: lead });
    const settings = await as(tenant).get("/position-settings");
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({
      enabled: false,
      positions: [
        { id: res.body.id, name: "Engineer", order: 0, memberCount: 0 },
        { id: lead, name: "Lead", order: 1, memberCount: 2 },
      ],
    });
  });

  test("updatePosition changes name and order", async () => {
    const id = await newPosition(owner, "Old");
    const res = await as(owner).patch(`/positions/${id}`, { name: "New", order: 9999 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: "New", order: 9999 });
    expect((await as(owner).get("/position-settings")).body.positions.at(-1)).toMatchObject({ id, name: "New" });
  });

  test("deletePosition clears it from its members", async () => {
    const id = await newPosition(owner, "Temp");
    expect((await as(owner).put(`/members/${bob.memberId}/position`, { positionId: id })).body.positionId).toBe(id);
    expect((await as(owner).del(`/positions/${id}`)).status).toBe(204);
    expect((await as(owner).get("/position-settings")).body.positions.some((p: any) => p.id === id)).toBe(false);
    expect((await as(owner).put(`/members/${bob.memberId}/position`, { positionId: null })).body.positionId).toBeNull();
    expectProblem(await as(owner).del(`/positions/${id}`), 404, "NOT_FOUND");
  });

  test("returns 400 for name and order bounds", async () => {
    for (const body of [{}, { name: "" }, { name: "x".repeat(256) }]) {
      expect(expectProblem(await as(owner).post("/positions", body), 400, "VALIDATION_FAILED").errors[0].field).toBe("name");
    }
    const id = await newPosition(owner, "P");
    for (const [body, field] of [
      [{ name: "" }, "name"],
      [{ order: -1 }, "order"],
      [{ order: 10000 }, "order"],
    ] as const) {
      expect(expectProblem(await as(owner).patch(`/positions/${id}`, body), 400, "VALIDATION_FAILED").errors[0].field).toBe(field);
    }
  });

  test("returns 401, 403 and cross-tenant 404", async () => {
    const id = await newPosition(owner, "P");
    expectProblem(await api.call("POST", "/api/v1/positions", { json: { name: "x" } }), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).post("/positions", { name: "x" }), 403, "FORBIDDEN");
    expectProblem(await as(plain).patch(`/positions/${id}`, { name: "x" }), 403, "FORBIDDEN");
    expectProblem(await as(plain).del(`/positions/${id}`), 403, "FORBIDDEN");
    expectProblem(await as(plain).get("/position-settings"), 403, "FORBIDDEN");
    expectProblem(await api.call("GET", "/api/v1/position-settings"), 401, "UNAUTHENTICATED");
    expectProblem(await as(other).patch(`/positions/${id}`, { name: "x" }), 404, "NOT_FOUND");
    expectProblem(await as(other).del(`/positions/${id}`), 404, "NOT_FOUND");
    expect((await as(other).get("/position-settings")).body.positions.some((p: any) => p.id === id)).toBe(false);
  });
});

describe("PUT /api/v1/position-settings — updatePositionSettings", () => {
  test("stores the flag", async () => {
    const tenant = await createTenantFixture(api.server);
    let res = await as(tenant).put("/position-settings", { enabled: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: true });
    expect((await as(tenant).get("/position-settings")).body.enabled).toBe(true);
    res = await as(tenant).put("/position-settings", { enabled: false });
    expect((await as(tenant).get("/position-settings")).body.enabled).toBe(false);
    expect((await as(owner).get("/position-settings")).body.enabled).toBe(false);
  });

  test("returns 400, 401 and 403", async () => {
    for (const body of [{}, { enabled: "yes" }]) {
      expect(expectProblem(await as(owner).put("/position-settings", body), 400, "VALIDATION_FAILED").errors[0].field).toBe("enabled");
    }
    expectProblem(await api.call("PUT", "/api/v1/position-settings", { json: { enabled: true } }), 401, "UNAUTHENTICATED");
    const manager = await createMemberFixture(api.server, owner, { permissions: ["member:manage"] });
    expectProblem(await as(manager).put("/position-settings", { enabled: true }), 403, "FORBIDDEN");
  });
});

describe("PUT /api/v1/members/{userPkId}/position — assignMemberPosition", () => {
  test("assigns, moves and clears a member's position; returns the Member", async () => {
    const a = await newPosition(owner, "A");
    const b = await newPosition(owner, "B");
    let res = await as(owner).put(`/members/${alice.memberId}/position`, { positionId: a });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.memberId, userId: "alice", displayName: "Alice", positionId: a });
    res = await as(owner).put(`/members/${alice.memberId}/position`, { positionId: b });
    expect(res.body.positionId).toBe(b);
    const counts = (await as(owner).get("/position-settings")).body.positions;
    expect(counts.find((p: any) => p.id === a).memberCount).toBe(0);
    expect(counts.find((p: any) => p.id === b).memberCount).toBe(1);
    res = await as(owner).put(`/members/${alice.memberId}/position`, { positionId: null });
    expect(res.body.positionId).toBeNull();
  });

  test("returns 400 for an unknown or foreign position and a missing positionId", async () => {
    const theirs = await newPosition(other, "Theirs");
    for (const positionId of ["nope", theirs]) {
      const p = expectProblem(await as(owner).put(`/members/${alice.memberId}/position`, { positionId }), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("positionId");
    }
    expect(expectProblem(await as(owner).put(`/members/${alice.memberId}/position`, {}), 400, "VALIDATION_FAILED").errors[0].field).toBe(
      "positionId",
    );
  });

  test("returns 401, 403 and 404 for a member of another tenant", async () => {
    expectProblem(
      await api.call("PUT", `/api/v1/members/${alice.memberId}/position`, { json: { positionId: null } }),
      401,
      "UNAUTHENTICATED",
    );
    expectProblem(await as(plain).put(`/members/${alice.memberId}/position`, { positionId: null }), 403, "FORBIDDEN");
    expectProblem(await as(owner).put(`/members/${foreign.memberId}/position`, { positionId: null }), 404, "NOT_FOUND");
  });
});
