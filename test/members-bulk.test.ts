import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, fieldOf, forbidden, notFound, unauth, useServer } from "./helpers/server";

// docs/rules/members.md#bulk-update and #hand-over: a year's roll-over and a teacher who leaves.
const api = useServer();
const { as, anon } = api;

let owner: Tenant;
let other: Tenant;
let manager: Member; // member:manage only
let school: Member; // member:manage and tenant-settings:manage, without space:create
let fieldId: string;

beforeAll(async () => {
  owner = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  manager = await createMemberFixture(api.server, owner, { displayName: "Manager", permissions: ["member:manage", "member:read"] });
  school = await createMemberFixture(api.server, owner, {
    displayName: "School admin",
    permissions: ["member:manage", "member:read", "tenant-settings:manage"],
  });
  const field = await as(owner).post("/member-fields", { label: "Grade", key: "grade", type: "SHORT_TEXT" });
  expect(field.status).toBe(201);
  fieldId = field.body.id;
});

describe("POST /api/v1/members/bulk-update — updateMembers", () => {
  test("each item alone: updates, field values and roles land; refused items fail with their reason", async () => {
    const a = await createMemberFixture(api.server, owner, { displayName: "A", userId: `a-${Date.now()}` });
    const b = await createMemberFixture(api.server, owner, { displayName: "B" });
    const res = await as(owner).post("/members/bulk-update", {
      members: [
        { id: a.memberId, displayName: "A2", affiliation: "2-3", externalMemberCode: "S100", fieldValues: [{ fieldId, value: "8" }] },
        { id: "nobody", displayName: "X" },
        { id: b.memberId, email: a.email },
        { id: b.memberId, roleKey: "owner" },
        { id: b.memberId, displayName: "" },
        { id: owner.memberId, isActive: false },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.updated.map((u: any) => [u.index, u.member.displayName, u.member.affiliation, u.member.externalMemberCode])).toEqual([
      [0, "A2", "2-3", "S100"],
      [3, "B", null, null],
    ]);
    expect(res.body.updated[0].member.fieldValues).toEqual([{ fieldId, valueText: "8", valueNumber: null, valueDate: null }]);
    expect(res.body.updated[1].member.role.key).toBe("owner");
    expect(res.body.failed).toEqual([
      { index: 1, reason: "NOT_FOUND" },
      { index: 2, reason: "ALREADY_EXISTS" },
      { index: 4, reason: expect.stringMatching(/^INVALID: displayName /) },
      { index: 5, reason: "INVALID_STATE" },
    ]);
    expect((await as(owner).get(`/members/${b.memberId}`)).body.email).toBe(b.email);
  });

  test("a manager without member:manage-role cannot change roles (FORBIDDEN); 400 for 0 or 501 items; 401; 403; another tenant's id is NOT_FOUND", async () => {
    const c = await createMemberFixture(api.server, owner);
    const res = await as(manager).post("/members/bulk-update", { members: [{ id: c.memberId, roleKey: "owner" }] });
    expect(res.body).toEqual({ updated: [], failed: [{ index: 0, reason: "FORBIDDEN" }] });
    expect(fieldOf(await as(owner).post("/members/bulk-update", { members: [] }))).toBe("members");
    const many = Array.from({ length: 501 }, () => ({ id: c.memberId }));
    expect(fieldOf(await as(owner).post("/members/bulk-update", { members: many }))).toBe("members");
    unauth(await anon("POST", "/members/bulk-update", { members: [{ id: c.memberId }] }));
    forbidden(await as(c).post("/members/bulk-update", { members: [{ id: c.memberId }] }));
    expect((await as(other).post("/members/bulk-update", { members: [{ id: c.memberId, displayName: "X" }] })).body.failed).toEqual([
      { index: 0, reason: "NOT_FOUND" },
    ]);
  });

  // Times are not asserted in tests: the 500-item create (target < 10 s) is bench/members-bulk.ts (bench/README.md).
  test("a 500-row roll-over (create, then update all) is two calls", async () => {
    const tag = Date.now().toString(36);
    const rows = Array.from({ length: 500 }, (_, i) => ({ displayName: `Student ${i}`, userId: `roll-${tag}-${i}`, roleKey: "member" }));
    const created = await as(owner).post("/members/bulk-create", { members: rows });
    expect(created.status).toBe(201);
    expect(created.body.created).toHaveLength(500);
    const updates = created.body.created.map((c: any) => ({
      id: c.member.id,
      affiliation: "Year 2",
      fieldValues: [{ fieldId, value: "2" }],
    }));
    const updated = await as(owner).post("/members/bulk-update", { members: updates });
    expect(updated.body.updated).toHaveLength(500);
    expect(updated.body.failed).toEqual([]);
    expect(updated.body.updated.every((u: any) => u.member.affiliation === "Year 2")).toBe(true);
  }, 30_000);
});

describe("POST /api/v1/members/{userPkId}/hand-over — handOverMember, GET …/ownership — listMemberOwnership", () => {
  test("a leaving teacher's spaces and contents go to a colleague; the teacher stays as they are", async () => {
    const leaving = await createMemberFixture(api.server, owner, {
      displayName: "Leaving",
      permissions: ["space:create", "library:upload"],
    });
    const colleague = await createMemberFixture(api.server, owner, { displayName: "Colleague" });
    const space = (await as(leaving).post("/spaces", { name: "7B" })).body.id;
    const node = (await as(leaving).post("/library/nodes", { title: "Folder", spaceId: space })).body.id;
    const content = await createContent(api, leaving, node, "ASSIGNMENT", { title: "Essay" });
    const owned = await as(school).get(`/members/${leaving.memberId}/ownership`);
    expect(owned.status).toBe(200);
    expect(owned.body).toEqual({
      spaces: [{ id: space, name: "7B", isActive: true }],
      contents: [{ id: content, title: "Essay", type: "ASSIGNMENT", spaceId: space }],
    });
    forbidden(await as(manager).post(`/members/${leaving.memberId}/hand-over`, { toMemberId: colleague.memberId }));
    expect(fieldOf(await as(school).post(`/members/${leaving.memberId}/hand-over`, { toMemberId: leaving.memberId }))).toBe("toMemberId");
    expect(fieldOf(await as(school).post(`/members/${leaving.memberId}/hand-over`, { toMemberId: other.memberId }))).toBe("toMemberId");
    expect(fieldOf(await as(school).post(`/members/${leaving.memberId}/hand-over`, {}))).toBe("toMemberId");
    const res = await as(school).post(`/members/${leaving.memberId}/hand-over`, { toMemberId: colleague.memberId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ spaces: [space], contents: [content] });
    expect((await as(school).get(`/members/${leaving.memberId}/ownership`)).body).toEqual({ spaces: [], contents: [] });
    expect((await as(school).get(`/members/${colleague.memberId}/ownership`)).body.spaces.map((s: any) => s.id)).toEqual([space]);
    expect((await as(colleague).get(`/library/contents/${content}`)).body.canManage).toBe(true);
    const roles = (await as(colleague).get(`/spaces/${space}/members`)).body.members.map((m: any) => [m.id, m.role, m.isOwner]);
    expect(roles).toContainEqual([leaving.memberId, "ADMIN", false]);
    expect(roles).toContainEqual([colleague.memberId, "ADMIN", true]);
    expect((await as(school).get(`/members/${leaving.memberId}`)).body.isActive).toBe(true);
  });

  test("401, 403 without member:read, 404 for a member of another tenant", async () => {
    const plain = await createMemberFixture(api.server, owner);
    unauth(await anon("POST", `/members/${plain.memberId}/hand-over`, { toMemberId: school.memberId }));
    unauth(await anon("GET", `/members/${plain.memberId}/ownership`));
    forbidden(await as(plain).get(`/members/${plain.memberId}/ownership`));
    forbidden(await as(plain).post(`/members/${plain.memberId}/hand-over`, { toMemberId: school.memberId }));
    notFound(await as(other).get(`/members/${plain.memberId}/ownership`));
    notFound(await as(other).post(`/members/${plain.memberId}/hand-over`, { toMemberId: other.memberId }));
  });
});

describe("POST /api/v1/members/bulk-create — createMembers extras and upsert", () => {
  test("guardianOf an earlier item, spaceIds as PARTICIPANT, org units, field values; a bad guardianOf fails alone", async () => {
    const tag = Date.now();
    const space = (await as(owner).post("/spaces", { name: "Bulk space" })).body.id as string;
    const unit = (await as(owner).post("/org-units", { name: `Unit ${tag}` })).body.id as string;
    const res = await as(owner).post("/members/bulk-create", {
      members: [
        {
          displayName: "Kid",
          userId: `kid-${tag}`,
          roleKey: "member",
          affiliation: "3-1",
          externalMemberCode: "K1",
          fieldValues: [{ fieldId, value: "3" }],
          spaceIds: [space],
          orgUnitIds: [unit],
        },
        { displayName: "Parent", email: `parent-${tag}@example.com`, roleKey: "member", guardianOf: `KID-${tag}` },
        { displayName: "Stray", userId: `stray-${tag}`, roleKey: "member", guardianOf: `nobody-${tag}` },
        { displayName: "Self", userId: `self-${tag}`, roleKey: "member", guardianOf: `self-${tag}` },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.created.map((c: any) => c.index)).toEqual([0, 1]);
    expect(res.body.updated).toEqual([]);
    expect(res.body.failed).toEqual([
      { index: 2, reason: "INVALID: guardianOf does not name a member of this tenant" },
      { index: 3, reason: "INVALID: guardianOf a member cannot be their own guardian" },
    ]);
    const [kid, parent] = res.body.created.map((c: any) => c.member);
    expect(kid.affiliation).toBe("3-1");
    expect(kid.externalMemberCode).toBe("K1");
    const guardians = await as(owner).get(`/members/${kid.id}/guardians`);
    expect(guardians.body.guardians.map((g: any) => g.id)).toEqual([parent.id]);
    const roster = await as(owner).get(`/spaces/${space}/members?limit=100`);
    expect(roster.body.members.find((m: any) => m.id === kid.id)?.role).toBe("PARTICIPANT");
    const inUnit = await as(owner).get(`/org-units/${unit}/members`);
    expect(inUnit.body.members.map((m: any) => m.id)).toContain(kid.id);
    // The failed items changed nothing: no member under their userIds.
    const strays = await as(owner).get(`/members?search=stray-${tag}`);
    expect(strays.body.members).toEqual([]);
  });

  test("a space the caller does not administer fails only that item", async () => {
    const tag = Date.now();
    const space = (await as(owner).post("/spaces", { name: "Not yours" })).body.id as string;
    const res = await as(manager).post("/members/bulk-create", {
      members: [
        { displayName: "In", userId: `in-${tag}`, roleKey: "member", spaceIds: [space] },
        { displayName: "Plain", userId: `plain-${tag}`, roleKey: "member" },
      ],
    });
    expect(res.body.failed).toEqual([{ index: 0, reason: "INVALID: spaceIds[0] is not a space the caller administers" }]);
    expect(res.body.created.map((c: any) => c.index)).toEqual([1]);
  });

  test("upsert updates the existing member under updated; without upsert the duplicate fails ALREADY_EXISTS", async () => {
    const tag = Date.now();
    const first = await as(owner).post("/members/bulk-create", {
      members: [{ displayName: "Old", userId: `up-${tag}`, roleKey: "member" }],
    });
    const id = first.body.created[0].member.id as string;
    const item = { displayName: "New", userId: `up-${tag}`, roleKey: "member", affiliation: "5-2" };
    const dup = await as(owner).post("/members/bulk-create", { members: [item] });
    expect(dup.body.created).toEqual([]);
    expect(dup.body.failed).toEqual([{ index: 0, reason: "ALREADY_EXISTS" }]);
    const up = await as(owner).post("/members/bulk-create", {
      upsert: true,
      members: [item, { displayName: "Fresh", userId: `fresh-${tag}`, roleKey: "member" }],
    });
    expect(up.status).toBe(201);
    expect(up.body.updated.map((u: any) => [u.index, u.member.id, u.member.displayName, u.member.affiliation])).toEqual([
      [0, id, "New", "5-2"],
    ]);
    expect(up.body.created.map((c: any) => c.index)).toEqual([1]);
    expect(up.body.failed).toEqual([]);
    expect((await as(owner).get(`/members/${id}`)).body.displayName).toBe("New");
  });
});
