import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import {
  createMemberFixture,
  createTenantFixture,
  expectProblem,
  fieldOf,
  forbidden,
  invalidState,
  notFound,
  unauth,
  useServer,
} from "./helpers/server";

// A school's spaces over a term: teachers leave, admins take over, students find and join classes.
const api = useServer();
const { as, anon } = api;

let admin: Tenant; // the school's tenant admin (owner role)
let other: Tenant;
let student: Member;
let classmate: Member;

beforeAll(async () => {
  admin = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  student = await createMemberFixture(api.server, admin, { displayName: "Student", userId: "stu-1" });
  classmate = await createMemberFixture(api.server, admin, { displayName: "Classmate", userId: "stu-2" });
});

const teacherOf = (displayName = "Teacher") => createMemberFixture(api.server, admin, { displayName, permissions: ["space:create"] });
async function newSpace(who: { token: string }, body: Record<string, unknown> = {}) {
  const res = await as(who).post("/spaces", { name: "Class", ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}
const memberRoles = async (spaceId: string, who: { token: string } = admin) =>
  (await as(who).get(`/spaces/${spaceId}/members?limit=100`)).body.members.map((m: any) => [m.id, m.role, m.isOwner]);
const history = async (spaceId: string, who: { token: string } = admin): Promise<string[][]> =>
  (await as(who).get(`/spaces/${spaceId}/enrollment-history?limit=100`)).body.entries.map((e: any) => [e.memberId, e.event, e.role]);

describe("a teacher leaves — addSpaceMembers takeover, transferSpaceOwnership, deleteSpace, deleteMembers", () => {
  test("a tenant admin takes the space over, and the teacher's account can then be deleted", async () => {
    const teacher = await teacherOf("Leaving Teacher");
    const space = await newSpace(teacher, { retainEnrollmentHistory: true });
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [student.memberId] });
    // The teacher owns a space: their account cannot go yet.
    expect((await as(admin).post("/members/bulk-delete", { userPkIds: [teacher.memberId] })).body.failed).toEqual([
      { userPkId: teacher.memberId, reason: "owner" },
    ]);

    // The admin, not enrolled, adds itself as ADMIN (space:create reaches any space for this).
    const added = await as(admin).post(`/spaces/${space}/members`, { userIds: [admin.memberId], role: "ADMIN" });
    expect(added.status).toBe(200);
    const taken = await as(admin).post(`/spaces/${space}/owner`, { memberId: admin.memberId });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ id: space, adminCount: 2, participantCount: 1 });
    expect(await memberRoles(space)).toEqual([
      [teacher.memberId, "ADMIN", false],
      [student.memberId, "PARTICIPANT", false],
      [admin.memberId, "ADMIN", true],
    ]);
    forbidden(await as(teacher).del(`/spaces/${space}`)); // an ADMIN, no longer the owner

    const gone = await as(admin).post("/members/bulk-delete", { userPkIds: [teacher.memberId] });
    expect(gone.body).toEqual({ deleted: [teacher.memberId], failed: [] });
    expect(await memberRoles(space)).toEqual([
      [student.memberId, "PARTICIPANT", false],
      [admin.memberId, "ADMIN", true],
    ]);
    expect(await history(space)).toEqual([
      [admin.memberId, "JOINED", "ADMIN"],
      [student.memberId, "JOINED", "PARTICIPANT"],
    ]);
    expect((await as(admin).del(`/spaces/${space}`)).status).toBe(200);
  });

  test("takeover is a school admin's: a teacher gets 403 on a colleague's class, a tenant-settings:manage holder takes it", async () => {
    const teacher = await teacherOf("Class Teacher");
    const colleague = await teacherOf("Colleague");
    const space = await newSpace(teacher);
    forbidden(await as(colleague).post(`/spaces/${space}/members`, { userIds: [colleague.memberId], role: "ADMIN" }));
    forbidden(await as(colleague).post(`/spaces/${space}/owner`, { memberId: colleague.memberId }));
    expect(await memberRoles(space, teacher)).toEqual([[teacher.memberId, "ADMIN", true]]);
    // a school admin without space:create: the private space is still reachable for the takeover
    const schoolAdmin = await createMemberFixture(api.server, admin, {
      displayName: "School admin",
      permissions: ["tenant-settings:manage"],
    });
    expect((await as(schoolAdmin).post(`/spaces/${space}/members`, { userIds: [schoolAdmin.memberId], role: "ADMIN" })).status).toBe(200);
    const other2 = await newSpace(teacher);
    expect((await as(schoolAdmin).post(`/spaces/${other2}/owner`, { memberId: colleague.memberId })).status).toBe(200);
    expect((await memberRoles(other2, teacher)).find((r: any[]) => r[2])[0]).toBe(colleague.memberId);
    // taking a participant seat is no takeover: the space's ADMIN rule applies
    forbidden(await as(schoolAdmin).post(`/spaces/${other2}/members`, { userIds: [student.memberId] }));
    notFound(await as(other).post(`/spaces/${space}/members`, { userIds: [other.memberId], role: "ADMIN" }));
  });

  test("the owner hands a space to a colleague; a deactivated old owner stays as PARTICIPANT", async () => {
    const a = await teacherOf("A");
    const b = await teacherOf("B");
    const space = await newSpace(a, { retainEnrollmentHistory: true });
    const handed = await as(a).post(`/spaces/${space}/owner`, { memberId: b.memberId });
    expect(handed.status).toBe(200);
    expect(await memberRoles(space, a)).toEqual([
      [a.memberId, "ADMIN", false],
      [b.memberId, "ADMIN", true],
    ]);
    await as(admin).patch(`/members/${b.memberId}`, { isActive: false });
    expect((await as(admin).post(`/spaces/${space}/owner`, { memberId: a.memberId })).status).toBe(200);
    expect(await memberRoles(space, a)).toEqual([
      [a.memberId, "ADMIN", true],
      [b.memberId, "PARTICIPANT", false],
    ]);
    expect(await history(space, a)).toEqual([
      [b.memberId, "ROLE_CHANGED", "PARTICIPANT"],
      [b.memberId, "JOINED", "ADMIN"],
      [a.memberId, "JOINED", "ADMIN"],
    ]);
  });

  test("transferSpaceOwnership returns 400 naming memberId, 401, 403 for a non-owner ADMIN, 404 other tenant or invisible", async () => {
    const teacher = await teacherOf();
    const space = await newSpace(teacher);
    const coAdmin = await createMemberFixture(api.server, admin);
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [coAdmin.memberId], role: "ADMIN" });
    const inactive = await createMemberFixture(api.server, admin);
    await as(admin).patch(`/members/${inactive.memberId}`, { isActive: false });
    await as(teacher).post(`/spaces/${space}/blocks`, { userId: classmate.memberId });
    const cases: [unknown, string][] = [
      [{}, "memberId"],
      [{ memberId: "" }, "memberId"],
      [{ memberId: "nobody" }, "memberId"],
      [{ memberId: other.memberId }, "memberId"],
      [{ memberId: inactive.memberId }, "memberId"],
      [{ memberId: classmate.memberId }, "memberId"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(teacher).post(`/spaces/${space}/owner`, body))).toBe(field);
    unauth(await anon("POST", `/spaces/${space}/owner`, { memberId: coAdmin.memberId }));
    forbidden(await as(coAdmin).post(`/spaces/${space}/owner`, { memberId: coAdmin.memberId }));
    notFound(await as(student).post(`/spaces/${space}/owner`, { memberId: student.memberId })); // private, not enrolled
    notFound(await as(other).post(`/spaces/${space}/owner`, { memberId: other.memberId }));
    expect((await memberRoles(space, teacher)).find((r: any[]) => r[2])[0]).toBe(teacher.memberId);
  });

  test("only the owner deletes a space: another ADMIN gets 403", async () => {
    const teacher = await teacherOf();
    const space = await newSpace(teacher);
    const coAdmin = await createMemberFixture(api.server, admin);
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [coAdmin.memberId], role: "ADMIN" });
    forbidden(await as(coAdmin).del(`/spaces/${space}`));
    expect((await as(teacher).del(`/spaces/${space}`)).status).toBe(200);
  });

  test("without space:create, adding to a space one does not administer stays 403/404", async () => {
    const teacher = await teacherOf();
    const space = await newSpace(teacher, { isPublic: true });
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [student.memberId] });
    forbidden(await as(student).post(`/spaces/${space}/members`, { userIds: [student.memberId], role: "ADMIN" }));
    const priv = await newSpace(teacher);
    notFound(await as(student).post(`/spaces/${priv}/members`, { userIds: [student.memberId], role: "ADMIN" }));
  });
});

describe("GET /api/v1/spaces/{spaceId}/member-candidates — listSpaceMemberCandidates", () => {
  test("a teacher without member:read finds active members not enrolled or blocked, by name, page by page", async () => {
    const t = await createTenantFixture(api.server);
    const teacher = await createMemberFixture(api.server, t, { displayName: "Teacher", permissions: ["space:create"] });
    const names = ["Ann", "Ben", "Cho", "Dan", "Eve"];
    const m: Record<string, Member> = {};
    for (const n of names) m[n] = await createMemberFixture(api.server, t, { displayName: n, userId: `id-${n.toLowerCase()}` });
    const space = await newSpace(teacher);
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [m.Ben?.memberId] });
    await as(teacher).post(`/spaces/${space}/blocks`, { userId: m.Cho?.memberId });
    await as(t).patch(`/members/${m.Dan?.memberId}`, { isActive: false });

    const first = await as(teacher).get(`/spaces/${space}/member-candidates?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.candidates).toEqual([
      { id: m.Ann?.memberId, userId: "id-ann", displayName: "Ann" },
      { id: m.Eve?.memberId, userId: "id-eve", displayName: "Eve" },
    ]);
    expect(first.body.candidates[0]).not.toHaveProperty("email");
    const rest = await as(teacher).get(`/spaces/${space}/member-candidates?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(rest.body).toEqual({ candidates: [{ id: t.memberId, userId: null, displayName: "Owner" }], nextCursor: null });
    const byKeyword = await as(teacher).get(`/spaces/${space}/member-candidates?keyword=EVE`);
    expect(byKeyword.body.candidates.map((c: any) => c.displayName)).toEqual(["Eve"]);
    expect(
      (await as(teacher).get(`/spaces/${space}/member-candidates?keyword=id-an`)).body.candidates.map((c: any) => c.displayName),
    ).toEqual(["Ann"]);
    // The cursor is bound to its filters.
    const other = await as(teacher).get(`/spaces/${space}/member-candidates?keyword=e&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(fieldOf(other)).toBe("cursor");
  });

  test("returns 400 naming the parameter, 401, 403 for a participant, 404 other tenant", async () => {
    const teacher = await teacherOf();
    const space = await newSpace(teacher, { isPublic: true });
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [student.memberId] });
    expect(fieldOf(await as(teacher).get(`/spaces/${space}/member-candidates?limit=0`))).toBe("limit");
    expect(fieldOf(await as(teacher).get(`/spaces/${space}/member-candidates?limit=101`))).toBe("limit");
    expect(fieldOf(await as(teacher).get(`/spaces/${space}/member-candidates?cursor=forged`))).toBe("cursor");
    expect(fieldOf(await as(teacher).get(`/spaces/${space}/member-candidates?keyword=`))).toBe("keyword");
    unauth(await anon("GET", `/spaces/${space}/member-candidates`));
    forbidden(await as(student).get(`/spaces/${space}/member-candidates`));
    notFound(await as(other).get(`/spaces/${space}/member-candidates`));
  });
});

describe("POST /api/v1/spaces/{spaceId}/join — joinPublicSpace", () => {
  test("a student joins an open class once; closed, blocked and archived classes refuse", async () => {
    const teacher = await teacherOf();
    const open = await newSpace(teacher, { isPublic: true, autoJoin: true, retainEnrollmentHistory: true });
    const res = await as(student).post(`/spaces/${open}/join`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: student.memberId,
      userId: "stu-1",
      displayName: "Student",
      email: student.email,
      role: "PARTICIPANT",
      isOwner: false,
    });
    expectProblem(await as(student).post(`/spaces/${open}/join`), 409, "ALREADY_EXISTS");
    expect((await history(open, teacher))[0]).toEqual([student.memberId, "JOINED", "PARTICIPANT"]);

    const noAutoJoin = await newSpace(teacher, { isPublic: true, autoJoin: false });
    forbidden(await as(student).post(`/spaces/${noAutoJoin}/join`));
    const priv = await newSpace(teacher, { autoJoin: true });
    notFound(await as(student).post(`/spaces/${priv}/join`));
    await as(teacher).post(`/spaces/${open}/blocks`, { userId: classmate.memberId });
    forbidden(await as(classmate).post(`/spaces/${open}/join`));
    const archived = await newSpace(teacher, { isPublic: true, autoJoin: true });
    await as(teacher).patch(`/spaces/${archived}`, { isActive: false });
    invalidState(await as(classmate).post(`/spaces/${archived}/join`));
    unauth(await anon("POST", `/spaces/${open}/join`));
    notFound(await as(other).post(`/spaces/${open}/join`));
    notFound(await as(student).post("/spaces/no-such-space/join"));
  });
});

describe("GET /api/v1/spaces/{spaceId}/enrollment-history — listSpaceEnrollmentHistory", () => {
  test("every enrolment change is recorded while the space retains history, newest first, page by page", async () => {
    const teacher = await teacherOf();
    const space = await newSpace(teacher, { retainEnrollmentHistory: true });
    const s = student.memberId;
    const c = classmate.memberId;
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [s] });
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [c] });
    await as(teacher).patch(`/spaces/${space}/members/${s}`, { role: "ADMIN" });
    await as(teacher).patch(`/spaces/${space}/members/${s}`, { role: "ADMIN" }); // unchanged: no event
    await as(student).post(`/spaces/${space}/leave`);
    await as(teacher).del(`/spaces/${space}/members/${c}`);
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [c] });
    await as(teacher).post(`/spaces/${space}/blocks`, { userId: c });
    const all = await history(space, teacher);
    expect(all).toEqual([
      [c, "BLOCKED", "PARTICIPANT"],
      [c, "JOINED", "PARTICIPANT"],
      [c, "REMOVED", "PARTICIPANT"],
      [s, "LEFT", "ADMIN"],
      [s, "ROLE_CHANGED", "ADMIN"],
      [c, "JOINED", "PARTICIPANT"],
      [s, "JOINED", "PARTICIPANT"],
      [teacher.memberId, "JOINED", "ADMIN"],
    ]);
    const first = await as(teacher).get(`/spaces/${space}/enrollment-history?limit=3`);
    expect(first.body.entries).toHaveLength(3);
    expect(first.body.entries[0]).toEqual({
      memberId: c,
      displayName: "Classmate",
      event: "BLOCKED",
      role: "PARTICIPANT",
      at: expect.any(String),
    });
    const next = await as(teacher).get(`/spaces/${space}/enrollment-history?limit=100&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(next.body.entries.map((e: any) => [e.memberId, e.event, e.role])).toEqual(all.slice(3));
    expect(next.body.nextCursor).toBeNull();
  });

  test("is empty when the space does not retain history", async () => {
    const teacher = await teacherOf();
    const space = await newSpace(teacher);
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [student.memberId] });
    expect((await as(teacher).get(`/spaces/${space}/enrollment-history`)).body).toEqual({ entries: [], nextCursor: null });
  });

  test("returns 400 naming the parameter, 401, 403 for a participant, 404 other tenant", async () => {
    const teacher = await teacherOf();
    const space = await newSpace(teacher, { isPublic: true, retainEnrollmentHistory: true });
    await as(teacher).post(`/spaces/${space}/members`, { userIds: [student.memberId] });
    expect(fieldOf(await as(teacher).get(`/spaces/${space}/enrollment-history?limit=0`))).toBe("limit");
    expect(fieldOf(await as(teacher).get(`/spaces/${space}/enrollment-history?cursor=x.y`))).toBe("cursor");
    unauth(await anon("GET", `/spaces/${space}/enrollment-history`));
    forbidden(await as(student).get(`/spaces/${space}/enrollment-history`));
    notFound(await as(other).get(`/spaces/${space}/enrollment-history`));
  });
});
