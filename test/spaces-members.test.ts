import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, fieldOf, useServer } from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant;
let other: Tenant;
let alice: Member;
let bob: Member;
let carol: Member;
let foreign: Member;

beforeAll(async () => {
  owner = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  alice = await createMemberFixture(api.server, owner, { displayName: "Alice", userId: "alice" });
  bob = await createMemberFixture(api.server, owner, { displayName: "Bob" });
  carol = await createMemberFixture(api.server, owner, { displayName: "Carol" });
  foreign = await createMemberFixture(api.server, other, { displayName: "Foreign" });
});

async function newSpace(who: { token: string } = owner, body: Record<string, unknown> = {}) {
  const res = await as(who).post("/spaces", { name: "Space", ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}
async function enrol(spaceId: string, ids: string[], role = "PARTICIPANT") {
  const res = await as(owner).post(`/spaces/${spaceId}/members`, { userIds: ids, role });
  expect(res.status).toBe(200);
}
const memberIds = async (spaceId: string) =>
  (await as(owner).get(`/spaces/${spaceId}/members?limit=100`)).body.members.map((m: any) => m.id) as string[];
/** listSpaceEnrollmentHistory as [memberId, event, role], newest first. */
const history = async (spaceId: string): Promise<string[][]> =>
  (await as(owner).get(`/spaces/${spaceId}/enrollment-history?limit=100`)).body.entries.map((e: any) => [e.memberId, e.event, e.role]);

/** The common access answers of a space route: participant 403 (for admin routes), invisible 404, other tenant 404, 401. */
async function checkAccess(method: string, path: (spaceId: string) => string, json: unknown, adminOnly = true) {
  const s = await newSpace();
  const call = (who: { token: string }, p: string) =>
    api.call(method, `/api/v1${p}`, { token: who.token, ...(json === undefined ? {} : { json }) });
  expectProblem(await call(carol, path(s)), 404, "NOT_FOUND"); // not enrolled, private space
  if (adminOnly) {
    await enrol(s, [carol.memberId]);
    expectProblem(await call(carol, path(s)), 403, "FORBIDDEN");
  } else {
    await as(owner).patch(`/spaces/${s}`, { isPublic: true });
    expectProblem(await call(carol, path(s)), 403, "FORBIDDEN"); // visible but not enrolled
  }
  const theirs = await newSpace(other);
  expectProblem(await call(owner, path(theirs)), 404, "NOT_FOUND");
  expectProblem(await call(owner, path("nope")), 404, "NOT_FOUND");
  expectProblem(await anon(method, path(s), json), 401, "UNAUTHENTICATED");
}

describe("GET /api/v1/spaces/{spaceId}/members — listSpaceMembers", () => {
  test("pages in enrolment order with a cursor bound to the space; tampered or foreign cursors are 400", async () => {
    const s = await newSpace();
    await enrol(s, [alice.memberId, bob.memberId]);
    await enrol(s, [carol.memberId], "ADMIN");
    const first = await as(alice).get(`/spaces/${s}/members?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.members).toHaveLength(2);
    expect(first.body.members[0]).toEqual({
      id: owner.memberId,
      userId: null,
      displayName: "Owner",
      email: owner.email,
      role: "ADMIN",
      isOwner: true,
    });
    const second = await as(alice).get(`/spaces/${s}/members?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.members, ...second.body.members];
    expect(all.map((m: any) => m.id).sort()).toEqual([owner.memberId, alice.memberId, bob.memberId, carol.memberId].sort());
    expect(all.find((m: any) => m.id === carol.memberId).role).toBe("ADMIN");
    expect(all.find((m: any) => m.id === alice.memberId)).toMatchObject({ userId: "alice", role: "PARTICIPANT", isOwner: false });
    const cursor = first.body.nextCursor as string;
    const bad = `${cursor.slice(0, -1)}${cursor.endsWith("A") ? "B" : "A"}`;
    expect(fieldOf(await as(alice).get(`/spaces/${s}/members?cursor=${encodeURIComponent(bad)}`))).toBe("cursor");
    const s2 = await newSpace();
    expect(fieldOf(await as(owner).get(`/spaces/${s2}/members?cursor=${encodeURIComponent(cursor)}`))).toBe("cursor");
    expect(fieldOf(await as(alice).get(`/spaces/${s}/members?limit=0`))).toBe("limit");
    expect(fieldOf(await as(alice).get(`/spaces/${s}/members?limit=101`))).toBe("limit");
  });

  test("returns 403 to a member who sees but is not enrolled, 404 invisible or other tenant, 401", async () => {
    await checkAccess("GET", (s) => `/spaces/${s}/members`, undefined, false);
  });
});

describe("POST /api/v1/spaces/{spaceId}/members — addSpaceMembers", () => {
  test("enrols with the role (default PARTICIPANT), leaves the enrolled unchanged, returns the first page", async () => {
    const s = await newSpace();
    const res = await as(owner).post(`/spaces/${s}/members`, { userIds: [alice.memberId, alice.memberId] });
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: any) => [m.id, m.role])).toEqual([
      [owner.memberId, "ADMIN"],
      [alice.memberId, "PARTICIPANT"],
    ]);
    expect(res.body.nextCursor).toBeNull();
    const again = await as(owner).post(`/spaces/${s}/members`, { userIds: [alice.memberId, bob.memberId], role: "ADMIN" });
    expect(again.body.members.map((m: any) => [m.id, m.role])).toEqual([
      [owner.memberId, "ADMIN"],
      [alice.memberId, "PARTICIPANT"],
      [bob.memberId, "ADMIN"],
    ]);
    expect((await as(owner).get(`/spaces/${s}`)).body).toMatchObject({ adminCount: 2, participantCount: 1 });
  });

  test("returns at most 30 members and a cursor to the rest", async () => {
    const tenant = await createTenantFixture(api.server);
    const ids: string[] = [];
    for (let i = 0; i < 31; i++) ids.push((await createMemberFixture(api.server, tenant)).memberId);
    const s = await newSpace(tenant);
    const res = await as(tenant).post(`/spaces/${s}/members`, { userIds: ids });
    expect(res.body.members).toHaveLength(30);
    const rest = await as(tenant).get(`/spaces/${s}/members?cursor=${encodeURIComponent(res.body.nextCursor)}`);
    expect(rest.body.members).toHaveLength(2);
    expect(rest.body.nextCursor).toBeNull();
  });

  test("returns 400 for each bound, unknown or foreign member ids, and blocked members", async () => {
    const s = await newSpace();
    const cases: [unknown, string][] = [
      [{}, "userIds"],
      [{ userIds: [] }, "userIds"],
      [{ userIds: Array.from({ length: 501 }, (_, i) => `m${i}`) }, "userIds"],
      [{ userIds: [alice.memberId], role: "OWNER" }, "role"],
      [{ userIds: [alice.memberId, "nope"] }, "userIds[1]"],
      [{ userIds: [foreign.memberId] }, "userIds[0]"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(owner).post(`/spaces/${s}/members`, body))).toBe(field);
    await as(owner).post(`/spaces/${s}/blocks`, { userId: bob.memberId });
    expect(fieldOf(await as(owner).post(`/spaces/${s}/members`, { userIds: [alice.memberId, bob.memberId] }))).toBe("userIds[1]");
    expect(await memberIds(s)).toEqual([owner.memberId]);
  });

  test("returns 403 for a participant, 404 invisible or other tenant, 401", async () => {
    await checkAccess("POST", (s) => `/spaces/${s}/members`, { userIds: [alice.memberId] });
  });
});

describe("PATCH /api/v1/spaces/{spaceId}/members/{userPkId} — updateSpaceMemberRole", () => {
  test("changes the role; the owner cannot be changed; not enrolled is 404", async () => {
    const s = await newSpace();
    await enrol(s, [alice.memberId]);
    const res = await as(owner).patch(`/spaces/${s}/members/${alice.memberId}`, { role: "ADMIN" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: alice.memberId,
      userId: "alice",
      displayName: "Alice",
      email: alice.email,
      role: "ADMIN",
      isOwner: false,
    });
    // the new ADMIN may now act as one
    expect((await as(alice).patch(`/spaces/${s}`, { name: "By Alice" })).status).toBe(200);
    expectProblem(await as(alice).patch(`/spaces/${s}/members/${owner.memberId}`, { role: "PARTICIPANT" }), 409, "INVALID_STATE");
    expectProblem(await as(owner).patch(`/spaces/${s}/members/${bob.memberId}`, { role: "ADMIN" }), 404, "NOT_FOUND");
    expect(fieldOf(await as(owner).patch(`/spaces/${s}/members/${alice.memberId}`, { role: "admin" }))).toBe("role");
    expect(fieldOf(await as(owner).patch(`/spaces/${s}/members/${alice.memberId}`, {}))).toBe("role");
  });

  test("returns 403 for a participant, 404 invisible or other tenant, 401", async () => {
    await checkAccess("PATCH", (s) => `/spaces/${s}/members/${alice.memberId}`, { role: "ADMIN" });
  });
});

describe("DELETE /api/v1/spaces/{spaceId}/members/{userPkId} — removeSpaceMember", () => {
  test("removes the enrolment (not a block); the owner cannot be removed; not enrolled is 404", async () => {
    const s = await newSpace();
    await enrol(s, [alice.memberId, bob.memberId]);
    const res = await as(owner).del(`/spaces/${s}/members/${alice.memberId}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect(await memberIds(s)).toEqual([owner.memberId, bob.memberId]);
    expect((await as(owner).get(`/spaces/${s}/blocks`)).body.blocks).toEqual([]);
    expectProblem(await as(owner).del(`/spaces/${s}/members/${alice.memberId}`), 404, "NOT_FOUND");
    expectProblem(await as(owner).del(`/spaces/${s}/members/${owner.memberId}`), 409, "INVALID_STATE");
    await enrol(s, [alice.memberId]); // may be added again
    expect(await memberIds(s)).toContain(alice.memberId);
  });

  test("keeps an enrolment-history record only when the space retains history", async () => {
    const keep = await newSpace(owner, { retainEnrollmentHistory: true });
    const drop = await newSpace(owner);
    for (const s of [keep, drop]) {
      await enrol(s, [alice.memberId]);
      await as(owner).del(`/spaces/${s}/members/${alice.memberId}`);
    }
    expect(await history(keep)).toEqual([
      [alice.memberId, "REMOVED", "PARTICIPANT"],
      [alice.memberId, "JOINED", "PARTICIPANT"],
      [owner.memberId, "JOINED", "ADMIN"],
    ]);
    expect(await history(drop)).toEqual([]);
  });

  test("returns 403 for a participant, 404 invisible or other tenant, 401", async () => {
    await checkAccess("DELETE", (s) => `/spaces/${s}/members/${alice.memberId}`, undefined);
  });
});

describe("POST /api/v1/spaces/{spaceId}/leave — leaveSpace", () => {
  test("a member leaves; a PARTICIPANT of an exitRestricted space may not; an ADMIN may; the owner never", async () => {
    const s = await newSpace();
    await enrol(s, [alice.memberId]);
    const res = await as(alice).post(`/spaces/${s}/leave`);
    expect(res.status).toBe(204);
    expect(await memberIds(s)).toEqual([owner.memberId]);
    expectProblem(await as(alice).post(`/spaces/${s}/leave`), 404, "NOT_FOUND"); // private again: invisible

    const r = await newSpace(owner, { exitRestricted: true, retainEnrollmentHistory: true });
    await enrol(r, [alice.memberId]);
    await enrol(r, [bob.memberId], "ADMIN");
    expectProblem(await as(alice).post(`/spaces/${r}/leave`), 409, "EXIT_RESTRICTED");
    expect((await as(bob).post(`/spaces/${r}/leave`)).status).toBe(204);
    expectProblem(await as(owner).post(`/spaces/${r}/leave`), 409, "INVALID_STATE");
    expect(await memberIds(r)).toEqual([owner.memberId, alice.memberId]);
    expect((await history(r)).filter(([, event]) => event !== "JOINED")).toEqual([[bob.memberId, "LEFT", "ADMIN"]]);
  });

  test("returns 403 to a member who sees but is not enrolled, 404 invisible or other tenant, 401", async () => {
    await checkAccess("POST", (s) => `/spaces/${s}/leave`, {}, false);
  });
});

describe("join codes — createSpaceJoinCode, updateSpaceJoinCode, listSpaceJoinCodes", () => {
  test("creates codes with defaults, role, password and expiry; lists them newest first; updates enabled and password", async () => {
    const s = await newSpace();
    const plain = await as(owner).post(`/spaces/${s}/join-codes`);
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual({
      id: expect.any(String),
      role: "PARTICIPANT",
      code: expect.stringMatching(/^[A-Z2-9]{10}$/),
      link: expect.stringContaining(encodeURIComponent(plain.body.code)),
      enabled: true,
      password: null,
      expiresAt: null,
      createdAt: expect.any(String),
    });
    const admin = await as(owner).post(`/spaces/${s}/join-codes`, { role: "ADMIN", password: "pw", expiresInDays: 7 });
    expect(admin.body).toMatchObject({ role: "ADMIN", password: "pw" });
    const days = (Date.parse(admin.body.expiresAt) - Date.parse(admin.body.createdAt)) / 86_400_000;
    expect(days).toBe(7);
    expect((await as(owner).post(`/spaces/${s}/join-codes`, { expiresInDays: null })).body.expiresAt).toBeNull();
    const list = await as(owner).get(`/spaces/${s}/join-codes`);
    expect(list.body.joinCodes).toHaveLength(3);
    expect(list.body.joinCodes[1]).toEqual(admin.body);
    const upd = await as(owner).patch(`/spaces/${s}/join-codes/${admin.body.id}`, { enabled: false, password: null });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...admin.body, enabled: false, password: null });
    expect((await as(owner).patch(`/spaces/${s}/join-codes/${admin.body.id}`, { password: "new" })).body).toMatchObject({
      enabled: false,
      password: "new",
    });
    expect((await as(owner).get(`/spaces/${s}/join-codes`)).body.joinCodes[1]).toMatchObject({ enabled: false, password: "new" });
  });

  test("a code password has no bound of its own (s|null): a long one is kept, an empty one means none", async () => {
    const s = await newSpace();
    const long = await as(owner).post(`/spaces/${s}/join-codes`, { password: "p".repeat(300) });
    expect(long.status).toBe(201);
    expect(long.body.password).toBe("p".repeat(300));
    const empty = await as(owner).post(`/spaces/${s}/join-codes`, { password: "" });
    expect(empty.status).toBe(201);
    expect(empty.body.password).toBeNull();
    expect((await as(owner).patch(`/spaces/${s}/join-codes/${long.body.id}`, { password: "" })).body.password).toBeNull();
  });

  test("returns 400 for each bound; 404 for an unknown code or one of another space", async () => {
    const s = await newSpace();
    const cases: [unknown, string][] = [
      [{ role: "OWNER" }, "role"],
      [{ expiresInDays: 0 }, "expiresInDays"],
      [{ expiresInDays: 3651 }, "expiresInDays"],
      [{ expiresInDays: 1.5 }, "expiresInDays"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(owner).post(`/spaces/${s}/join-codes`, body))).toBe(field);
    const code = (await as(owner).post(`/spaces/${s}/join-codes`)).body;
    expect(fieldOf(await as(owner).patch(`/spaces/${s}/join-codes/${code.id}`, { enabled: "no" }))).toBe("enabled");
    expectProblem(await as(owner).patch(`/spaces/${s}/join-codes/nope`, { enabled: false }), 404, "NOT_FOUND");
    const s2 = await newSpace();
    expectProblem(await as(owner).patch(`/spaces/${s2}/join-codes/${code.id}`, { enabled: false }), 404, "NOT_FOUND");
  });

  test("return 403 for a participant, 404 invisible or other tenant, 401", async () => {
    await checkAccess("POST", (s) => `/spaces/${s}/join-codes`, {});
    await checkAccess("GET", (s) => `/spaces/${s}/join-codes`, undefined);
    await checkAccess("PATCH", (s) => `/spaces/${s}/join-codes/x`, { enabled: false });
  });
});

describe("POST /api/v1/spaces/join — joinSpaceWithCode", () => {
  test("enrols with the code's role and returns the space and the membership; already enrolled stays unchanged", async () => {
    const s = await newSpace();
    const code = (await as(owner).post(`/spaces/${s}/join-codes`, { role: "ADMIN" })).body.code;
    const res = await as(alice).post("/spaces/join", { code: code.toLowerCase() });
    expect(res.status).toBe(200);
    expect(res.body.space).toMatchObject({ id: s, adminCount: 2 });
    expect(res.body.member).toEqual({
      id: alice.memberId,
      userId: "alice",
      displayName: "Alice",
      email: alice.email,
      role: "ADMIN",
      isOwner: false,
    });
    await as(owner).patch(`/spaces/${s}/members/${alice.memberId}`, { role: "PARTICIPANT" });
    const again = await as(alice).post("/spaces/join", { code });
    expect(again.body.member.role).toBe("PARTICIPANT");
    expect((await as(alice).get(`/spaces/${s}`)).status).toBe(200);
  });

  test("returns 400 INVALID_CODE for an unknown, disabled or expired code, or a wrong password", async () => {
    const s = await newSpace();
    const field = async (body: unknown) => expectProblem(await as(bob).post("/spaces/join", body), 400, "INVALID_CODE").errors[0].field;
    expect(await field({ code: "NOSUCHCODE" })).toBe("code");
    const off = (await as(owner).post(`/spaces/${s}/join-codes`)).body;
    await as(owner).patch(`/spaces/${s}/join-codes/${off.id}`, { enabled: false });
    expect(await field({ code: off.code })).toBe("code");
    const old = (await as(owner).post(`/spaces/${s}/join-codes`, { expiresInDays: 1 })).body;
    api.server.rt.tenants.use(owner.tenantId, (h) =>
      h.sqlite.query("UPDATE space_join_codes SET expires_at = ? WHERE id = ?").run(Date.now() - 1, old.id),
    );
    expect(await field({ code: old.code })).toBe("code");
    const locked = (await as(owner).post(`/spaces/${s}/join-codes`, { password: "secret" })).body;
    expect(await field({ code: locked.code })).toBe("password");
    expect(await field({ code: locked.code, password: "Secret" })).toBe("password");
    expect(await memberIds(s)).toEqual([owner.memberId]);
    expect((await as(bob).post("/spaces/join", { code: locked.code, password: "secret" })).body.member.role).toBe("PARTICIPANT");
    // a tenant of another tenant's code is unknown here
    const theirs = await newSpace(other);
    const theirCode = (await as(other).post(`/spaces/${theirs}/join-codes`)).body.code;
    expect(await field({ code: theirCode })).toBe("code");
  });

  test("returns 403 when blocked, 409 for an inactive space, 400 for a missing code, 401", async () => {
    const s = await newSpace();
    const code = (await as(owner).post(`/spaces/${s}/join-codes`)).body.code;
    await as(owner).post(`/spaces/${s}/blocks`, { userId: carol.memberId });
    expectProblem(await as(carol).post("/spaces/join", { code }), 403, "FORBIDDEN");
    await as(owner).patch(`/spaces/${s}`, { isActive: false });
    expectProblem(await as(bob).post("/spaces/join", { code }), 409, "INVALID_STATE");
    expect(fieldOf(await as(bob).post("/spaces/join", {}))).toBe("code");
    expect(fieldOf(await as(bob).post("/spaces/join", { code: "" }))).toBe("code");
    expectProblem(await anon("POST", "/spaces/join", { code }), 401, "UNAUTHENTICATED");
  });
});

describe("blocks — blockSpaceUser, listSpaceBlocks, unblockSpaceUser", () => {
  test("blocking removes the enrolment and lists all blocks; unblocking does not re-enrol", async () => {
    const s = await newSpace(owner, { retainEnrollmentHistory: true });
    await enrol(s, [alice.memberId]);
    const res = await as(owner).post(`/spaces/${s}/blocks`, { userId: alice.memberId, reason: "spam" });
    expect(res.status).toBe(201);
    expect(res.body.blocks).toEqual([
      { id: expect.any(String), userId: alice.memberId, displayName: "Alice", reason: "spam", createdAt: expect.any(String) },
    ]);
    expect(await memberIds(s)).toEqual([owner.memberId]);
    const two = await as(owner).post(`/spaces/${s}/blocks`, { userId: bob.memberId });
    expect(two.body.blocks.map((b: any) => [b.userId, b.reason])).toEqual([
      [alice.memberId, "spam"],
      [bob.memberId, null],
    ]);
    expect((await as(owner).get(`/spaces/${s}/blocks`)).body).toEqual(two.body);
    expectProblem(await as(owner).post(`/spaces/${s}/blocks`, { userId: alice.memberId }), 409, "ALREADY_EXISTS");
    expectProblem(await as(owner).post(`/spaces/${s}/blocks`, { userId: owner.memberId }), 409, "INVALID_STATE");
    const un = await as(owner).del(`/spaces/${s}/blocks/${alice.memberId}`);
    expect(un.status).toBe(200);
    expect(un.body.blocks.map((b: any) => b.userId)).toEqual([bob.memberId]);
    expect(await memberIds(s)).toEqual([owner.memberId]);
    expectProblem(await as(owner).del(`/spaces/${s}/blocks/${alice.memberId}`), 404, "NOT_FOUND");
    expect((await history(s)).filter(([, event]) => event !== "JOINED")).toEqual([[alice.memberId, "BLOCKED", "PARTICIPANT"]]);
  });

  test("returns 400 for each bound and an unknown or foreign userId", async () => {
    const s = await newSpace();
    const cases: [unknown, string][] = [
      [{}, "userId"],
      [{ userId: "" }, "userId"],
      [{ userId: "nope" }, "userId"],
      [{ userId: foreign.memberId }, "userId"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(owner).post(`/spaces/${s}/blocks`, body))).toBe(field);
  });

  test("return 403 for a participant, 404 invisible or other tenant, 401", async () => {
    await checkAccess("POST", (s) => `/spaces/${s}/blocks`, { userId: bob.memberId });
    await checkAccess("GET", (s) => `/spaces/${s}/blocks`, undefined);
    await checkAccess("DELETE", (s) => `/spaces/${s}/blocks/${bob.memberId}`, undefined);
  });
});

describe("group sets — list, create, update, delete", () => {
  test("creates a set; ADMINs list every group, participants only their own", async () => {
    const s = await newSpace();
    await enrol(s, [alice.memberId, bob.memberId, carol.memberId]);
    const res = await as(owner).post(`/spaces/${s}/group-sets`, {
      name: "Teams",
      groups: [
        { name: "Red", memberIds: [alice.memberId, bob.memberId] },
        { name: "Blue", memberIds: [] },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      spaceId: s,
      name: "Teams",
      groups: [
        {
          id: expect.any(String),
          name: "Red",
          members: [
            { id: alice.memberId, userId: "alice", displayName: "Alice" },
            { id: bob.memberId, userId: null, displayName: "Bob" },
          ],
        },
        { id: expect.any(String), name: "Blue", members: [] },
      ],
      createdAt: expect.any(String),
    });
    expect((await as(owner).get(`/spaces/${s}/group-sets`)).body).toEqual({ groupSets: [res.body] });
    expect((await as(alice).get(`/spaces/${s}/group-sets`)).body.groupSets[0].groups.map((g: any) => g.name)).toEqual(["Red"]);
    expect((await as(carol).get(`/spaces/${s}/group-sets`)).body.groupSets[0].groups).toEqual([]);
    // leaving the space leaves its groups
    await as(bob).post(`/spaces/${s}/leave`);
    expect((await as(owner).get(`/spaces/${s}/group-sets`)).body.groupSets[0].groups[0].members.map((m: any) => m.id)).toEqual([
      alice.memberId,
    ]);
  });

  test("PUT keeps groups with an id, creates those without, removes absent ones", async () => {
    const s = await newSpace();
    await enrol(s, [alice.memberId, bob.memberId, carol.memberId]);
    const set = (
      await as(owner).post(`/spaces/${s}/group-sets`, {
        name: "Teams",
        groups: [
          { name: "Red", memberIds: [alice.memberId] },
          { name: "Blue", memberIds: [bob.memberId] },
        ],
      })
    ).body;
    const [red, blue] = set.groups;
    const res = await as(owner).put(`/spaces/${s}/group-sets/${set.id}`, {
      name: "Teams 2",
      groups: [
        { id: red.id, name: "Crimson", memberIds: [bob.memberId] },
        { name: "Green", memberIds: [alice.memberId, carol.memberId] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Teams 2");
    expect(
      res.body.groups.map((g: any) => [
        g.id === red.id ? "red" : g.id === blue.id ? "blue" : "new",
        g.name,
        g.members.map((m: any) => m.id),
      ]),
    ).toEqual([
      ["red", "Crimson", [bob.memberId]],
      ["new", "Green", [alice.memberId, carol.memberId]],
    ]);
    expect((await as(owner).get(`/spaces/${s}/group-sets`)).body.groupSets).toEqual([res.body]);
    expect(
      fieldOf(await as(owner).put(`/spaces/${s}/group-sets/${set.id}`, { name: "x", groups: [{ id: blue.id, name: "B", memberIds: [] }] })),
    ).toBe("groups[0].id");
    expectProblem(
      await as(owner).put(`/spaces/${s}/group-sets/nope`, { name: "x", groups: [{ name: "x", memberIds: [] }] }),
      404,
      "NOT_FOUND",
    );
  });

  test("returns 400 for each bound, members not enrolled, and a member in two groups", async () => {
    const s = await newSpace();
    await enrol(s, [alice.memberId]);
    const g = (memberIds: string[] = []) => ({ name: "G", memberIds });
    const cases: [unknown, string][] = [
      [{ groups: [g()] }, "name"],
      [{ name: "", groups: [g()] }, "name"],
      [{ name: "x".repeat(256), groups: [g()] }, "name"],
      [{ name: "S" }, "groups"],
      [{ name: "S", groups: [] }, "groups"],
      [{ name: "S", groups: Array.from({ length: 201 }, () => g()) }, "groups"],
      [{ name: "S", groups: [{ name: "", memberIds: [] }] }, "groups[0].name"],
      [{ name: "S", groups: [{ name: "x".repeat(256), memberIds: [] }] }, "groups[0].name"],
      [{ name: "S", groups: [{ name: "G" }] }, "groups[0].memberIds"],
      [{ name: "S", groups: [g(Array.from({ length: 501 }, (_, i) => `m${i}`))] }, "groups[0].memberIds"],
      [{ name: "S", groups: [g([alice.memberId, bob.memberId])] }, "groups[0].memberIds[1]"],
      [{ name: "S", groups: [g([foreign.memberId])] }, "groups[0].memberIds[0]"],
      [{ name: "S", groups: [g([alice.memberId]), g([alice.memberId])] }, "groups[1].memberIds[0]"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(owner).post(`/spaces/${s}/group-sets`, body))).toBe(field);
    expect((await as(owner).get(`/spaces/${s}/group-sets`)).body.groupSets).toEqual([]);
  });

  test("DELETE removes the set; unknown set 404", async () => {
    const s = await newSpace();
    const set = (await as(owner).post(`/spaces/${s}/group-sets`, { name: "S", groups: [{ name: "G", memberIds: [owner.memberId] }] })).body;
    const res = await as(owner).del(`/spaces/${s}/group-sets/${set.id}`);
    expect(res.status).toBe(204);
    expect((await as(owner).get(`/spaces/${s}/group-sets`)).body.groupSets).toEqual([]);
    expectProblem(await as(owner).del(`/spaces/${s}/group-sets/${set.id}`), 404, "NOT_FOUND");
    const s2 = await newSpace();
    const set2 = (await as(owner).post(`/spaces/${s2}/group-sets`, { name: "S", groups: [{ name: "G", memberIds: [] }] })).body;
    expectProblem(await as(owner).del(`/spaces/${s}/group-sets/${set2.id}`), 404, "NOT_FOUND");
  });

  test("return 403 (participant for writes, non-member for list), 404 invisible or other tenant, 401", async () => {
    const body = { name: "S", groups: [{ name: "G", memberIds: [] }] };
    await checkAccess("GET", (s) => `/spaces/${s}/group-sets`, undefined, false);
    await checkAccess("POST", (s) => `/spaces/${s}/group-sets`, body);
    await checkAccess("PUT", (s) => `/spaces/${s}/group-sets/x`, body);
    await checkAccess("DELETE", (s) => `/spaces/${s}/group-sets/x`, undefined);
  });
});

describe("PUT /api/v1/spaces/{spaceId}/field-values — setSpaceFieldValues", () => {
  test("stores values by field type and replaces the set; the space shows them", async () => {
    const tenant = await createTenantFixture(api.server);
    const f = async (body: Record<string, unknown>) => (await as(tenant).post("/space-fields", body)).body.id as string;
    const text = await f({ key: "dept", label: "Dept", type: "SHORT_TEXT" });
    const num = await f({ key: "credits", label: "Credits", type: "NUMBER" });
    const date = await f({ key: "starts", label: "Starts", type: "DATE" });
    const sel = await f({ key: "level", label: "Level", type: "SELECT", options: ["A", "B"] });
    const s = await newSpace(tenant);
    const res = await as(tenant).put(`/spaces/${s}/field-values`, {
      values: [
        { fieldId: num, valueNumber: 3 },
        { fieldId: text, valueText: "Math" },
        { fieldId: date, valueDate: "2025-03-01T09:00:00+09:00" },
        { fieldId: sel, valueText: "B" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.values).toEqual([
      { fieldId: text, valueText: "Math", valueNumber: null, valueDate: null },
      { fieldId: num, valueText: null, valueNumber: 3, valueDate: null },
      { fieldId: date, valueText: null, valueNumber: null, valueDate: "2025-03-01T00:00:00.000Z" },
      { fieldId: sel, valueText: "B", valueNumber: null, valueDate: null },
    ]);
    expect((await as(tenant).get(`/spaces/${s}`)).body.fieldValues).toEqual(res.body.values);
    const replaced = await as(tenant).put(`/spaces/${s}/field-values`, { values: [{ fieldId: num, valueNumber: 4 }, { fieldId: text }] });
    expect(replaced.body.values).toEqual([{ fieldId: num, valueText: null, valueNumber: 4, valueDate: null }]);
    expect((await as(tenant).get("/spaces")).body.spaces[0].fieldValues).toEqual(replaced.body.values);
  });

  test("returns 400 for unknown or member fields, wrong types and too many entries", async () => {
    const tenant = await createTenantFixture(api.server);
    const num = (await as(tenant).post("/space-fields", { key: "n", label: "N", type: "NUMBER" })).body.id;
    const sel = (await as(tenant).post("/space-fields", { key: "s", label: "S", type: "SELECT", options: ["A"] })).body.id;
    const memberField = (await as(tenant).post("/member-fields", { key: "m", label: "M", type: "NUMBER" })).body.id;
    const s = await newSpace(tenant);
    const cases: [unknown, string][] = [
      [{}, "values"],
      [{ values: Array.from({ length: 201 }, () => ({ fieldId: num })) }, "values"],
      [{ values: [{ fieldId: "nope" }] }, "values[0].fieldId"],
      [{ values: [{ fieldId: memberField, valueNumber: 1 }] }, "values[0].fieldId"],
      [{ values: [{ fieldId: num, valueText: "1" }] }, "values[0].valueText"],
      [{ values: [{ fieldId: sel, valueText: "Z" }] }, "values[0].valueText"],
      [
        {
          values: [
            { fieldId: num, valueNumber: 1 },
            { fieldId: num, valueNumber: 2 },
          ],
        },
        "values[1].fieldId",
      ],
      [{ values: [{ fieldId: num, valueDate: "yesterday" }] }, "values[0].valueDate"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(tenant).put(`/spaces/${s}/field-values`, body))).toBe(field);
  });

  test("returns 403 for a participant, 404 invisible or other tenant, 401", async () => {
    await checkAccess("PUT", (s) => `/spaces/${s}/field-values`, { values: [] });
  });
});
