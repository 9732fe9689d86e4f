import { beforeAll, describe, expect, test } from "bun:test";
import { PERMISSIONS } from "../src/modules/roles/permissions";
import { type Member, type Tenant, tenantWithMembers } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();
const { as } = api;

let owner: Tenant;
let other: Tenant;
let plain: Member;
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

async function newGroup(who: { token: string }, name: string, userIds: string[] = [], base = "/groups") {
  const id = (await as(who).post(base, { name })).body.id as string;
  if (userIds.length) expect((await as(who).post(`${base}/${id}/members`, { userIds })).status).toBe(200);
  return id;
}

const grant = (who: { token: string }, code: string, subjectType: string, subjectId: string) =>
  as(who).post(`/permission-grants/${code}/subjects`, { subjectType, subjectId });
const revoke = (who: { token: string }, code: string, subjectType: string, subjectId: string) =>
  as(who).post(`/permission-grants/${code}/subjects/remove`, { subjectType, subjectId });

describe("grants change the caller's effective permissions", () => {
  test("a MEMBER subject gains the permission and loses it on removal", async () => {
    const m = await createMemberFixture(api.server, owner);
    expectProblem(await as(m).get("/groups"), 403, "FORBIDDEN");
    expect((await grant(owner, "member:read", "MEMBER", m.memberId)).status).toBe(200);
    expect((await as(m).get("/groups")).status).toBe(200);
    expect((await revoke(owner, "member:read", "MEMBER", m.memberId)).status).toBe(200);
    expectProblem(await as(m).get("/groups"), 403, "FORBIDDEN");
  });

  test("members of a granted group gain it; deleting the group takes it away", async () => {
    const m = await createMemberFixture(api.server, owner);
    const g = await newGroup(owner, "Readers", [m.memberId]);
    expectProblem(await as(m).get("/groups"), 403, "FORBIDDEN");
    await grant(owner, "member:read", "GROUP", g);
    expect((await as(m).get("/groups")).status).toBe(200);
    expect((await as(owner).get("/permission-grants/member:read")).body.groups).toEqual([{ id: g, name: "Readers" }]);
    expect((await api.call("DELETE", `/api/v1/groups/${g}`, { token: owner.token })).status).toBe(204);
    expectProblem(await as(m).get("/groups"), 403, "FORBIDDEN");
    expect((await as(owner).get("/permission-grants/member:read")).body.groups).toEqual([]);
  });

  test("allEnabled gives it to every member until turned off", async () => {
    const m = await createMemberFixture(api.server, owner);
    expectProblem(await as(m).get("/org-units"), 403, "FORBIDDEN");
    const on = await as(owner).put("/permission-grants/member:read/all-enabled", { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.allEnabled).toBe(true);
    expect((await as(m).get("/groups")).status).toBe(200);
    await as(owner).put("/permission-grants/member:read/all-enabled", { enabled: false });
    expectProblem(await as(m).get("/groups"), 403, "FORBIDDEN");
  });

  test("a grant in one tenant gives nothing in another", async () => {
    await as(other).put("/permission-grants/member:read/all-enabled", { enabled: true });
    expectProblem(await as(plain).get("/groups"), 403, "FORBIDDEN");
    await as(other).put("/permission-grants/member:read/all-enabled", { enabled: false });
  });
});

describe("POST /api/v1/permission-grants/{code}/subjects — addGrantSubject", () => {
  test("adds a member subject and returns the grant; adding again changes nothing", async () => {
    let res = await grant(owner, "space:create", "MEMBER", alice.memberId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: "space:create",
      description: expect.any(String),
      allEnabled: false,
      groups: [],
      members: [{ id: alice.memberId, userId: "alice", displayName: "Alice" }],
    });
    res = await grant(owner, "space:create", "MEMBER", alice.memberId);
    expect(res.body.members).toHaveLength(1);
    expect((await as(owner).get("/permission-grants/space:create")).body.memberTotal).toBe(1);
  });

  test("returns 400 naming subjectId for an unknown member, another tenant's member, or a plain group", async () => {
    const plainGroup = await newGroup(owner, "Plain", [], "/plain-groups");
    for (const [type, id] of [
      ["MEMBER", "nope"],
      ["MEMBER", foreign.memberId],
      ["GROUP", plainGroup],
      ["GROUP", alice.memberId],
    ]) {
      const p = expectProblem(await grant(owner, "library:upload", type as string, id as string), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("subjectId");
    }
  });

  test("returns 400 for a bad subjectType or a missing or empty subjectId", async () => {
    for (const [body, field] of [
      [{ subjectType: "ROLE", subjectId: "x" }, "subjectType"],
      [{ subjectId: "x" }, "subjectType"],
      [{ subjectType: "MEMBER" }, "subjectId"],
      [{ subjectType: "MEMBER", subjectId: "" }, "subjectId"],
    ] as const) {
      const p = expectProblem(await as(owner).post("/permission-grants/member:read/subjects", body), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe(field);
    }
  });

  test("returns 404 for a code outside the enumeration", async () => {
    expectProblem(await grant(owner, "member:fly", "MEMBER", alice.memberId), 404, "NOT_FOUND");
  });

  test("returns 401 and 403", async () => {
    const path = "/api/v1/permission-grants/member:read/subjects";
    expectProblem(await api.call("POST", path, { json: { subjectType: "MEMBER", subjectId: "x" } }), 401, "UNAUTHENTICATED");
    expectProblem(await grant(plain, "member:read", "MEMBER", plain.memberId), 403, "FORBIDDEN");
  });
});

describe("nobody hands out a permission it does not hold", () => {
  test("a role:manage holder cannot grant, bulk-grant or enable for all a code it lacks; the owner can", async () => {
    const admin = await createMemberFixture(api.server, owner, { permissions: ["role:read", "role:manage"] });
    const code = "tenant-settings:manage";
    expectProblem(await grant(admin, code, "MEMBER", admin.memberId), 403, "FORBIDDEN");
    expectProblem(
      await as(admin).post(`/permission-grants/${code}/subjects/bulk-grant`, { subjectType: "MEMBER", subjectIds: [admin.memberId] }),
      403,
      "FORBIDDEN",
    );
    expectProblem(await as(admin).put(`/permission-grants/${code}/all-enabled`, { enabled: true }), 403, "FORBIDDEN");
    const after = (await as(owner).get(`/permission-grants/${code}`)).body;
    expect(after.allEnabled).toBe(false);
    expect(after.members).toEqual([]);
    // Codes it holds it may hand out; switching all-enabled off and revoking need no holding.
    expect((await grant(admin, "role:read", "MEMBER", alice.memberId)).status).toBe(200);
    expect((await revoke(admin, "role:read", "MEMBER", alice.memberId)).status).toBe(200);
    expect((await as(admin).put(`/permission-grants/${code}/all-enabled`, { enabled: false })).status).toBe(200);
    // The owner holds it.
    expect((await grant(owner, code, "MEMBER", admin.memberId)).status).toBe(200);
    expect((await revoke(owner, code, "MEMBER", admin.memberId)).status).toBe(200);
    const bulk = await as(owner).post(`/permission-grants/${code}/subjects/bulk-grant`, {
      subjectType: "MEMBER",
      subjectIds: [admin.memberId],
    });
    expect(bulk.body.granted).toBe(1);
    await as(owner).post(`/permission-grants/${code}/subjects/bulk-revoke`, { subjectType: "MEMBER", subjectIds: [admin.memberId] });
    expect((await as(owner).put(`/permission-grants/${code}/all-enabled`, { enabled: true })).status).toBe(200);
    expect((await as(owner).put(`/permission-grants/${code}/all-enabled`, { enabled: false })).status).toBe(200);
  });

  test("a code held through a grant counts as held", async () => {
    const admin = await createMemberFixture(api.server, owner, { permissions: ["role:read", "role:manage"] });
    expect((await grant(owner, "member:read", "MEMBER", admin.memberId)).status).toBe(200);
    expect((await grant(admin, "member:read", "MEMBER", bob.memberId)).status).toBe(200);
    await revoke(owner, "member:read", "MEMBER", bob.memberId);
    await revoke(owner, "member:read", "MEMBER", admin.memberId);
  });
});

describe("POST /api/v1/permission-grants/{code}/subjects/remove — removeGrantSubject", () => {
  test("removes a subject; removing an absent one changes nothing", async () => {
    const g = await newGroup(owner, "Uploaders");
    await grant(owner, "library:upload", "GROUP", g);
    let res = await revoke(owner, "library:upload", "GROUP", g);
    expect(res.status).toBe(200);
    expect(res.body.groups).toEqual([]);
    res = await revoke(owner, "library:upload", "GROUP", g);
    expect(res.status).toBe(200);
  });

  test("returns 400 for an unknown subject, 404 for an unknown code", async () => {
    const p = expectProblem(await revoke(owner, "library:upload", "MEMBER", foreign.memberId), 400, "VALIDATION_FAILED");
    expect(p.errors[0].field).toBe("subjectId");
    expectProblem(await revoke(owner, "nope", "MEMBER", alice.memberId), 404, "NOT_FOUND");
    expectProblem(await as(owner).post("/permission-grants/member:read/subjects/remove", {}), 400, "VALIDATION_FAILED");
  });

  test("returns 401 and 403", async () => {
    expectProblem(
      await api.call("POST", "/api/v1/permission-grants/member:read/subjects/remove", { json: { subjectType: "MEMBER", subjectId: "x" } }),
      401,
      "UNAUTHENTICATED",
    );
    expectProblem(await revoke(plain, "member:read", "MEMBER", alice.memberId), 403, "FORBIDDEN");
  });
});

describe("PUT /api/v1/permission-grants/{code}/all-enabled — setGrantAllEnabled", () => {
  test("sets and clears the flag, visible in listGrants", async () => {
    let res = await as(owner).put("/permission-grants/role:read/all-enabled", { enabled: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "role:read", allEnabled: true });
    let list = (await as(owner).get("/permission-grants")).body.grants;
    expect(list.find((g: any) => g.code === "role:read").allEnabled).toBe(true);
    res = await as(owner).put("/permission-grants/role:read/all-enabled", { enabled: false });
    expect(res.body.allEnabled).toBe(false);
    list = (await as(owner).get("/permission-grants")).body.grants;
    expect(list.find((g: any) => g.code === "role:read").allEnabled).toBe(false);
  });

  test("returns 400 for a missing or non-boolean enabled", async () => {
    for (const body of [{}, { enabled: "yes" }]) {
      const p = expectProblem(await as(owner).put("/permission-grants/role:read/all-enabled", body), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe("enabled");
    }
  });

  test("returns 401, 403 and 404", async () => {
    expectProblem(
      await api.call("PUT", "/api/v1/permission-grants/role:read/all-enabled", { json: { enabled: true } }),
      401,
      "UNAUTHENTICATED",
    );
    expectProblem(await as(plain).put("/permission-grants/role:read/all-enabled", { enabled: true }), 403, "FORBIDDEN");
    expectProblem(await as(owner).put("/permission-grants/role:write/all-enabled", { enabled: true }), 404, "NOT_FOUND");
  });
});

describe("GET /api/v1/permission-grants/{code} — getGrant", () => {
  let tenant: Tenant;
  let members: Member[];
  beforeAll(async () => {
    tenant = await createTenantFixture(api.server);
    members = [];
    for (const name of ["Dora", "Carl", "Anna", "Bert"]) members.push(await createMemberFixture(api.server, tenant, { displayName: name }));
    await as(tenant).post("/permission-grants/member:invite/subjects/bulk-grant", {
      subjectType: "MEMBER",
      subjectIds: members.map((m) => m.memberId),
    });
    for (const name of ["Team B", "Team A", "Crew"]) await grant(tenant, "member:invite", "GROUP", await newGroup(tenant, name));
  });

  test("returns the extended form, groups and members by name, paged alike", async () => {
    const res = await as(tenant).get("/permission-grants/member:invite?pageSize=2");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: "member:invite",
      label: expect.any(String),
      description: expect.any(String),
      allEnabled: false,
      disabled: false,
      groupTotal: 3,
      memberTotal: 4,
      page: 1,
      pageSize: 2,
    });
    expect(res.body.groups.map((g: any) => g.name)).toEqual(["Crew", "Team A"]);
    expect(res.body.members.map((m: any) => m.displayName)).toEqual(["Anna", "Bert"]);
    expect(res.body.members[0]).toEqual({
      id: members[2]!.memberId,
      userId: null,
      displayName: "Anna",
      pictureUrl: null,
      externalMemberCode: null,
    });
    const next = await as(tenant).get("/permission-grants/member:invite?pageSize=2&page=2");
    expect(next.body.groups.map((g: any) => g.name)).toEqual(["Team B"]);
    expect(next.body.members.map((m: any) => m.displayName)).toEqual(["Carl", "Dora"]);
  });

  test("search filters both lists and their totals", async () => {
    let res = await as(tenant).get("/permission-grants/member:invite?search=team");
    expect(res.body.groups.map((g: any) => g.name)).toEqual(["Team A", "Team B"]);
    expect(res.body).toMatchObject({ groupTotal: 2, memberTotal: 0, members: [] });
    res = await as(tenant).get("/permission-grants/member:invite?search=R");
    expect(res.body.groups.map((g: any) => g.name)).toEqual(["Crew"]);
    expect(res.body.members.map((m: any) => m.displayName)).toEqual(["Anna", "Bert", "Carl", "Dora"]);
    res = await as(tenant).get("/permission-grants/member:invite?search=anna");
    expect(res.body).toMatchObject({ groupTotal: 0, memberTotal: 1, members: [{ displayName: "Anna" }] });
  });

  test("a code without subjects is an empty grant", async () => {
    const res = await as(tenant).get("/permission-grants/space:create");
    expect(res.body).toMatchObject({ groups: [], members: [], groupTotal: 0, memberTotal: 0, allEnabled: false });
  });

  test("returns 400 for paging and search bounds", async () => {
    for (const q of ["page=0", "pageSize=101", "search=", `search=${"x".repeat(256)}`]) {
      expectProblem(await as(tenant).get(`/permission-grants/member:invite?${q}`), 400, "VALIDATION_FAILED");
    }
  });

  test("returns 401, 403 and 404 for an unknown code", async () => {
    expectProblem(await api.call("GET", "/api/v1/permission-grants/member:invite"), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).get("/permission-grants/member:invite"), 403, "FORBIDDEN");
    expectProblem(await as(tenant).get("/permission-grants/nope"), 404, "NOT_FOUND");
  });

  test("another tenant's subjects are not shown", async () => {
    const res = await as(other).get("/permission-grants/member:invite");
    expect(res.body).toMatchObject({ groupTotal: 0, memberTotal: 0 });
  });
});

describe("GET /api/v1/permission-grants/{code}/members — listGrantMembers", () => {
  let tenant: Tenant;
  let a: Member;
  let b: Member;
  let c: Member;
  beforeAll(async () => {
    tenant = await createTenantFixture(api.server);
    a = await createMemberFixture(api.server, tenant, { displayName: "Ann" });
    b = await createMemberFixture(api.server, tenant, { displayName: "Ben", userId: "benji" });
    c = await createMemberFixture(api.server, tenant, { displayName: "Cat" });
    const g = await newGroup(tenant, "G", [a.memberId, b.memberId]);
    await grant(tenant, "library:upload", "GROUP", g);
    await grant(tenant, "library:upload", "MEMBER", a.memberId);
  });

  test("lists direct and group holders once each, by display name", async () => {
    const res = await as(tenant).get("/permission-grants/library:upload/members");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, page: 1, pageSize: 20, totalPages: 1 });
    expect(res.body.members).toEqual([
      { id: a.memberId, userId: null, displayName: "Ann", email: a.email, pictureUrl: null, externalMemberCode: null, affiliation: null },
      {
        id: b.memberId,
        userId: "benji",
        displayName: "Ben",
        email: b.email,
        pictureUrl: null,
        externalMemberCode: null,
        affiliation: null,
      },
    ]);
  });

  test("allEnabled makes every active member a holder", async () => {
    await as(tenant).put("/permission-grants/library:upload/all-enabled", { enabled: true });
    const res = await as(tenant).get("/permission-grants/library:upload/members?pageSize=2&page=2");
    expect(res.body).toMatchObject({ total: 4, totalPages: 2 });
    expect(res.body.members.map((m: any) => m.displayName)).toEqual(["Cat", "Owner"]);
    await as(tenant).put("/permission-grants/library:upload/all-enabled", { enabled: false });
    expect((await as(tenant).get("/permission-grants/library:upload/members")).body.total).toBe(2);
  });

  test("search matches display name, userId and e-mail", async () => {
    expect((await as(tenant).get("/permission-grants/library:upload/members?search=BENJ")).body.members.map((m: any) => m.id)).toEqual([
      b.memberId,
    ]);
    expect((await as(tenant).get(`/permission-grants/library:upload/members?search=${a.email}`)).body.total).toBe(1);
    expect(c.memberId).toBeTruthy();
  });

  test("returns 400 for paging and search bounds", async () => {
    for (const q of ["page=0", "pageSize=0", "search="]) {
      expectProblem(await as(tenant).get(`/permission-grants/library:upload/members?${q}`), 400, "VALIDATION_FAILED");
    }
  });

  test("returns 401, 403 and 404", async () => {
    expectProblem(await api.call("GET", "/api/v1/permission-grants/library:upload/members"), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).get("/permission-grants/library:upload/members"), 403, "FORBIDDEN");
    expectProblem(await as(tenant).get("/permission-grants/nope/members"), 404, "NOT_FOUND");
    expect((await as(other).get("/permission-grants/library:upload/members")).body.total).toBe(0);
  });
});

describe("POST /api/v1/permission-grants/{code}/subjects/bulk-grant — bulkGrant", () => {
  test("grants the new subjects and skips present, repeated and unknown ones", async () => {
    await grant(owner, "member:remove", "MEMBER", alice.memberId);
    const res = await as(owner).post("/permission-grants/member:remove/subjects/bulk-grant", {
      subjectType: "MEMBER",
      subjectIds: [alice.memberId, bob.memberId, bob.memberId, "nope", foreign.memberId],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      granted: 1,
      skipped: [
        { subjectId: alice.memberId, reason: "ALREADY_GRANTED" },
        { subjectId: bob.memberId, reason: "ALREADY_GRANTED" },
        { subjectId: "nope", reason: "NOT_FOUND" },
        { subjectId: foreign.memberId, reason: "NOT_FOUND" },
      ],
    });
    expect((await as(owner).get("/permission-grants/member:remove")).body.memberTotal).toBe(2);
  });

  test("groups: a plain group is NOT_FOUND", async () => {
    const g = await newGroup(owner, "Grant group");
    const p = await newGroup(owner, "Plain group", [], "/plain-groups");
    const res = await as(owner).post("/permission-grants/member:remove/subjects/bulk-grant", { subjectType: "GROUP", subjectIds: [g, p] });
    expect(res.body).toEqual({ granted: 1, skipped: [{ subjectId: p, reason: "NOT_FOUND" }] });
  });

  test("returns 400 for 0 or 501 ids, an empty id, a missing subjectType", async () => {
    const path = "/permission-grants/member:remove/subjects/bulk-grant";
    for (const [body, field] of [
      [{ subjectType: "MEMBER", subjectIds: [] }, "subjectIds"],
      [{ subjectType: "MEMBER", subjectIds: Array.from({ length: 501 }, (_, i) => `x${i}`) }, "subjectIds"],
      [{ subjectType: "MEMBER", subjectIds: [""] }, "subjectIds[0]"],
      [{ subjectIds: ["x"] }, "subjectType"],
    ] as const) {
      const p = expectProblem(await as(owner).post(path, body), 400, "VALIDATION_FAILED");
      expect(p.errors[0].field).toBe(field);
    }
    const ok = await as(owner).post(path, { subjectType: "MEMBER", subjectIds: Array.from({ length: 500 }, (_, i) => `x${i}`) });
    expect(ok.body.skipped).toHaveLength(500);
  });

  test("returns 401, 403 and 404", async () => {
    const body = { subjectType: "MEMBER", subjectIds: [alice.memberId] };
    expectProblem(
      await api.call("POST", "/api/v1/permission-grants/member:remove/subjects/bulk-grant", { json: body }),
      401,
      "UNAUTHENTICATED",
    );
    expectProblem(await as(plain).post("/permission-grants/member:remove/subjects/bulk-grant", body), 403, "FORBIDDEN");
    expectProblem(await as(owner).post("/permission-grants/nope/subjects/bulk-grant", body), 404, "NOT_FOUND");
  });
});

describe("POST /api/v1/permission-grants/{code}/subjects/bulk-revoke — bulkRevoke", () => {
  test("revokes the granted subjects and counts them", async () => {
    await as(owner).post("/permission-grants/tenant-settings:manage/subjects/bulk-grant", {
      subjectType: "MEMBER",
      subjectIds: [alice.memberId, bob.memberId],
    });
    const res = await as(owner).post("/permission-grants/tenant-settings:manage/subjects/bulk-revoke", {
      subjectType: "MEMBER",
      subjectIds: [alice.memberId, alice.memberId, "nope", plain.memberId],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 1 });
    const after = (await as(owner).get("/permission-grants/tenant-settings:manage")).body;
    expect(after.members.map((m: any) => m.id)).toEqual([bob.memberId]);
  });

  test("returns 400 for bounds, 401, 403 and 404", async () => {
    const path = "/permission-grants/tenant-settings:manage/subjects/bulk-revoke";
    expectProblem(await as(owner).post(path, { subjectType: "MEMBER", subjectIds: [] }), 400, "VALIDATION_FAILED");
    expectProblem(await as(owner).post(path, { subjectType: "X", subjectIds: ["a"] }), 400, "VALIDATION_FAILED");
    const body = { subjectType: "MEMBER", subjectIds: [bob.memberId] };
    expectProblem(await api.call("POST", `/api/v1${path}`, { json: body }), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).post(path, body), 403, "FORBIDDEN");
    expectProblem(await as(owner).post("/permission-grants/nope/subjects/bulk-revoke", body), 404, "NOT_FOUND");
  });
});

describe("GET /api/v1/permission-grants — listGrants", () => {
  test("one item per permission value in enumeration order, with subject totals", async () => {
    const tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    await grant(tenant, "role:manage", "MEMBER", m.memberId);
    await grant(tenant, "role:manage", "GROUP", await newGroup(tenant, "G"));
    await grant(tenant, "role:manage", "GROUP", await newGroup(tenant, "H"));
    const res = await as(tenant).get("/permission-grants");
    expect(res.status).toBe(200);
    expect(res.body.grants.map((g: any) => g.code)).toEqual([...PERMISSIONS]);
    expect(res.body.grants.find((g: any) => g.code === "role:manage")).toEqual({
      code: "role:manage",
      label: expect.any(String),
      description: expect.any(String),
      allEnabled: false,
      disabled: false,
      groupTotal: 2,
      memberTotal: 1,
    });
    expect(res.body.grants.find((g: any) => g.code === "member:read")).toMatchObject({ groupTotal: 0, memberTotal: 0 });
  });

  test("returns 401 and 403", async () => {
    expectProblem(await api.call("GET", "/api/v1/permission-grants"), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).get("/permission-grants"), 403, "FORBIDDEN");
  });
});
