import { beforeAll, describe, expect, test } from "bun:test";
import { PERMISSIONS } from "../src/modules/roles/permissions";
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

// A school's first term, as its tenant admin lives it: roles, graduates, corrections, class lists.
const api = useServer({ devCodes: true });
const { as, anon } = api;

let school: Tenant;
let other: Tenant;
let foreign: Member;

beforeAll(async () => {
  school = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  foreign = await createMemberFixture(api.server, other, { displayName: "Foreign" });
  const teacher = await as(school).post("/roles", { key: "teacher", name: "Teacher", permissions: ["space:create", "member:read"] });
  expect(teacher.status).toBe(201);
});

const member = (opts: Parameters<typeof createMemberFixture>[2] = {}) => createMemberFixture(api.server, school, opts);
const signIn = (identifier: string, password = "Passw0rd!", tenantKey = school.tenantKey) =>
  anon("POST", "/auth/sign-in/password", { identifier, password, tenantKey });
async function signInWithCode(email: string) {
  const code = (await anon("POST", `/public/tenants/${school.tenantKey}/auth/request-code`, { email })).body.devCode;
  return anon("POST", "/auth/sign-in/code", { email, tenantKey: school.tenantKey, code });
}

describe("PUT /api/v1/members/{userPkId}/role — setMemberRole", () => {
  test("a member promoted to teacher can create spaces at their next request, and not once demoted", async () => {
    const alice = await member({ displayName: "Alice" });
    forbidden(await as(alice).post("/spaces", { name: "Physics" }));
    const res = await as(school).put(`/members/${alice.memberId}/role`, { roleKey: "teacher" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.memberId, role: { key: "teacher", name: "Teacher" } });
    // The same access token: permissions are resolved per request.
    expect((await as(alice).get("/me")).body.permissions).toEqual(["member:read", "space:create"]);
    expect((await as(alice).post("/spaces", { name: "Physics" })).status).toBe(201);
    expect((await as(school).get(`/members/${alice.memberId}`)).body.role.key).toBe("teacher");
    expect((await as(school).put(`/members/${alice.memberId}/role`, { roleKey: "member" })).status).toBe(200);
    forbidden(await as(alice).post("/spaces", { name: "Chemistry" }));
  });

  test("nobody hands out a role holding a permission they lack", async () => {
    const manager = await member({ permissions: ["member:manage-role", "member:read"] });
    const bob = await member();
    forbidden(await as(manager).put(`/members/${bob.memberId}/role`, { roleKey: "teacher" }));
    expect((await as(school).get(`/members/${bob.memberId}`)).body.role.key).toBe("member");
    expect((await as(manager).put(`/members/${bob.memberId}/role`, { roleKey: "member" })).status).toBe(200);
  });

  test("only an owner changes another owner's role; nobody changes their own", async () => {
    const deputy = await member({ displayName: "Deputy" });
    expect((await as(school).put(`/members/${deputy.memberId}/role`, { roleKey: "owner" })).status).toBe(200);
    const admin = await member({ permissions: [...PERMISSIONS] });
    forbidden(await as(admin).put(`/members/${deputy.memberId}/role`, { roleKey: "member" }));
    invalidState(await as(school).put(`/members/${school.memberId}/role`, { roleKey: "member" }));
    invalidState(await as(deputy).put(`/members/${deputy.memberId}/role`, { roleKey: "member" }));
    expect((await as(deputy).put(`/members/${school.memberId}/role`, { roleKey: "owner" })).status).toBe(200);
    expect((await as(school).put(`/members/${deputy.memberId}/role`, { roleKey: "member" })).body.role.key).toBe("member");
    expect((await as(school).get(`/members/${school.memberId}`)).body.role.key).toBe("owner");
  });

  test("returns 400 naming roleKey, 401, 403 without member:manage-role, 404 unknown or other tenant's member", async () => {
    const bob = await member();
    expect(fieldOf(await as(school).put(`/members/${bob.memberId}/role`, {}))).toBe("roleKey");
    expect(fieldOf(await as(school).put(`/members/${bob.memberId}/role`, { roleKey: "" }))).toBe("roleKey");
    expect(fieldOf(await as(school).put(`/members/${bob.memberId}/role`, { roleKey: "no-such-role" }))).toBe("roleKey");
    unauth(await anon("PUT", `/members/${bob.memberId}/role`, { roleKey: "member" }));
    forbidden(
      await as(await member({ permissions: ["member:manage", "member:read"] })).put(`/members/${bob.memberId}/role`, { roleKey: "member" }),
    );
    notFound(await as(school).put("/members/no-such-member/role", { roleKey: "member" }));
    notFound(await as(school).put(`/members/${foreign.memberId}/role`, { roleKey: "member" }));
  });
});

describe("PATCH /api/v1/members/{userPkId} — updateMember: deactivation", () => {
  test("a graduate is deactivated: sessions end, sign-in is refused, records stay; reactivation restores sign-in", async () => {
    const grad = await member({ displayName: "Graduate", userId: "grad2026" });
    const space = (await as(school).post("/spaces", { name: "Class of 2026" })).body.id;
    await as(school).post(`/spaces/${space}/members`, { userIds: [grad.memberId] });
    const browser = await signIn(grad.email);
    expect(browser.status).toBe(200);
    const cookie = (browser.headers.get("set-cookie") ?? "").split(";")[0] as string;

    const off = await as(school).patch(`/members/${grad.memberId}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: grad.memberId, isActive: false, displayName: "Graduate" });
    unauth(await as(grad).get("/me"));
    unauth(await as({ token: browser.body.accessToken }).get("/me"));
    expectProblem(await api.call("POST", "/api/v1/auth/session/refresh", { headers: { cookie } }), 401, "SESSION_EXPIRED");
    expectProblem(await signIn(grad.email), 401, "INVALID_CREDENTIALS");
    expectProblem(await signIn("grad2026"), 401, "INVALID_CREDENTIALS");
    expectProblem(await signInWithCode(grad.email), 401, "INVALID_CREDENTIALS");
    // Still listed as inactive, still enrolled (records kept).
    const inactive = await as(school).get("/members?status=inactive");
    expect(inactive.body.members.map((m: any) => m.id)).toContain(grad.memberId);
    expect((await as(school).get(`/spaces/${space}/members`)).body.members.map((m: any) => m.id)).toContain(grad.memberId);

    const on = await as(school).patch(`/members/${grad.memberId}`, { isActive: true });
    expect(on.body.isActive).toBe(true);
    const back = await signIn(grad.email);
    expect(back.status).toBe(200);
    expect((await as({ token: back.body.accessToken }).get("/me")).status).toBe(200);
  });

  test("an inactive member is skipped by adds to spaces, groups, org units and grants, and left out of pickers", async () => {
    const grad = await member({ displayName: "Skipped" });
    const active = await member({ displayName: "Kept" });
    const both = [grad.memberId, active.memberId];
    const enrolled = (await as(school).post("/spaces", { name: "Enrolled" })).body.id;
    await as(school).post(`/spaces/${enrolled}/members`, { userIds: both });
    const day = new Date(Date.now() - 86_400_000).toISOString();
    const challenge = await as(school).post(`/spaces/${enrolled}/challenges`, {
      title: "Read",
      emoji: "📚",
      tasks: [{ title: "Day 1", startedAt: day }],
    });
    expect(challenge.status).toBe(201);
    await as(school).patch(`/members/${grad.memberId}`, { isActive: false });
    const candidates = await as(school).get(`/spaces/${enrolled}/challenges/${challenge.body.id}/candidates`);
    expect(candidates.body.candidates.map((c: any) => c.userId)).toEqual([school.memberId, active.memberId]);
    const fresh = (await as(school).post("/spaces", { name: "Fresh" })).body.id;
    const picker = await as(school).get(`/spaces/${fresh}/member-candidates?limit=100`);
    expect(picker.body.candidates.map((c: any) => c.id)).toContain(active.memberId);
    expect(picker.body.candidates.map((c: any) => c.id)).not.toContain(grad.memberId);

    const space = (await as(school).post("/spaces", { name: "Space" })).body.id;
    const added = await as(school).post(`/spaces/${space}/members`, { userIds: both });
    expect(added.status).toBe(200);
    expect(added.body.members.map((m: any) => m.id)).toEqual([school.memberId, active.memberId]);

    const group = (await as(school).post("/groups", { name: "Group" })).body.id;
    const inGroup = await as(school).post(`/groups/${group}/members`, { userIds: both });
    expect(inGroup.status).toBe(200);
    expect(JSON.stringify(inGroup.body)).not.toContain(grad.memberId);
    expect(JSON.stringify(inGroup.body)).toContain(active.memberId);

    const unit = (await as(school).post("/org-units", { name: "Unit" })).body.id;
    const inUnit = await as(school).post(`/org-units/${unit}/members`, { userIds: both });
    expect(inUnit.body.members.map((m: any) => m.id)).toEqual([active.memberId]);

    const granted = await as(school).post("/permission-grants/member:read/subjects/bulk-grant", {
      subjectType: "MEMBER",
      subjectIds: both,
    });
    expect(granted.body).toEqual({ granted: 1, skipped: [{ subjectId: grad.memberId, reason: "INACTIVE" }] });
  });

  test("the caller and an owner cannot be deactivated (409); a member more privileged than the caller cannot (403)", async () => {
    const manager = await member({ permissions: ["member:manage", "member:read"] });
    const teacher = await member();
    await as(school).put(`/members/${teacher.memberId}/role`, { roleKey: "teacher" });
    invalidState(await as(school).patch(`/members/${school.memberId}`, { isActive: false }));
    invalidState(await as(manager).patch(`/members/${manager.memberId}`, { isActive: false }));
    forbidden(await as(manager).patch(`/members/${school.memberId}`, { isActive: false }));
    forbidden(await as(manager).patch(`/members/${teacher.memberId}`, { isActive: false }));
    forbidden(await as(manager).patch(`/members/${teacher.memberId}`, { email: "takeover@example.com" }));
    expect((await as(school).get(`/members/${teacher.memberId}`)).body).toMatchObject({ isActive: true, email: teacher.email });
  });
});

describe("PATCH /api/v1/members/{userPkId} — updateMember: e-mail and login id", () => {
  test("a mistyped e-mail is corrected: code sign-in uses the new one at once, the old one no longer", async () => {
    const kim = await member({ email: "kim@exmaple.com", displayName: "Kim" });
    const res = await as(school).patch(`/members/${kim.memberId}`, { email: "Kim@Example.com", userId: "kim01" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: "kim@example.com", userId: "kim01" });
    expect((await as(kim).get("/me")).status).toBe(200); // sessions stay
    const viaCode = await signInWithCode("kim@example.com");
    expect(viaCode.status).toBe(200);
    expect(viaCode.body.user.userId).toBe("kim01");
    expectProblem(await signInWithCode("kim@exmaple.com"), 401, "INVALID_CREDENTIALS");
    expect((await signIn("kim01")).status).toBe(200);
  });

  test("returns 409 ALREADY_EXISTS for a taken e-mail or userId, keeping its own unchanged", async () => {
    const a = await member({ userId: "taken-a" });
    const b = await member();
    expectProblem(await as(school).patch(`/members/${b.memberId}`, { email: a.email.toUpperCase() }), 409, "ALREADY_EXISTS");
    expectProblem(await as(school).patch(`/members/${b.memberId}`, { userId: "TAKEN-A" }), 409, "ALREADY_EXISTS");
    expect((await as(school).patch(`/members/${a.memberId}`, { email: a.email, userId: "taken-a" })).status).toBe(200);
  });

  test("a member keeps an e-mail or a userId (400)", async () => {
    const noUserId = await member();
    expect(fieldOf(await as(school).patch(`/members/${noUserId.memberId}`, { email: null }))).toBe("email");
    const both = await member({ userId: "both-ids" });
    const cleared = await as(school).patch(`/members/${both.memberId}`, { email: null });
    expect(cleared.body).toMatchObject({ email: null, userId: "both-ids" });
    expectProblem(await signInWithCode(both.email), 401, "INVALID_CREDENTIALS");
  });

  test("returns 400 naming the field, 401, 403 without member:manage, 404 unknown or other tenant's member", async () => {
    const bob = await member();
    const cases: [unknown, string][] = [
      [{ email: "not-an-email" }, "email"],
      [{ userId: "has space" }, "userId"],
      [{ userId: null }, "userId"],
      [{ isActive: "no" }, "isActive"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(school).patch(`/members/${bob.memberId}`, body))).toBe(field);
    unauth(await anon("PATCH", `/members/${bob.memberId}`, { isActive: false }));
    forbidden(await as(await member()).patch(`/members/${bob.memberId}`, { isActive: false }));
    notFound(await as(school).patch(`/members/${foreign.memberId}`, { isActive: false }));
    notFound(await as(school).patch("/members/nobody", { email: "x@example.com" }));
  });
});

describe("POST /api/v1/members/bulk-create — createMembers", () => {
  test("a class list of 500 with some broken rows: the rest are created and can sign in", async () => {
    const existing = await member({ userId: "s-existing" });
    const rows: Record<string, unknown>[] = Array.from({ length: 500 }, (_, i) => ({
      displayName: `Student ${i}`,
      userId: `s${i}`,
      email: `s${i}@class.example.com`,
      roleKey: "member",
    }));
    rows[3] = { ...rows[3], email: existing.email };
    rows[7] = { ...rows[7], email: "not-an-email" };
    rows[9] = { ...rows[9], roleKey: "no-such-role" };
    rows[11] = { userId: "s11", roleKey: "member" };
    rows[13] = { ...rows[13], userId: "S12" }; // taken by row 12 of the same list
    rows[20] = { ...rows[20], password: "Welcome2026" };
    rows[21] = { displayName: "No login", roleKey: "member" };
    const res = await as(school).post("/members/bulk-create", { members: rows });
    expect(res.status).toBe(201);
    expect(res.body.failed).toEqual([
      { index: 3, reason: "ALREADY_EXISTS" },
      { index: 7, reason: expect.stringMatching(/^INVALID: email /) },
      { index: 9, reason: expect.stringMatching(/^INVALID: roleKey /) },
      { index: 11, reason: "INVALID: displayName is required" },
      { index: 13, reason: "ALREADY_EXISTS" },
      { index: 21, reason: expect.stringMatching(/^INVALID: (userId|email) /) },
    ]);
    expect(res.body.created).toHaveLength(494);
    const first = res.body.created[0];
    expect(first).toMatchObject({
      index: 0,
      member: { userId: "s0", email: "s0@class.example.com", role: { key: "member" }, isIssuedAccount: true },
    });
    expect(first.tempPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    const chosen = res.body.created.find((c: any) => c.index === 20);
    expect(chosen.tempPassword).toBe("Welcome2026");
    // A generated password signs in (and is rehashed at full cost); so does a chosen one.
    const signed = await signIn("s0", first.tempPassword);
    expect(signed.status).toBe(200);
    expect(signed.body.user.mustChangePassword).toBe(true);
    expect((await signIn("s0", first.tempPassword)).status).toBe(200);
    expect((await signIn("s20@class.example.com", "Welcome2026")).status).toBe(200);
    expect((await as(school).get("/members?search=class.example.com&pageSize=1")).body.total).toBe(494);
  }, 60_000); // a test timeout on a shared machine, not a speed bound (bench/members-bulk.ts measures that)

  test("a role other than member needs member:manage-role: those items fail with FORBIDDEN_ROLE", async () => {
    const clerk = await member({ permissions: ["member:manage", "member:read"] });
    const res = await as(clerk).post("/members/bulk-create", {
      members: [
        { displayName: "T", userId: "clerk-t", roleKey: "teacher" },
        { displayName: "S", userId: "clerk-s", roleKey: "member" },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.failed).toEqual([{ index: 0, reason: "FORBIDDEN_ROLE" }]);
    expect(res.body.created.map((c: any) => c.member.userId)).toEqual(["clerk-s"]);
  });

  test("returns 400 for 0 or 501 items, 401, 403 without member:manage", async () => {
    expect(fieldOf(await as(school).post("/members/bulk-create", { members: [] }))).toBe("members");
    expect(fieldOf(await as(school).post("/members/bulk-create", {}))).toBe("members");
    const many = Array.from({ length: 501 }, (_, i) => ({ displayName: "X", userId: `x${i}`, roleKey: "member" }));
    expect(fieldOf(await as(school).post("/members/bulk-create", { members: many }))).toBe("members");
    unauth(await anon("POST", "/members/bulk-create", { members: [{ displayName: "X", userId: "x", roleKey: "member" }] }));
    forbidden(await as(await member()).post("/members/bulk-create", { members: [{ displayName: "X", userId: "x", roleKey: "member" }] }));
  });
});

describe("self sign-up switch and tenant logo — replaceLoginPageSettings, joinTenant, getTenant", () => {
  const page = {
    logoImageUrl: "https://cdn.example.com/school.png",
    titleKo: "학교",
    titleEn: "School",
    backgroundImageUrl: null,
    backgroundTitleEnabled: false,
    backgroundTitleKo: "",
    backgroundTitleEn: "",
    backgroundTitleColor: "#000000",
    methods: { email: true },
    externalLinks: [],
  };
  async function join(email: string, userId: string) {
    const code = (await anon("POST", `/public/tenants/${school.tenantKey}/auth/request-code`, { email })).body.devCode;
    return anon("POST", `/public/tenants/${school.tenantKey}/auth/join`, {
      email,
      code,
      password: "Passw0rd!",
      displayName: "Joiner",
      userId,
    });
  }

  test("joinTenant works only while allowUserSelfSignUp is on", async () => {
    expect((await as(school).get("/login-page-settings")).body.allowUserSelfSignUp).toBe(false);
    forbidden(await join("early@example.com", "early"));

    const on = await as(school).put("/login-page-settings", { ...page, allowUserSelfSignUp: true });
    expect(on.body.allowUserSelfSignUp).toBe(true);
    expect((await anon("GET", `/public/tenants/${school.tenantKey}/login-page`)).body.allowUserSelfSignUp).toBe(true);
    const joined = await join("joiner@example.com", "joiner");
    expect(joined.status).toBe(201);
    expect(joined.body.user).toMatchObject({ userId: "joiner", role: { key: "member" } });

    // PUT is a full replace: leaving the switch out turns it off again.
    expect((await as(school).put("/login-page-settings", page)).body.allowUserSelfSignUp).toBe(false);
    forbidden(await join("late@example.com", "late"));
    expect((await as(school).get("/login-page-settings")).body.allowUserSelfSignUp).toBe(false);
  });

  test("the login page's logo is the tenant's logo in TenantInfo and AuthTenant", async () => {
    await as(school).put("/login-page-settings", page);
    expect((await as(school).get("/tenant")).body.logoImageUrl).toBe(page.logoImageUrl);
    const res = await signIn(school.email);
    expect(res.body.tenants.find((t: any) => t.key === school.tenantKey).logoImageUrl).toBe(page.logoImageUrl);
  });
});
