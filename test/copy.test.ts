import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent, uploadFile } from "./helpers/fixture";
import { createContentSpace, createMemberFixture, fieldOf, forbidden, notFound, unauth, useServer } from "./helpers/server";

// copyContent, copySpace, moving a content (docs/rules/next-year.md#copies, #moving).
const api = useServer();
const { as, anon } = api;

let owner: Tenant;
let other: Tenant;
let admin2: Member;
let alice: Member;
let bob: Member;
let outsider: Member;
let spaceId: string;
let nodeId: string;
let quiz: string;
let file: string;

const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const QUESTIONS = [{ type: "SINGLE", body: "1+1", point: 2, options: [{ body: "2", isCorrect: true }, { body: "3" }] }];

async function take(who: Member, id: string) {
  const attempt = (await as(who).post(`/quizzes/${id}/my-attempts`)).body.attempt;
  const q = attempt.questions[0];
  const answers = [{ questionId: q.id, selectedOptionIds: [q.options.find((o: any) => o.body === "2").id] }];
  expect((await as(who).post(`/quizzes/${id}/my-attempts/${attempt.attemptId}/submit`, { answers })).status).toBe(200);
}

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    spaceId,
    nodeId,
    participants: [alice, bob],
  } = await createContentSpace(api, { spaceName: "Maths 2026", participants: ["Alice", "Bob"] }));
  file = await uploadFile(api, owner, { fileName: "sheet.txt", bytes: "worksheet" });
  quiz = await createContent(api, owner, nodeId, "QUIZ", {
    title: "Quiz 1",
    config: { questions: QUESTIONS.map((q) => ({ ...q, attachmentFileIds: [file] })), opensAt: at(-60), closesAt: at(60), maxAttempts: 3 },
    body: { fileIds: [file] },
  });
  await take(alice, quiz);
});

describe("POST /api/v1/library/contents/{contentId}/copy — copyContent", () => {
  test("a copied quiz taken by a new class does not touch the original's attempts or statistics", async () => {
    const before = (await as(owner).get(`/quizzes/${quiz}/statistics`)).body;
    const next = (await as(owner).post("/spaces", { name: "Maths 2027" })).body.id;
    await as(owner).post(`/spaces/${next}/members`, { userIds: [bob.memberId], role: "PARTICIPANT" });
    const folder = (await as(owner).post("/library/nodes", { title: "Term 1", spaceId: next })).body.id;
    const res = await as(owner).post(`/library/contents/${quiz}/copy`, { nodeId: folder });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "QUIZ", title: "Quiz 1", visibility: "PRIVATE" });
    expect(res.body.attachments.map((a: any) => a.fileId)).toEqual([file]);
    const copy = res.body.id;
    const cfg = (await as(owner).get(`/quizzes/${copy}/config`)).body;
    const orig = (await as(owner).get(`/quizzes/${quiz}/config`)).body;
    expect(cfg).toMatchObject({ opensAt: null, closesAt: null, maxAttempts: 3 });
    expect(cfg.questions[0].id).not.toBe(orig.questions[0].id);
    expect(cfg.questions[0].options.map((o: any) => o.body)).toEqual(["2", "3"]);
    expect(cfg.questions[0].attachments.map((a: any) => a.fileId)).toEqual([file]);
    expect((await as(owner).get(`/quizzes/${copy}/attempts`)).body.attempts).toEqual([]);
    // the new class takes the copy
    await as(owner).patch(`/library/contents/${copy}`, { visibility: "SHARED" });
    await take(bob, copy);
    expect((await as(owner).get(`/quizzes/${copy}/statistics`)).body.submittedCount).toBe(1);
    expect((await as(owner).get(`/quizzes/${quiz}/statistics`)).body).toEqual(before);
    expect((await as(owner).get(`/quizzes/${quiz}/attempts`)).body.attempts.length).toBe(1);
    // deleting the copy keeps the stored file the original still uses
    expect((await as(owner).del(`/library/contents/${copy}`)).status).toBe(204);
    const again = (await as(owner).get(`/library/contents/${quiz}`)).body.attachments[0];
    expect((await api.call("GET", new URL(again.url).pathname + new URL(again.url).search)).status).toBe(200);
  });

  test("an assignment keeps config and rubric without deadline, submissions or extensions; a title may be given", async () => {
    const hw = await createContent(api, owner, nodeId, "ASSIGNMENT", { title: "Essay", config: { maxScore: 10, dueAt: at(60) } });
    await as(owner).put(`/assignments/${hw}/rubric`, {
      useLevel: false,
      visibility: "VISIBLE_ALL",
      criteria: [{ name: "Clarity", maxPoints: 10 }],
    });
    await as(alice).post(`/assignments/${hw}/submissions`, { body: "mine" });
    await as(owner).put(`/assignments/${hw}/extensions/${bob.profileId}`, { dueAt: at(120) });
    const copy = (await as(owner).post(`/library/contents/${hw}/copy`, { nodeId, title: "Essay (2027)" })).body;
    expect(copy).toMatchObject({ title: "Essay (2027)", visibility: "PRIVATE" });
    expect((await as(owner).get(`/assignments/${copy.id}/config`)).body).toMatchObject({ maxScore: 10, dueAt: null });
    const rubric = (await as(owner).get(`/assignments/${copy.id}/rubric`)).body;
    expect(rubric.criteria.map((c: any) => c.name)).toEqual(["Clarity"]);
    expect((await as(owner).get(`/assignments/${copy.id}/submissions`)).body.submissions).toEqual([]);
  });

  test("400 for a folder the caller cannot see, 401, 403 for a non-manager or a folder of a space they do not run, 404 across tenants", async () => {
    expect(fieldOf(await as(owner).post(`/library/contents/${quiz}/copy`, { nodeId: "nope" }))).toBe("nodeId");
    expect(fieldOf(await as(owner).post(`/library/contents/${quiz}/copy`, {}))).toBe("nodeId");
    unauth(await anon("POST", `/library/contents/${quiz}/copy`, { nodeId }));
    forbidden(await as(alice).post(`/library/contents/${quiz}/copy`, { nodeId }));
    notFound(await as(outsider).post(`/library/contents/${quiz}/copy`, { nodeId }));
    notFound(await as(other).post(`/library/contents/${quiz}/copy`, { nodeId }));
    // admin2 manages the quiz (ADMIN of its space) but holds no library:upload
    forbidden(await as(admin2).post(`/library/contents/${quiz}/copy`, { nodeId }));
  });
});

describe("PATCH /api/v1/library/contents/{contentId} — moving with nodeId", () => {
  test("moves within the space; another space is 400; a folder the caller cannot create in is 403", async () => {
    const doc = await createContent(api, owner, nodeId, "DOCUMENT", { title: "Notes" });
    const sub = (await as(owner).post("/library/nodes", { title: "Archive", spaceId })).body.id;
    const moved = await as(owner).patch(`/library/contents/${doc}`, { nodeId: sub });
    expect(moved.status).toBe(200);
    expect((await as(owner).get(`/library/contents?nodeId=${sub}`)).body.contents.map((c: any) => c.id)).toEqual([doc]);
    const elsewhere = (await as(owner).post("/spaces", { name: "Elsewhere" })).body.id;
    const far = (await as(owner).post("/library/nodes", { title: "F", spaceId: elsewhere })).body.id;
    expect(fieldOf(await as(owner).patch(`/library/contents/${doc}`, { nodeId: far }))).toBe("nodeId");
    const lib = (await as(owner).post("/library/nodes", { title: "Library" })).body.id;
    expect(fieldOf(await as(owner).patch(`/library/contents/${doc}`, { nodeId: lib }))).toBe("nodeId");
    const author = await createMemberFixture(api.server, owner, { displayName: "Author", permissions: [] });
    const mine = (await as(owner).post("/library/contents", { type: "DOCUMENT", title: "Lib doc", nodeId: lib })).body.id;
    const lib2 = (await as(owner).post("/library/nodes", { title: "Library 2" })).body.id;
    expect((await as(owner).patch(`/library/contents/${mine}`, { nodeId: lib2 })).status).toBe(200);
    notFound(await as(author).patch(`/library/contents/${mine}`, { nodeId: lib }));
  });
});

describe("POST /api/v1/spaces/{spaceId}/copy — copySpace", () => {
  test("same settings, folders and contents as drafts, group sets without members, archived posts; no participants", async () => {
    const set = (
      await as(owner).post(`/spaces/${spaceId}/group-sets`, { name: "Teams", groups: [{ name: "Red", memberIds: [alice.memberId] }] })
    ).body;
    const project = await createContent(api, owner, nodeId, "GROUP_ASSIGNMENT", {
      title: "Project",
      config: { spaceGroupSetId: set.id, dueAt: at(30) },
    });
    expect(project).toBeString();
    await as(owner)
      .post("/posts", { spaceIds: [spaceId], title: "Welcome", content: "Hi" })
      .catch(() => null);
    const res = await as(owner).post(`/spaces/${spaceId}/copy`, { name: "Maths 2027", semester: "2027-1", includePosts: true });
    expect(res.status).toBe(201);
    const copy = res.body;
    expect(copy).toMatchObject({ name: "Maths 2027", semester: "2027-1", isActive: true });
    const people = (await as(owner).get(`/spaces/${copy.id}/members`)).body;
    const roles = (people.members ?? people.items ?? []).map((m: any) => m.role);
    expect(roles.every((r: string) => r === "ADMIN")).toBe(true);
    expect(roles.length).toBe(2); // the owner and the other ADMIN
    const nodes = (await as(owner).get("/library/nodes")).body;
    const list = nodes.nodes ?? nodes;
    const copiedFolder = list.find((n: any) => n.spaceId === copy.id);
    expect(copiedFolder?.title).toBe("Folder");
    const contents = (await as(owner).get(`/library/contents?nodeId=${copiedFolder.id}`)).body.contents;
    expect(contents.every((c: any) => c.visibility === "PRIVATE")).toBe(true);
    const copiedProject = contents.find((c: any) => c.title === "Project");
    const cfg = (await as(owner).get(`/group-assignments/${copiedProject.id}/config`)).body;
    const sets = (await as(owner).get(`/spaces/${copy.id}/group-sets`)).body;
    const copiedSet = (sets.groupSets ?? sets)[0];
    expect(cfg.config).toMatchObject({ spaceGroupSetId: copiedSet.id, dueAt: null });
    expect(cfg.isLinkValid).toBe(true);
    expect(copiedSet.groups.every((g: any) => (g.members ?? g.memberIds ?? []).length === 0)).toBe(true);
    // the original is untouched
    expect((await as(alice).get(`/spaces/${spaceId}/my-grades`)).status).toBe(200);
    notFound(await as(alice).get(`/spaces/${copy.id}/gradebook`)); // no participants were copied
  });

  test("400 bounds, 401, 403 for a participant or an ADMIN without space:create, 404 across tenants", async () => {
    expect(fieldOf(await as(owner).post(`/spaces/${spaceId}/copy`, {}))).toBe("name");
    expect(fieldOf(await as(owner).post(`/spaces/${spaceId}/copy`, { name: "" }))).toBe("name");
    expect(fieldOf(await as(owner).post(`/spaces/${spaceId}/copy`, { name: "X", includePosts: "yes" }))).toBe("includePosts");
    unauth(await anon("POST", `/spaces/${spaceId}/copy`, { name: "X" }));
    forbidden(await as(alice).post(`/spaces/${spaceId}/copy`, { name: "X" }));
    forbidden(await as(admin2).post(`/spaces/${spaceId}/copy`, { name: "X" })); // ADMIN, but a plain member: no space:create
    notFound(await as(other).post(`/spaces/${spaceId}/copy`, { name: "X" }));
  });
});
