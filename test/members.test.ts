import { describe, expect, test } from "bun:test";
import { resolveMember } from "../src/modules/members/actor";
import { directoryOf } from "../src/platform/db/registry";
import { recordQueryPlans } from "./helpers/query-plans";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();

async function fixture() {
  const tenant = await createTenantFixture(api.server);
  const member = await createMemberFixture(api.server, tenant);
  return { tenant, owner: tenant.token, member };
}

const M = "/api/v1/members";
const bad = (res: { status: number; headers: Headers; body: any }, field: string) => {
  const body = expectProblem(res, 400, "VALIDATION_FAILED");
  expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
};
/** Integer query bounds: the platform reports these without the field name yet (Elysia's coercion error). */
const badNumber = (res: { status: number; headers: Headers; body: any }) => expectProblem(res, 400, "VALIDATION_FAILED");
const createMember = (token: string, json: object) => api.call("POST", M, { token, json });
const listIds = async (token: string, query: string) => {
  const res = await api.call("GET", `${M}?${query}`, { token });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.members.map((m: { id: string }) => m.id) as string[];
};
const makeField = async (token: string, json: object) =>
  (await api.call("POST", "/api/v1/member-fields", { token, json })).body.id as string;
const setValues = (token: string, id: string, values: object[]) => api.call("PUT", `${M}/${id}/field-values`, { token, json: { values } });
/** Runs SQL on a tenant's file, for state the API cannot set (last sign-in). */
const onTenant = (tenantId: string, sql: string, ...params: (string | number)[]) =>
  api.server.rt.tenants.use(tenantId, (h) => h.sqlite.query(sql).run(...params));

describe("POST /api/v1/members — createMember", () => {
  test("issues an account with a generated temporary password", async () => {
    const { tenant, owner } = await fixture();
    const res = await createMember(owner, { displayName: "Kim", userId: "kim_01" });
    expect(res.status).toBe(201);
    expect(res.body.tempPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(res.body.member).toMatchObject({
      userId: "kim_01",
      displayName: "Kim",
      email: null,
      role: { key: "member", name: "Member" },
      isActive: true,
      lastLoginAt: null,
      isIssuedAccount: true,
      fieldValues: [],
    });
    expect(res.body.member).not.toHaveProperty("activeSpaceCount");
    const actor = api.server.rt.tenants.use(tenant.tenantId, (h) => resolveMember(h, res.body.member.id));
    expect(actor?.mustChangePassword).toBe(true);
    const read = await api.call("GET", `${M}/${res.body.member.id}`, { token: owner });
    expect(read.body).toEqual(res.body.member);
  });

  test("keeps a given password as tempPassword, takes roleKey, and indexes the e-mail", async () => {
    const { tenant, owner } = await fixture();
    await api.call("POST", "/api/v1/roles", { token: owner, json: { key: "staff", name: "Staff", permissions: ["member:read"] } });
    const email = `Lee-${tenant.tenantKey}@Example.com`;
    const res = await createMember(owner, { displayName: "Lee", email, password: "Secr3t!pass", roleKey: "staff" });
    expect(res.status).toBe(201);
    expect(res.body.tempPassword).toBe("Secr3t!pass");
    expect(res.body.member).toMatchObject({ email: email.toLowerCase(), userId: null, role: { key: "staff" } });
    const dir = directoryOf(api.server.rt.platform.db, email);
    expect(dir).toEqual([expect.objectContaining({ tenantId: tenant.tenantId, memberId: res.body.member.id })]);
  });

  test("rejects each bound with 400", async () => {
    const { owner } = await fixture();
    bad(await createMember(owner, { displayName: "No identity" }), "userId");
    bad(await createMember(owner, { userId: "x1" }), "displayName");
    bad(await createMember(owner, { displayName: "", userId: "x1" }), "displayName");
    bad(await createMember(owner, { displayName: "x".repeat(256), userId: "x1" }), "displayName");
    bad(await createMember(owner, { displayName: "A", userId: "bad id" }), "userId");
    bad(await createMember(owner, { displayName: "A", userId: "" }), "userId");
    bad(await createMember(owner, { displayName: "A", userId: "u".repeat(256) }), "userId");
    bad(await createMember(owner, { displayName: "A", email: "not-an-email" }), "email");
    bad(await createMember(owner, { displayName: "A", email: ".a@example.com" }), "email");
    bad(await createMember(owner, { displayName: "A", userId: "x1", password: "short1!" }), "password");
    bad(await createMember(owner, { displayName: "A", userId: "x1", password: "onlyletters" }), "password");
    bad(await createMember(owner, { displayName: "A", userId: "x1", password: `a1${"x".repeat(254)}` }), "password");
    bad(await createMember(owner, { displayName: "A", userId: "x1", roleKey: "" }), "roleKey");
    bad(await createMember(owner, { displayName: "A", userId: "x1", roleKey: "no-such-role" }), "roleKey");
    expect((await api.call("GET", M, { token: owner })).body.total).toBe(2);
  });

  test("returns 409 for a taken userId (case-insensitive) or e-mail", async () => {
    const { tenant, owner } = await fixture();
    await createMember(owner, { displayName: "A", userId: "Taken-Id" });
    expectProblem(await createMember(owner, { displayName: "B", userId: "taken-ID" }), 409, "ALREADY_EXISTS");
    expectProblem(await createMember(owner, { displayName: "B", email: tenant.email.toUpperCase() }), 409, "ALREADY_EXISTS");
    // another tenant may reuse both
    const other = await fixture();
    expect((await createMember(other.owner, { displayName: "B", userId: "taken-id", email: tenant.email })).status).toBe(201);
  });

  test("returns 401, 403 without member:invite, and 403 for a role other than member without member:manage-role", async () => {
    const { tenant, member, owner } = await fixture();
    expectProblem(await api.call("POST", M, { json: { displayName: "A", userId: "a" } }), 401, "UNAUTHENTICATED");
    expectProblem(await createMember(member.token, { displayName: "A", userId: "a" }), 403, "FORBIDDEN");
    const inviter = await createMemberFixture(api.server, tenant, { permissions: ["member:invite"] });
    expectProblem(await createMember(inviter.token, { displayName: "A", userId: "a", roleKey: "owner" }), 403, "FORBIDDEN");
    expect((await createMember(inviter.token, { displayName: "A", userId: "a" })).status).toBe(201);
    const manager = await createMemberFixture(api.server, tenant, { permissions: ["member:invite", "member:manage-role", "member:read"] });
    expect(
      (await api.call("POST", "/api/v1/roles", { token: owner, json: { key: "reader", name: "Reader", permissions: ["member:read"] } }))
        .status,
    ).toBe(201);
    const made = await createMember(manager.token, { displayName: "B", userId: "b", roleKey: "reader" });
    expect(made.status).toBe(201);
    expect(made.body.member.role.key).toBe("reader");
  });

  test("returns 403 for a role carrying a permission the caller does not hold; grants count as held", async () => {
    const { tenant, owner } = await fixture();
    const roleRes = await api.call("POST", "/api/v1/roles", {
      token: owner,
      json: { key: "deputy", name: "Deputy", permissions: ["member:invite", "role:manage"] },
    });
    expect(roleRes.status).toBe(201);
    const manager = await createMemberFixture(api.server, tenant, { permissions: ["member:invite", "member:manage-role"] });
    expectProblem(await createMember(manager.token, { displayName: "O", userId: "o", roleKey: "owner" }), 403, "FORBIDDEN");
    expectProblem(await createMember(manager.token, { displayName: "D", userId: "d", roleKey: "deputy" }), 403, "FORBIDDEN");
    // role:manage granted directly: the caller now holds every permission of deputy
    const grant = await api.call("POST", "/api/v1/permission-grants/role:manage/subjects", {
      token: owner,
      json: { subjectType: "MEMBER", subjectId: manager.memberId },
    });
    expect(grant.status).toBe(200);
    const made = await createMember(manager.token, { displayName: "D", userId: "d", roleKey: "deputy" });
    expect(made.status).toBe(201);
    expect(made.body.member.role.key).toBe("deputy");
    expectProblem(await createMember(manager.token, { displayName: "O", userId: "o", roleKey: "owner" }), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/members — listMembers", () => {
  test("pages newest first by default with real totals", async () => {
    const { owner, tenant, member } = await fixture();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createMember(owner, { displayName: `P${i}`, userId: `p${i}` })).body.member.id);
    const res = await api.call("GET", `${M}?pageSize=2`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, page: 1, pageSize: 2, totalPages: 3 });
    expect(res.body.members.map((m: any) => m.id)).toEqual([ids[2], ids[1]]);
    expect(await listIds(owner, "pageSize=2&page=3")).toEqual([tenant.memberId]);
    const past = await api.call("GET", `${M}?page=9`, { token: owner });
    expect(past.body).toMatchObject({ members: [], total: 5, page: 9, pageSize: 20, totalPages: 1 });
    expect(await listIds(owner, "sortDir=asc")).toEqual([tenant.memberId, member.memberId, ...ids]);
  });

  test("filters by search, roles, status, issued accounts and last sign-in", async () => {
    const { owner, tenant, member } = await fixture();
    const kim = (await createMember(owner, { displayName: "Kim Minji", userId: "mk", email: `kim-${tenant.tenantKey}@x.org` })).body.member
      .id;
    const lee = (await createMember(owner, { displayName: "Lee", userId: "LeeUser" })).body.member.id;
    expect(await listIds(owner, "search=MINJI")).toEqual([kim]);
    expect(await listIds(owner, "search=leeuser")).toEqual([lee]);
    expect(await listIds(owner, `search=kim-${tenant.tenantKey}`)).toEqual([kim]);
    expect(await listIds(owner, "roleKey=owner")).toEqual([tenant.memberId]);
    expect((await listIds(owner, "roleKey=owner&roleKeys=member")).sort()).toEqual([tenant.memberId, member.memberId, kim, lee].sort());
    expect(await listIds(owner, "isIssuedAccount=true")).toEqual([lee, kim]);
    expect(await listIds(owner, "isIssuedAccount=false&sortDir=asc")).toEqual([tenant.memberId, member.memberId]);
    onTenant(tenant.tenantId, "UPDATE members SET is_active = 0 WHERE id = ?", lee);
    expect(await listIds(owner, "status=inactive")).toEqual([lee]);
    expect((await listIds(owner, "status=inactive&statuses=active")).length).toBe(4);
    expect(await listIds(owner, "statuses=active&statuses=inactive&pageSize=1")).toEqual([lee]);
    onTenant(tenant.tenantId, "UPDATE members SET last_login_at = ? WHERE id = ?", Date.parse("2025-03-01T09:00:00Z"), kim);
    onTenant(tenant.tenantId, "UPDATE members SET last_login_at = ? WHERE id = ?", Date.parse("2025-05-01T09:00:00Z"), lee);
    expect(await listIds(owner, "lastLoginFrom=2025-02-01T00:00:00Z&lastLoginTo=2025-04-01T00:00:00%2B09:00")).toEqual([kim]);
    expect(await listIds(owner, "lastLoginFrom=2025-03-01T09:00:00.000Z")).toEqual([lee, kim]);
    expect(await listIds(owner, "sortBy=lastLoginAt&sortDir=asc")).toEqual([kim, lee, tenant.memberId, member.memberId]);
    expect(await listIds(owner, "sortBy=lastLoginAt&sortDir=desc")).toEqual([lee, kim, member.memberId, tenant.memberId]);
  });

  test("sorts by isActive, email and userId walk an index in the exact ORDER BY: no temp B-tree", async () => {
    const { owner, tenant, member } = await fixture();
    const a = (await createMember(owner, { displayName: "A", userId: "b-user" })).body.member.id; // no e-mail
    const b = (await createMember(owner, { displayName: "B", email: `a-${tenant.tenantKey}@x.org` })).body.member.id; // no userId
    onTenant(tenant.tenantId, "UPDATE members SET is_active = 0 WHERE id = ?", a);
    // Records the page queries the list runs on this tenant's connection.
    const { count, plans } = await recordQueryPlans(api.server, tenant.tenantId, /^SELECT m\.id FROM members m .*ORDER BY/s, async () => {
      expect(await listIds(owner, "sortBy=isActive&sortDir=asc")).toEqual([a, tenant.memberId, member.memberId, b]);
      expect(await listIds(owner, "sortBy=isActive&sortDir=desc")).toEqual([b, member.memberId, tenant.memberId, a]);
      expect(await listIds(owner, "sortBy=email&sortDir=asc")).toEqual([b, member.memberId, tenant.memberId, a]);
      expect(await listIds(owner, "sortBy=email&sortDir=desc")).toEqual([tenant.memberId, member.memberId, b, a]);
      expect((await listIds(owner, "sortBy=userId&sortDir=asc"))[0]).toBe(a);
      expect((await listIds(owner, "sortBy=userId&sortDir=desc"))[0]).toBe(a);
    });
    expect(count).toBe(6);
    for (const { sql, plan } of plans) expect(`${sql} => ${plan}`).not.toContain("TEMP B-TREE");
  });

  test("space counts are 0 until spaces exist; include=spaceCounts shows them", async () => {
    const { owner } = await fixture();
    expect((await listIds(owner, "activeSpaceCountMin=1")).length).toBe(0);
    expect((await listIds(owner, "activeSpaceCountMax=0&inactiveSpaceCountMin=0&inactiveSpaceCountMax=0")).length).toBe(2);
    expect((await listIds(owner, "sortBy=activeSpaceCount")).length).toBe(2);
    const res = await api.call("GET", `${M}?include=spaceCounts&sortBy=inactiveSpaceCount`, { token: owner });
    expect(res.body.members[0]).toMatchObject({ activeSpaceCount: 0, inactiveSpaceCount: 0 });
    expect((await api.call("GET", M, { token: owner })).body.members[0]).not.toHaveProperty("activeSpaceCount");
  });

  test("filters and sorts by custom fields; members without a value come last", async () => {
    const { owner, tenant, member } = await fixture();
    const dept = await makeField(owner, { key: "dept", label: "Dept", type: "SHORT_TEXT" });
    const grade = await makeField(owner, { key: "grade", label: "Grade", type: "SELECT", options: ["A", "B", "A,B"] });
    const score = await makeField(owner, { key: "score", label: "Score", type: "NUMBER" });
    const born = await makeField(owner, { key: "born", label: "Born", type: "DATE" });
    const a = (await createMember(owner, { displayName: "A", userId: "a" })).body.member.id;
    const b = (await createMember(owner, { displayName: "B", userId: "b" })).body.member.id;
    await setValues(owner, a, [
      { fieldId: dept, valueText: "Sales Korea" },
      { fieldId: grade, valueText: "A,B" },
      { fieldId: score, valueNumber: 10 },
      { fieldId: born, valueDate: "2000-01-02T03:00:00+09:00" },
    ]);
    await setValues(owner, b, [
      { fieldId: dept, valueText: "Research" },
      { fieldId: grade, valueText: "B" },
      { fieldId: score, valueNumber: 2.5 },
    ]);
    expect(await listIds(owner, `fieldFilters=${dept}:sales`)).toEqual([a]);
    expect(await listIds(owner, `fieldFilters=${grade}:A,B`)).toEqual([a]);
    expect(await listIds(owner, `fieldFilters=${grade}:B`)).toEqual([b]);
    expect(await listIds(owner, `fieldFilters=${score}:2.5&fieldFilters=${grade}:B`)).toEqual([b]);
    expect(await listIds(owner, `fieldFilters=${score}:2.5&fieldFilters=${grade}:A,B`)).toEqual([]);
    expect(await listIds(owner, `fieldFilters=${born}:2000-01-01T18:00:00Z`)).toEqual([a]);
    expect(await listIds(owner, `fieldFilters=${born}:2000-01-01`)).toEqual([a]);
    expect(await listIds(owner, `filterFieldId=${dept}&filterValue=RESEARCH`)).toEqual([b]);
    const others = [member.memberId, tenant.memberId];
    expect(await listIds(owner, `sortBy=${score}&sortDir=asc`)).toEqual([b, a, ...others.slice().reverse()]);
    expect(await listIds(owner, `sortBy=${score}`)).toEqual([a, b, ...others]);
    expect(await listIds(owner, `sortBy=${dept}&sortDir=asc`)).toEqual([b, a, tenant.memberId, member.memberId]);
    expect(await listIds(owner, `sortBy=${born}&sortDir=desc&pageSize=2&page=1`)).toEqual([a, b]);
    expect(await listIds(owner, `sortBy=${born}&sortDir=desc&pageSize=2&page=2`)).toEqual([member.memberId, tenant.memberId]);
    expect(await listIds(owner, `sortBy=${dept}&sortDir=asc&pageSize=3&page=2`)).toEqual([member.memberId]);
    expect(await listIds(owner, "sortBy=displayName&sortDir=asc")).toEqual([a, b, member.memberId, tenant.memberId]);
  });

  test("gives the same answers when the filters match too few members for an index walk", async () => {
    const { owner, tenant } = await fixture();
    const grade = await makeField(owner, { key: "grade", label: "Grade", type: "SELECT", options: ["A", "B"] });
    const dept = await makeField(owner, { key: "dept", label: "Dept", type: "SHORT_TEXT" });
    const score = await makeField(owner, { key: "score", label: "Score", type: "NUMBER" });
    // 1,000 members straight into the tenant file: one rare match makes the walk estimate exceed its bound.
    const ids = api.server.rt.tenants.use(tenant.tenantId, (h) => {
      const roleId = (h.sqlite.query("SELECT id FROM roles WHERE key = 'member'").get() as { id: string }).id;
      const out: string[] = [];
      h.sqlite.transaction(() => {
        for (let i = 0; i < 1000; i++) {
          const id = Bun.randomUUIDv7();
          out.push(id);
          h.sqlite
            .query("INSERT INTO members (id, display_name, role_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
            .run(id, `Bulk ${String(i).padStart(3, "0")}`, roleId, 1_000 + i, 1_000 + i);
          h.sqlite
            .query("INSERT INTO member_field_values (member_id, field_id, value_text) VALUES (?, ?, ?)")
            .run(id, grade, i % 250 === 7 ? "B" : "A");
          if (i % 250 === 7)
            h.sqlite.query("INSERT INTO member_field_values (member_id, field_id, value_text) VALUES (?, ?, 'Rare Unit')").run(id, dept);
          h.sqlite.query("INSERT INTO member_field_values (member_id, field_id, value_number) VALUES (?, ?, ?)").run(id, score, i);
        }
      })();
      return out;
    });
    const rare = [ids[7], ids[257], ids[507], ids[757]] as string[];
    const page = async (query: string) => (await api.call("GET", `${M}?${query}`, { token: owner })).body;
    const byDriver = await page(`fieldFilters=${grade}:B&pageSize=100&sortBy=displayName&sortDir=asc`);
    expect(byDriver.total).toBe(4);
    expect(byDriver.members.map((m: any) => m.id)).toEqual(rare);
    expect((await page(`fieldFilters=${dept}:rare&pageSize=100`)).members.map((m: any) => m.id)).toEqual([...rare].reverse());
    expect((await page(`fieldFilters=${grade}:B&sortBy=${score}&pageSize=100`)).members.map((m: any) => m.id)).toEqual([...rare].reverse());
    expect((await page(`fieldFilters=${grade}:B&sortBy=${score}&pageSize=2&page=2&sortDir=asc`)).members.map((m: any) => m.id)).toEqual(
      rare.slice(2),
    );
    const walked = await page(`fieldFilters=${grade}:A&sortBy=${score}&sortDir=asc&pageSize=3&page=3`);
    expect(walked.total).toBe(996);
    expect(walked.members.map((m: any) => m.id)).toEqual([ids[6], ids[8], ids[9]]);
  });

  test("rejects an unknown sort field with 400 UNKNOWN_SORT_FIELD", async () => {
    const { owner } = await fixture();
    const other = await fixture();
    const foreign = await makeField(other.owner, { key: "x", label: "X", type: "SHORT_TEXT" });
    const space = (await api.call("POST", "/api/v1/space-fields", { token: owner, json: { key: "s", label: "S", type: "NUMBER" } })).body
      .id;
    for (const sortBy of ["nope", "password", foreign, space, ""]) {
      const body = expectProblem(await api.call("GET", `${M}?sortBy=${sortBy}`, { token: owner }), 400, "UNKNOWN_SORT_FIELD");
      expect(body.message).toBe("unknown sort field");
      expect(body.detail).toBe("unknown sort field");
      expect(body.errors[0].field).toBe("sortBy");
    }
  });

  test("rejects each bound with 400", async () => {
    const { owner } = await fixture();
    const dept = await makeField(owner, { key: "dept", label: "Dept", type: "SHORT_TEXT" });
    const score = await makeField(owner, { key: "score", label: "Score", type: "NUMBER" });
    const q = (query: string) => api.call("GET", `${M}?${query}`, { token: owner });
    badNumber(await q("page=0"));
    badNumber(await q("pageSize=0"));
    badNumber(await q("pageSize=101"));
    bad(await q("search="), "search");
    bad(await q(`search=${"s".repeat(256)}`), "search");
    bad(await q(Array.from({ length: 51 }, (_, i) => `roleKeys=r${i}`).join("&")), "roleKeys");
    bad(await q("status=gone"), "status");
    bad(await q("statuses=active&statuses=inactive&statuses=active"), "statuses");
    bad(await q("statuses=active&statuses=gone"), "statuses[1]");
    bad(await q("roleKeys=member&roleKeys="), "roleKeys[1]");
    bad(await q(Array.from({ length: 11 }, () => `fieldFilters=${dept}:x`).join("&")), "fieldFilters");
    bad(await q(`fieldFilters=${dept}`), "fieldFilters[0]");
    bad(await q(`fieldFilters=${dept}:`), "fieldFilters[0]");
    bad(await q(`fieldFilters=${dept}:${"v".repeat(256)}`), "fieldFilters[0]");
    bad(await q(`fieldFilters=${dept}:x&fieldFilters=unknown:x`), "fieldFilters[1]");
    bad(await q(`fieldFilters=${score}:ten`), "fieldFilters[0]");
    bad(await q("lastLoginFrom=yesterday"), "lastLoginFrom");
    bad(await q("lastLoginTo=2025-01-01"), "lastLoginTo");
    bad(await q("isIssuedAccount=yes"), "isIssuedAccount");
    badNumber(await q("activeSpaceCountMin=-1"));
    badNumber(await q("inactiveSpaceCountMax=1.5"));
    bad(await q("sortDir=up"), "sortDir");
    bad(await q("filterFieldId="), "filterFieldId");
    bad(await q(`filterFieldId=${dept}`), "filterValue");
    bad(await q(`filterFieldId=${dept}&filterValue=${"v".repeat(256)}`), "filterValue");
    bad(await q("include=everything"), "include");
  });

  test("lists only the caller's tenant; 401 and 403", async () => {
    const { owner, tenant, member } = await fixture();
    const other = await fixture();
    expect((await listIds(owner, "")).sort()).toEqual([tenant.memberId, member.memberId].sort());
    expect(await listIds(other.owner, "")).not.toContain(tenant.memberId);
    expectProblem(await api.call("GET", M), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", M, { token: member.token }), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/members/{userPkId} — getMember", () => {
  test("returns the member with its field values; include=spaceCounts adds the counts", async () => {
    const { owner, member } = await fixture();
    const dept = await makeField(owner, { key: "dept", label: "Dept", type: "SHORT_TEXT" });
    await setValues(owner, member.memberId, [{ fieldId: dept, valueText: "Ops" }]);
    const res = await api.call("GET", `${M}/${member.memberId}?include=spaceCounts&sortBy=${dept}&page=3`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: member.memberId,
      email: member.email,
      activeSpaceCount: 0,
      inactiveSpaceCount: 0,
      fieldValues: [{ fieldId: dept, valueText: "Ops", valueNumber: null, valueDate: null }],
    });
  });

  test("validates the list's query the same way", async () => {
    const { owner, member } = await fixture();
    const body = expectProblem(await api.call("GET", `${M}/${member.memberId}?sortBy=nope`, { token: owner }), 400, "UNKNOWN_SORT_FIELD");
    expect(body.message).toBe("unknown sort field");
    badNumber(await api.call("GET", `${M}/${member.memberId}?pageSize=101`, { token: owner }));
    bad(await api.call("GET", `${M}/${member.memberId}?statuses=x`, { token: owner }), "statuses[0]");
    bad(await api.call("GET", `${M}/${member.memberId}?fieldFilters=nofield:x`, { token: owner }), "fieldFilters[0]");
  });

  test("returns 404 for a member of another tenant, 401 and 403", async () => {
    const { owner, member } = await fixture();
    const other = await fixture();
    expectProblem(await api.call("GET", `${M}/${other.member.memberId}`, { token: owner }), 404, "NOT_FOUND");
    expectProblem(await api.call("GET", `${M}/unknown`, { token: owner }), 404, "NOT_FOUND");
    expectProblem(await api.call("GET", `${M}/${member.memberId}`), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", `${M}/${member.memberId}`, { token: member.token }), 403, "FORBIDDEN");
  });
});

describe("PATCH /api/v1/members/{userPkId} — updateMember", () => {
  test("changes the sent fields; null clears; absent ones stay", async () => {
    const { owner, member } = await fixture();
    const path = `${M}/${member.memberId}`;
    const res = await api.call("PATCH", path, {
      token: owner,
      json: { displayName: "New Name", affiliation: "HQ", externalMemberCode: "E-1" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: "New Name", affiliation: "HQ", externalMemberCode: "E-1" });
    const cleared = await api.call("PATCH", path, { token: owner, json: { affiliation: null } });
    expect(cleared.body).toMatchObject({ displayName: "New Name", affiliation: null, externalMemberCode: "E-1" });
    expect((await api.call("GET", path, { token: owner })).body).toEqual(cleared.body);
    expect(await listIds(owner, "search=new name")).toEqual([member.memberId]);
  });

  test("rejects each bound with 400", async () => {
    const { owner, member } = await fixture();
    const path = `${M}/${member.memberId}`;
    bad(await api.call("PATCH", path, { token: owner, json: { displayName: "" } }), "displayName");
    bad(await api.call("PATCH", path, { token: owner, json: { displayName: "x".repeat(256) } }), "displayName");
    bad(await api.call("PATCH", path, { token: owner, json: { displayName: null } }), "displayName");
    bad(await api.call("PATCH", path, { token: owner, json: { affiliation: "x".repeat(256) } }), "affiliation");
    bad(await api.call("PATCH", path, { token: owner, json: { externalMemberCode: 5 } }), "externalMemberCode");
  });

  test("returns 404 for another tenant's member, 401 and 403", async () => {
    const { owner, member } = await fixture();
    const other = await fixture();
    expectProblem(await api.call("PATCH", `${M}/${other.member.memberId}`, { token: owner, json: { displayName: "X" } }), 404, "NOT_FOUND");
    expectProblem(await api.call("PATCH", `${M}/${member.memberId}`, { json: { displayName: "X" } }), 401, "UNAUTHENTICATED");
    expectProblem(
      await api.call("PATCH", `${M}/${member.memberId}`, { token: member.token, json: { displayName: "X" } }),
      403,
      "FORBIDDEN",
    );
  });
});

describe("POST /api/v1/members/bulk-delete — deleteMembers", () => {
  test("deletes members and reports not-found, self and owner per id", async () => {
    const { owner, tenant, member } = await fixture();
    const other = await fixture();
    const remover = await createMemberFixture(api.server, tenant, { permissions: ["member:remove", "member:read"] });
    const res = await api.call("POST", `${M}/bulk-delete`, {
      token: remover.token,
      json: { userPkIds: [member.memberId, "unknown", remover.memberId, tenant.memberId, other.member.memberId, member.memberId] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deleted: [member.memberId],
      failed: [
        { userPkId: "unknown", reason: "not-found" },
        { userPkId: remover.memberId, reason: "self" },
        { userPkId: tenant.memberId, reason: "owner" },
        { userPkId: other.member.memberId, reason: "not-found" },
      ],
    });
    expectProblem(await api.call("GET", `${M}/${member.memberId}`, { token: owner }), 404, "NOT_FOUND");
    expect(directoryOf(api.server.rt.platform.db, member.email)).toEqual([]);
    // the deleted member's session no longer works; the other tenant's member is untouched
    expectProblem(await api.call("GET", "/api/v1/member-fields", { token: member.token }), 401, "UNAUTHENTICATED");
    expect((await api.call("GET", `${M}/${other.member.memberId}`, { token: other.owner })).status).toBe(200);
  });

  test("also removes the member's field values and direct grants", async () => {
    const { owner, tenant } = await fixture();
    const dept = await makeField(owner, { key: "dept", label: "Dept", type: "SHORT_TEXT" });
    const id = (await createMember(owner, { displayName: "Gone", userId: "gone" })).body.member.id;
    await setValues(owner, id, [{ fieldId: dept, valueText: "x" }]);
    onTenant(
      tenant.tenantId,
      "INSERT INTO grant_subjects (code, subject_type, subject_id, created_at) VALUES ('member:read', 'MEMBER', ?, 0)",
      id,
    );
    expect((await api.call("POST", `${M}/bulk-delete`, { token: owner, json: { userPkIds: [id] } })).body.deleted).toEqual([id]);
    const left = api.server.rt.tenants.use(tenant.tenantId, (h) => ({
      values: h.sqlite.query("SELECT count(*) AS n FROM member_field_values WHERE member_id = ?").get(id),
      grants: h.sqlite.query("SELECT count(*) AS n FROM grant_subjects WHERE subject_id = ?").get(id),
    }));
    expect(left).toEqual({ values: { n: 0 }, grants: { n: 0 } });
  });

  test("an overlong id is a per-item not-found; in a path it is 404", async () => {
    const { owner, member } = await fixture();
    const long = "x".repeat(101);
    const res = await api.call("POST", `${M}/bulk-delete`, { token: owner, json: { userPkIds: [long, member.memberId] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: [member.memberId], failed: [{ userPkId: long, reason: "not-found" }] });
    expectProblem(await api.call("GET", `${M}/${long}`, { token: owner }), 404, "NOT_FOUND");
    expectProblem(await api.call("PATCH", `${M}/${long}`, { token: owner, json: { displayName: "X" } }), 404, "NOT_FOUND");
    expectProblem(await api.call("POST", `${M}/${long}/reset-password`, { token: owner, json: {} }), 404, "NOT_FOUND");
  });

  test("also removes the member's tenant term consents: Term.consentCount stops counting it", async () => {
    const { owner, tenant, member } = await fixture();
    const term = await api.call("POST", "/api/v1/terms", { token: owner, json: { topic: "T_PRIVACY", order: 1 } });
    expect(term.status).toBe(201);
    const agreed = await api.call("POST", "/api/v1/me/agreements", {
      token: member.token,
      json: { agreements: [{ scope: "tenant", topic: "T_PRIVACY", version: 1 }] },
    });
    expect(agreed.status).toBe(201);
    const count = async () => (await api.call("GET", "/api/v1/terms", { token: owner })).body.terms[0].consentCount;
    expect(await count()).toBe(1);
    const res = await api.call("POST", `${M}/bulk-delete`, { token: owner, json: { userPkIds: [member.memberId] } });
    expect(res.body.deleted).toEqual([member.memberId]);
    expect(await count()).toBe(0);
    const left = api.server.rt.tenants.use(tenant.tenantId, (h) =>
      h.sqlite.query("SELECT count(*) AS n FROM term_consents WHERE subject = ?").get(member.memberId),
    );
    expect(left).toEqual({ n: 0 });
  });

  test("a space's owner, or a space's only ADMIN, is refused as owner and stays; a participant goes", async () => {
    const { owner, tenant } = await fixture();
    const creator = await createMemberFixture(api.server, tenant, { permissions: ["space:create"] });
    const admin = await createMemberFixture(api.server, tenant);
    const pupil = await createMemberFixture(api.server, tenant);
    const space = await api.call("POST", "/api/v1/spaces", { token: creator.token, json: { name: "Held" } });
    expect(space.status).toBe(201);
    const enrol = (userIds: string[], role: string) =>
      api.call("POST", `/api/v1/spaces/${space.body.id}/members`, { token: creator.token, json: { userIds, role } });
    expect((await enrol([admin.memberId], "ADMIN")).status).toBe(200);
    expect((await enrol([pupil.memberId], "PARTICIPANT")).status).toBe(200);
    const del = async (ids: string[]) => (await api.call("POST", `${M}/bulk-delete`, { token: owner, json: { userPkIds: ids } })).body;
    // The owner stays even with another ADMIN: the owner cannot be removed from its space.
    expect(await del([creator.memberId, pupil.memberId])).toEqual({
      deleted: [pupil.memberId],
      failed: [{ userPkId: creator.memberId, reason: "owner" }],
    });
    expect((await api.call("GET", `${M}/${creator.memberId}`, { token: owner })).status).toBe(200);
    expect((await api.call("GET", `/api/v1/spaces/${space.body.id}`, { token: creator.token })).status).toBe(200);
    // A space left without an owner flag (older data): its only ADMIN stays, of two the first goes and the second stays.
    onTenant(tenant.tenantId, "UPDATE space_members SET is_owner = 0 WHERE space_id = ?", space.body.id);
    expect(await del([creator.memberId, admin.memberId])).toEqual({
      deleted: [creator.memberId],
      failed: [{ userPkId: admin.memberId, reason: "owner" }],
    });
    const admins = api.server.rt.tenants.use(tenant.tenantId, (h) =>
      h.sqlite.query("SELECT member_id FROM space_members WHERE space_id = ? AND role = 'ADMIN'").all(space.body.id),
    );
    expect(admins).toEqual([{ member_id: admin.memberId }]);
  });

  test("rejects 0 or more than 10 ids with 400; 401 and 403", async () => {
    const { owner, member } = await fixture();
    bad(await api.call("POST", `${M}/bulk-delete`, { token: owner, json: { userPkIds: [] } }), "userPkIds");
    bad(await api.call("POST", `${M}/bulk-delete`, { token: owner, json: { userPkIds: Array(11).fill("x") } }), "userPkIds");
    bad(await api.call("POST", `${M}/bulk-delete`, { token: owner, json: { userPkIds: [""] } }), "userPkIds[0]");
    bad(await api.call("POST", `${M}/bulk-delete`, { token: owner, json: {} }), "userPkIds");
    expectProblem(await api.call("POST", `${M}/bulk-delete`, { json: { userPkIds: ["x"] } }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("POST", `${M}/bulk-delete`, { token: member.token, json: { userPkIds: ["x"] } }), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/members/{userPkId}/reset-password — resetMemberPassword", () => {
  test("sets the given or a generated password and requires a change", async () => {
    const { owner, tenant, member } = await fixture();
    const path = `${M}/${member.memberId}/reset-password`;
    const given = await api.call("POST", path, { token: owner, json: { password: "N3wPassword" } });
    expect(given.status).toBe(200);
    expect(given.body).toEqual({ tempPassword: "N3wPassword" });
    const hash = () =>
      api.server.rt.tenants.use(tenant.tenantId, (h) =>
        h.sqlite.query("SELECT password_hash AS p FROM members WHERE id = ?").get(member.memberId),
      ) as {
        p: string;
      };
    expect(await Bun.password.verify("N3wPassword", hash().p)).toBe(true);
    const actor = api.server.rt.tenants.use(tenant.tenantId, (h) => resolveMember(h, member.memberId));
    expect(actor?.mustChangePassword).toBe(true);
    const generated = await api.call("POST", path, { token: owner, json: {} });
    expect(generated.body.tempPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(await Bun.password.verify(generated.body.tempPassword, hash().p)).toBe(true);
    expect((await api.call("POST", path, { token: owner, json: { password: `a1${"x".repeat(126)}` } })).status).toBe(200);
  });

  test("ends the member's sessions: its access token and refresh cookie stop working", async () => {
    const { owner, tenant, member } = await fixture();
    const signIn = await api.call("POST", "/api/v1/auth/sign-in/password", {
      json: { identifier: member.email, password: member.password, tenantKey: tenant.tenantKey },
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect((await api.call("POST", `${M}/${member.memberId}/reset-password`, { token: owner, json: {} })).status).toBe(200);
    expectProblem(await api.call("GET", "/api/v1/me", { token: signIn.body.accessToken }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", "/api/v1/me", { token: member.token }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("POST", "/api/v1/auth/session/refresh", { headers: { cookie } }), 401, "SESSION_EXPIRED");
    expect((await api.call("GET", "/api/v1/me", { token: owner })).status).toBe(200);
  });

  test("rejects passwords outside 8..128 with 400", async () => {
    const { owner, member } = await fixture();
    const path = `${M}/${member.memberId}/reset-password`;
    bad(await api.call("POST", path, { token: owner, json: { password: "abc123!" } }), "password");
    bad(await api.call("POST", path, { token: owner, json: { password: `a1${"x".repeat(127)}` } }), "password");
  });

  test("returns 404 for another tenant's member, 401, 403, and 403 for a member with more rights than the caller", async () => {
    const { owner, tenant, member } = await fixture();
    const other = await fixture();
    expectProblem(await api.call("POST", `${M}/${other.member.memberId}/reset-password`, { token: owner, json: {} }), 404, "NOT_FOUND");
    expectProblem(await api.call("POST", `${M}/${member.memberId}/reset-password`, { json: {} }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("POST", `${M}/${member.memberId}/reset-password`, { token: member.token, json: {} }), 403, "FORBIDDEN");
    const manager = await createMemberFixture(api.server, tenant, { permissions: ["member:manage"] });
    expectProblem(await api.call("POST", `${M}/${tenant.memberId}/reset-password`, { token: manager.token, json: {} }), 403, "FORBIDDEN");
    expect((await api.call("POST", `${M}/${member.memberId}/reset-password`, { token: manager.token, json: {} })).status).toBe(200);
  });

  test("returns 403 for a member whose grants (direct or through a group) reach beyond the caller's permissions", async () => {
    const { owner, tenant } = await fixture();
    const manager = await createMemberFixture(api.server, tenant, { permissions: ["member:manage"] });
    const direct = await createMemberFixture(api.server, tenant);
    const viaGroup = await createMemberFixture(api.server, tenant);
    const reset = (id: string) => api.call("POST", `${M}/${id}/reset-password`, { token: manager.token, json: {} });
    expect((await reset(direct.memberId)).status).toBe(200);
    expect((await reset(viaGroup.memberId)).status).toBe(200);
    const subject = (json: object) => api.call("POST", "/api/v1/permission-grants/role:manage/subjects", { token: owner, json });
    expect((await subject({ subjectType: "MEMBER", subjectId: direct.memberId })).status).toBe(200);
    const group = (await api.call("POST", "/api/v1/groups", { token: owner, json: { name: "Admins" } })).body.id;
    expect(
      (await api.call("POST", `/api/v1/groups/${group}/members`, { token: owner, json: { userIds: [viaGroup.memberId] } })).status,
    ).toBe(200);
    expect((await subject({ subjectType: "GROUP", subjectId: group })).status).toBe(200);
    expectProblem(await reset(direct.memberId), 403, "FORBIDDEN");
    expectProblem(await reset(viaGroup.memberId), 403, "FORBIDDEN");
    // a caller holding the granted code too may reset
    const both = await createMemberFixture(api.server, tenant, { permissions: ["member:manage", "role:manage"] });
    const ok = await api.call("POST", `${M}/${direct.memberId}/reset-password`, { token: both.token, json: {} });
    expect(ok.status).toBe(200);
  });
});

describe("PUT /api/v1/members/{userPkId}/field-values — setMemberFieldValues", () => {
  test("stores values by field type and replaces the set; later reads show it", async () => {
    const { owner, member } = await fixture();
    const dept = await makeField(owner, { key: "dept", label: "Dept", type: "SHORT_TEXT" });
    const grade = await makeField(owner, { key: "grade", label: "Grade", type: "SELECT", options: ["A", "B"] });
    const score = await makeField(owner, { key: "score", label: "Score", type: "NUMBER" });
    const born = await makeField(owner, { key: "born", label: "Born", type: "DATE" });
    const res = await setValues(owner, member.memberId, [
      { fieldId: born, valueDate: "2000-01-02T03:00:00+09:00" },
      { fieldId: dept, valueText: "Sales", valueNumber: null },
      { fieldId: grade, valueText: "B" },
      { fieldId: score, valueNumber: 7.5 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.values).toEqual([
      { fieldId: dept, valueText: "Sales", valueNumber: null, valueDate: null },
      { fieldId: grade, valueText: "B", valueNumber: null, valueDate: null },
      { fieldId: score, valueText: null, valueNumber: 7.5, valueDate: null },
      { fieldId: born, valueText: null, valueNumber: null, valueDate: "2000-01-01T18:00:00.000Z" },
    ]);
    expect((await api.call("GET", `${M}/${member.memberId}`, { token: owner })).body.fieldValues).toEqual(res.body.values);
    const replaced = await setValues(owner, member.memberId, [
      { fieldId: score, valueNumber: 1 },
      { fieldId: dept, valueText: null },
    ]);
    expect(replaced.body.values).toEqual([{ fieldId: score, valueText: null, valueNumber: 1, valueDate: null }]);
    expect((await api.call("GET", `${M}/${member.memberId}`, { token: owner })).body.fieldValues).toEqual(replaced.body.values);
  });

  test("rejects unknown fields, wrong types and too many entries with 400", async () => {
    const { owner, member } = await fixture();
    const other = await fixture();
    const grade = await makeField(owner, { key: "grade", label: "Grade", type: "SELECT", options: ["A"] });
    const score = await makeField(owner, { key: "score", label: "Score", type: "NUMBER" });
    const born = await makeField(owner, { key: "born", label: "Born", type: "DATE" });
    const short = await makeField(owner, { key: "short", label: "Short", type: "SHORT_TEXT" });
    const foreign = await makeField(other.owner, { key: "x", label: "X", type: "SHORT_TEXT" });
    const space = (await api.call("POST", "/api/v1/space-fields", { token: owner, json: { key: "s", label: "S", type: "NUMBER" } })).body
      .id;
    const put = (values: object[]) => setValues(owner, member.memberId, values);
    bad(await put([{ fieldId: "unknown", valueText: "x" }]), "values[0].fieldId");
    bad(await put([{ fieldId: foreign, valueText: "x" }]), "values[0].fieldId");
    bad(await put([{ fieldId: space, valueNumber: 1 }]), "values[0].fieldId");
    bad(await put([{ fieldId: grade, valueText: "Z" }]), "values[0].valueText");
    bad(await put([{ fieldId: score, valueText: "1" }]), "values[0].valueText");
    bad(await put([{ fieldId: score, valueNumber: "1" }]), "values[0].valueNumber");
    bad(await put([{ fieldId: born, valueDate: "2000-01-01" }]), "values[0].valueDate");
    bad(await put([{ fieldId: short, valueText: "x".repeat(256) }]), "values[0].valueText");
    bad(
      await put([
        { fieldId: score, valueNumber: 1 },
        { fieldId: score, valueNumber: 2 },
      ]),
      "values[1].fieldId",
    );
    bad(await put(Array.from({ length: 201 }, () => ({ fieldId: score, valueNumber: 1 }))), "values");
    bad(await api.call("PUT", `${M}/${member.memberId}/field-values`, { token: owner, json: {} }), "values");
    expect((await api.call("GET", `${M}/${member.memberId}`, { token: owner })).body.fieldValues).toEqual([]);
  });

  test("returns 404 for another tenant's member, 401 and 403", async () => {
    const { owner, member } = await fixture();
    const other = await fixture();
    expectProblem(await setValues(owner, other.member.memberId, []), 404, "NOT_FOUND");
    expectProblem(await api.call("PUT", `${M}/${member.memberId}/field-values`, { json: { values: [] } }), 401, "UNAUTHENTICATED");
    expectProblem(await setValues(member.token, member.memberId, []), 403, "FORBIDDEN");
  });
});
