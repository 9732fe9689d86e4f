import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { posts } from "../src/modules/posts/tables";
import { members } from "../src/schema/members";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent } from "./helpers/fixture";
import { createContentSpace, createMemberFixture, expectProblem, fieldOf, forbidden, notFound, unauth, useServer } from "./helpers/server";

// docs/rules/members.md: guardian links, and what a guardian sees of each child.
const api = useServer();
const { as, anon } = api;
const DAY = 24 * 60 * 60 * 1000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

let owner: Tenant;
let other: Tenant;
let alice: Member; // the parent's first child, in Maths
let bob: Member; // a classmate: nobody's child here
let carol: Member; // the parent's second child, in Maths and Science
let parent: Member;
let teacher: Member; // member:read only
let maths: string;
let science: string;
let nodeId: string;
const ids: Record<string, string> = {};

const link = (student: Member | { memberId: string }, guardianId: string, who: { token: string } = owner) =>
  as(who).post(`/members/${student.memberId}/guardians`, { guardianId });
const overview = (student: { memberId: string }, who: { token: string } = parent) =>
  as(who).get(`/me/students/${student.memberId}/overview`);

async function assignment(key: string, dueDays: number | null, visibility = "SHARED", node = nodeId) {
  ids[key] = await createContent(api, owner, node, "ASSIGNMENT", {
    title: key,
    body: { visibility },
    config: { maxScore: 10, allowLateSubmit: true, dueAt: dueDays === null ? null : at(dueDays) },
  });
  return ids[key] as string;
}
async function submit(who: Member, key: string) {
  const res = await as(who).post(`/assignments/${ids[key]}/submissions`, { body: "my work" });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  let participants: readonly Member[];
  ({
    owner,
    other,
    spaceId: maths,
    nodeId,
    participants,
  } = await createContentSpace(api, {
    spaceName: "Maths",
    participants: ["Alice", "Bob", "Carol"],
  }));
  [alice, bob, carol] = participants as [Member, Member, Member];
  parent = await createMemberFixture(api.server, owner, { displayName: "Parent" });
  teacher = await createMemberFixture(api.server, owner, { displayName: "Reader", permissions: ["member:read"] });
  science = (await as(owner).post("/spaces", { name: "Science" })).body.id;
  await as(owner).post(`/spaces/${science}/members`, { userIds: [carol.memberId] });
  const scienceNode = (await as(owner).post("/library/nodes", { title: "Folder", spaceId: science })).body.id;

  await assignment("submittedSoon", 2);
  await submit(alice, "submittedSoon");
  await assignment("openSoon", 3);
  await assignment("late", -2);
  await assignment("extended", -1);
  await as(owner).put(`/assignments/${ids.extended}/extensions/${alice.profileId}`, { dueAt: at(5) });
  await assignment("longAgo", -90);
  await assignment("farAway", 30);
  await assignment("draft", 1, "PRIVATE");
  await assignment("graded", null);
  await assignment("returned", null);
  const graded = await submit(alice, "graded");
  const returned = await submit(alice, "returned");
  await submit(bob, "late");
  await as(owner).put(`/assignments/${ids.graded}/submissions/${graded}/grade`, { score: 4 });
  await as(owner).put(`/assignments/${ids.returned}/submissions/${returned}/grade`, { score: 9 });
  expect((await as(owner).post(`/assignments/${ids.returned}/submissions/${returned}/return`)).status).toBe(200);
  await assignment("scienceLab", 1, "SHARED", scienceNode);

  const post = async (spaceId: string, title: string, extra: Record<string, unknown> = {}) =>
    (await as(owner).post("/posts", { spaceId, title, content: "x", type: "NOTICE", ...extra })).body.id as string;
  ids.notice = await post(maths, "Trip on Friday");
  ids.emergency = await post(science, "School closed", { isEmergency: true });
  ids.general = await post(maths, "Chat", { type: "GENERAL" });
  ids.scheduled = await post(maths, "Later", { publishAt: at(2) });
  ids.oldNotice = await post(maths, "Last term");
  api.server.rt.tenants.use(owner.tenantId, (h) =>
    h.db
      .update(posts)
      .set({ publishAt: Date.now() - 40 * DAY })
      .where(eq(posts.id, ids.oldNotice as string))
      .run(),
  );
  expect((await link(alice, parent.memberId)).status).toBe(201);
  expect((await link(carol, parent.memberId)).status).toBe(201);
});

describe("POST /api/v1/members/{userPkId}/guardians — addMemberGuardian", () => {
  test("links up to 4 guardians; the list shows them oldest first; a fifth, a repeat and oneself are refused", async () => {
    const student = await createMemberFixture(api.server, owner, { displayName: "Dan" });
    const gs = [] as Member[];
    for (let i = 0; i < 5; i++)
      gs.push(await createMemberFixture(api.server, owner, { displayName: `G${i}`, userId: `g${i}-${Date.now()}` }));
    for (const g of gs.slice(0, 4)) expect((await link(student, g.memberId)).status).toBe(201);
    const listed = await as(teacher).get(`/members/${student.memberId}/guardians`);
    expect(listed.status).toBe(200);
    expect(listed.body.guardians.map((g: any) => g.id)).toEqual(gs.slice(0, 4).map((g) => g.memberId));
    expect(listed.body.guardians[0]).toEqual({ id: gs[0]?.memberId, userId: expect.any(String), displayName: "G0", email: gs[0]?.email });
    expectProblem(await link(student, gs[4]?.memberId as string), 409, "INVALID_STATE");
    expectProblem(await link(student, gs[0]?.memberId as string), 409, "ALREADY_EXISTS");
    expect(fieldOf(await link(student, student.memberId))).toBe("guardianId");
    expect(fieldOf(await as(owner).post(`/members/${student.memberId}/guardians`, {}))).toBe("guardianId");
    expect(fieldOf(await link(student, ""))).toBe("guardianId");
  });

  test("inactive: a deactivated guardian cannot be linked (400), a deactivated student gets none (409)", async () => {
    const student = await createMemberFixture(api.server, owner);
    const g = await createMemberFixture(api.server, owner);
    expect((await as(owner).patch(`/members/${g.memberId}`, { isActive: false })).status).toBe(200);
    expect(fieldOf(await link(student, g.memberId))).toBe("guardianId");
    expect((await as(owner).patch(`/members/${student.memberId}`, { isActive: false })).status).toBe(200);
    expectProblem(await link(student, parent.memberId), 409, "INVALID_STATE");
  });

  test("401, 403 without member:manage, 404 for a student of another tenant, 400 for a guardian of another tenant", async () => {
    unauth(await anon("POST", `/members/${alice.memberId}/guardians`, { guardianId: parent.memberId }));
    forbidden(await link(bob, parent.memberId, teacher));
    notFound(await link(bob, parent.memberId, other));
    expect(fieldOf(await link(bob, other.memberId))).toBe("guardianId");
    notFound(await link({ memberId: "nobody" }, parent.memberId));
    unauth(await anon("GET", `/members/${alice.memberId}/guardians`));
    forbidden(await as(parent).get(`/members/${alice.memberId}/guardians`));
    notFound(await as(other).get(`/members/${alice.memberId}/guardians`));
  });
});

describe("GET /api/v1/me/students — listMyStudents", () => {
  test("a parent of two children sees both with their spaces; anyone else an empty list", async () => {
    const res = await as(parent).get("/me/students");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: alice.memberId, displayName: "Alice", spaces: [{ id: maths, name: "Maths", isActive: true }] },
      {
        id: carol.memberId,
        displayName: "Carol",
        spaces: [
          { id: maths, name: "Maths", isActive: true },
          { id: science, name: "Science", isActive: true },
        ],
      },
    ]);
    expect((await as(bob).get("/me/students")).body).toEqual([]);
    unauth(await anon("GET", "/me/students"));
  });
});

describe("GET /api/v1/me/students/{userPkId}/overview — getStudentOverview", () => {
  test("grades are exactly the child's own getMyGrades row: returned grades only, nothing unreturned", async () => {
    const res = await overview(alice);
    expect(res.status).toBe(200);
    expect(res.body.student).toEqual({ id: alice.memberId, displayName: "Alice" });
    expect(res.body.spaces.map((s: any) => s.spaceId)).toEqual([maths]);
    const [space] = res.body.spaces;
    expect(space.grades).toEqual((await as(alice).get(`/spaces/${maths}/my-grades`)).body);
    const cell = (key: string) => space.grades.row.cells.find((c: any) => c.contentId === ids[key]);
    expect(cell("returned")).toMatchObject({ contentId: ids.returned, score: 9, status: "RETURNED" });
    expect(cell("graded")).toMatchObject({ contentId: ids.graded, score: null, status: "GRADED" });
    expect(space.grades.columns.some((c: any) => c.contentId === ids.draft)).toBe(false);
    expect(JSON.stringify(res.body)).not.toContain("my work");
  });

  test("due soon by the child's own deadline (an extension counts), missing = past due and unsubmitted", async () => {
    const [space] = (await overview(alice)).body.spaces;
    expect(space.dueSoon.map((d: any) => [d.contentId, d.submitted])).toEqual([
      [ids.submittedSoon, true],
      [ids.openSoon, false],
      [ids.extended, false],
    ]);
    expect(space.dueSoon[0]).toEqual({
      contentId: ids.submittedSoon,
      title: "submittedSoon",
      type: "ASSIGNMENT",
      dueAt: expect.any(String),
      submitted: true,
    });
    expect(space.missing).toEqual([{ contentId: ids.late, title: "late", type: "ASSIGNMENT", dueAt: expect.any(String) }]);
    // Bob submitted the late one; his row is not Alice's.
    const bobLink = await createMemberFixture(api.server, owner, { displayName: "Bob's parent" });
    await link(bob, bobLink.memberId);
    const bobs = (await overview(bob, bobLink)).body.spaces[0];
    expect(bobs.missing.map((m: any) => m.contentId)).toEqual([ids.extended]);
  });

  test("the second child: both spaces, notices of the last 30 days with emergencies first", async () => {
    const res = await overview(carol);
    expect(res.body.spaces.map((s: any) => s.name)).toEqual(["Maths", "Science"]);
    expect(res.body.spaces[1].dueSoon.map((d: any) => d.contentId)).toEqual([ids.scienceLab]);
    expect(res.body.recentNotices.map((n: any) => n.postId)).toEqual([ids.emergency, ids.notice]);
    expect(res.body.recentNotices[0]).toEqual({
      postId: ids.emergency,
      spaceId: science,
      title: "School closed",
      isEmergency: true,
      publishAt: expect.any(String),
    });
    // Alice is not in Science: she does not get its emergency.
    expect((await overview(alice)).body.recentNotices.map((n: any) => n.postId)).toEqual([ids.notice]);
  });

  test("another student's id, a student of another tenant and a removed link are 404 at once", async () => {
    notFound(await overview(bob));
    notFound(await overview(other));
    notFound(await overview(alice, other));
    notFound(await overview(alice, alice));
    unauth(await anon("GET", `/me/students/${alice.memberId}/overview`));
    const g = await createMemberFixture(api.server, owner);
    await link(carol, g.memberId);
    expect((await overview(carol, g)).status).toBe(200);
    expect((await as(owner).del(`/members/${carol.memberId}/guardians/${g.memberId}`)).status).toBe(204);
    notFound(await overview(carol, g));
    expect((await as(g).get("/me/students")).body).toEqual([]);
    notFound(await as(owner).del(`/members/${carol.memberId}/guardians/${g.memberId}`));
    forbidden(await as(teacher).del(`/members/${carol.memberId}/guardians/${parent.memberId}`));
    notFound(await as(other).del(`/members/${carol.memberId}/guardians/${parent.memberId}`));
    unauth(await anon("DELETE", `/members/${carol.memberId}/guardians/${parent.memberId}`));
  });

  test("a deactivated child drops out of the list and the overview; reactivated, it is back", async () => {
    const kid = await createMemberFixture(api.server, owner, { displayName: "Zoe" });
    await link(kid, parent.memberId);
    api.server.rt.tenants.use(owner.tenantId, (h) =>
      h.db.update(members).set({ isActive: false }).where(eq(members.id, kid.memberId)).run(),
    );
    notFound(await overview(kid));
    expect((await as(parent).get("/me/students")).body.map((s: any) => s.id)).not.toContain(kid.memberId);
    expect((await as(owner).get(`/members/${kid.memberId}/guardians`)).body.guardians.map((g: any) => g.id)).toEqual([parent.memberId]);
    api.server.rt.tenants.use(owner.tenantId, (h) =>
      h.db.update(members).set({ isActive: true }).where(eq(members.id, kid.memberId)).run(),
    );
    expect((await overview(kid)).status).toBe(200);
  });

  test("surveys count as work: due soon by closesAt with whether the child responded, missing when closed unanswered", async () => {
    const survey = async (key: string, closeDays: number, visibility = "SHARED") => {
      ids[key] = await createContent(api, owner, nodeId, "SURVEY", {
        title: key,
        body: { visibility },
        config: { questions: [{ type: "SHORT_TEXT", title: "Anything?" }], closesAt: at(closeDays) },
      });
      return ids[key] as string;
    };
    await survey("surveySoon", 1.5);
    const answered = await survey("surveyAnswered", 4);
    await survey("surveyClosed", -0.5);
    await survey("surveyDraft", 1, "PRIVATE");
    const q = (await as(owner).get(`/surveys/${answered}/config`)).body.questions[0].id;
    expect((await as(alice).post(`/surveys/${answered}/my-response/submit`, { answers: [{ questionId: q, text: "ok" }] })).status).toBe(
      200,
    );

    const [space] = (await overview(alice)).body.spaces;
    expect(space.dueSoon.map((d: any) => [d.title, d.type, d.submitted])).toEqual([
      ["surveySoon", "SURVEY", false],
      ["submittedSoon", "ASSIGNMENT", true],
      ["openSoon", "ASSIGNMENT", false],
      ["surveyAnswered", "SURVEY", true],
      ["extended", "ASSIGNMENT", false],
    ]);
    expect(space.missing.map((m: any) => [m.title, m.type])).toEqual([
      ["surveyClosed", "SURVEY"],
      ["late", "ASSIGNMENT"],
    ]);
    // Not a grade: the gradebook row stays the child's getMyGrades.
    expect(space.grades).toEqual((await as(alice).get(`/spaces/${maths}/my-grades`)).body);
    // Carol, in the same class, answered none: her own row, not Alice's.
    const carols = (await overview(carol)).body.spaces[0];
    expect(carols.dueSoon.find((d: any) => d.contentId === answered)).toMatchObject({ type: "SURVEY", submitted: false });
  });
});

describe("guardian notification copies (docs/rules/notifications.md#guardian-copies)", () => {
  const inbox = async (who: { token: string }, recordId: string) =>
    (await as(who).get("/me/notifications?limit=100")).body.notifications.filter((n: any) => n.recordId === recordId);

  test("an emergency in a child's space reaches the guardian as GUARDIAN_EMERGENCY naming the child; a removed link stops it at once", async () => {
    const g = await createMemberFixture(api.server, owner, { displayName: "Second parent" });
    await link(alice, g.memberId);
    const first = (await as(owner).post("/posts", { spaceId: maths, title: "Gas leak", content: "Go home", isEmergency: true })).body.id;
    const copies = await inbox(g, first);
    expect(copies.map((n: any) => [n.kind, n.titleEn])).toEqual([["GUARDIAN_EMERGENCY", "[Alice] Gas leak"]]);
    // Bob's parent has no link to Alice; nobody outside gets a copy.
    expect(await inbox(teacher, first)).toEqual([]);
    expect((await as(owner).del(`/members/${alice.memberId}/guardians/${g.memberId}`)).status).toBe(204);
    const second = (await as(owner).post("/posts", { spaceId: maths, title: "All clear", content: "Back", isEmergency: true })).body.id;
    expect(await inbox(g, second)).toEqual([]);
    expect((await inbox(parent, second)).map((n: any) => n.kind)).toEqual(["GUARDIAN_EMERGENCY", "GUARDIAN_EMERGENCY"]); // Alice and Carol
  });
});
