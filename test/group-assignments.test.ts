import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent, createGroupSet, uploadFile } from "./helpers/fixture";
import { createContentSpace, expectProblem, fieldOf, forbidden, invalidState, notFound, unauth, useServer } from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant; // author of the assignments and ADMIN of the space
let other: Tenant; // another tenant
let admin2: Member; // second ADMIN (manages without being the author)
let p1: Member; // group Red
let p2: Member; // group Red
let p3: Member; // group Blue
let p4: Member; // enrolled, in no group
let outsider: Member; // enrolled nowhere
let spaceId: string;
let space2Id: string; // admin2 is not ADMIN here
let nodeId: string;
let setId: string;
let red: { id: string; name: string };
let blue: { id: string; name: string };
let set2Id: string;

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    spaceId,
    nodeId,
    participants: [p1, p2, p3, p4],
  } = await createContentSpace(api, { spaceName: "Group space", participants: ["Alice", "Bob", "Carol", "Dave"] }));
  space2Id = (await as(owner).post("/spaces", { name: "Other space" })).body.id;
  ({
    setId,
    groups: [red, blue],
  } = await createGroupSet(api, owner, spaceId, "Teams", [
    { name: "Red", memberIds: [p1.memberId, p2.memberId] },
    { name: "Blue", memberIds: [p3.memberId] },
  ]));
  set2Id = (await as(owner).post(`/spaces/${space2Id}/group-sets`, { name: "Elsewhere", groups: [{ name: "X", memberIds: [] }] })).body.id;
});

/** A GROUP_ASSIGNMENT published to the space (SHARED in its folder). */
const newAssignment = (type = "GROUP_ASSIGNMENT") => createContent(api, owner, nodeId, type, { title: "Group work" });

/** An assignment linked to the Teams set with the given config. */
async function linked(config: Record<string, unknown> = {}) {
  const id = await newAssignment();
  const res = await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: setId, ...config });
  expect(res.status).toBe(200);
  return id;
}

async function submit(who: { token: string }, id: string, json: Record<string, unknown> = { body: "Our work" }) {
  const res = await as(who).post(`/group-assignments/${id}/submissions`, json);
  expect(res.status).toBe(201);
  return res.body;
}

const upload = (who: { token: string }, fileName = "report.txt", bytes = "hello") => uploadFile(api, who, { fileName, bytes });

const DEFAULT_CONFIG = {
  spaceGroupSetId: null,
  maxScore: null,
  allowLateSubmit: false,
  submissionMethod: "ANY_MEMBER",
  bodyRequired: false,
  fileRequired: false,
  dueAt: null,
};

describe("PUT /api/v1/group-assignments/{contentId}/config — setGroupAssignmentConfig", () => {
  test("links a group set and stores the settings; the read returns the same", async () => {
    const id = await newAssignment();
    const res = await as(owner).put(`/group-assignments/${id}/config`, {
      spaceGroupSetId: setId,
      maxScore: 50,
      allowLateSubmit: true,
      submissionMethod: "ALL_MEMBERS",
      bodyRequired: true,
      fileRequired: false,
      dueAt: "2030-01-02T03:04:05+09:00",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      config: {
        spaceGroupSetId: setId,
        maxScore: 50,
        allowLateSubmit: true,
        submissionMethod: "ALL_MEMBERS",
        bodyRequired: true,
        fileRequired: false,
        dueAt: "2030-01-01T18:04:05.000Z",
      },
      spaceGroupSetName: "Teams",
      isLinkValid: true,
      linkInvalidReason: null,
    });
    expect((await as(owner).get(`/group-assignments/${id}/config`)).body).toEqual(res.body);
    // a space ADMIN who is not the author manages it too
    expect((await as(admin2).get(`/group-assignments/${id}/config`)).body).toEqual(res.body);
  });

  test("PUT is a full replace: absent fields take their defaults, null unlinks", async () => {
    const id = await linked({ maxScore: 10, bodyRequired: true });
    const res = await as(owner).put(`/group-assignments/${id}/config`, {});
    expect(res.body).toEqual({ config: DEFAULT_CONFIG, spaceGroupSetName: null, isLinkValid: false, linkInvalidReason: "NOT_LINKED" });
  });

  test("returns 400 naming the field for each bound", async () => {
    const id = await newAssignment();
    const put = (json: unknown) => as(owner).put(`/group-assignments/${id}/config`, json);
    const zero = expectProblem(await put({ maxScore: 0 }), 400, "VALIDATION_FAILED");
    expect(zero.errors).toEqual([{ in: "body", field: "maxScore", message: "must be an integer >= 1 or null" }]);
    expect(fieldOf(await put({ maxScore: 9007199254740992 }))).toBe("maxScore");
    expect(fieldOf(await put({ maxScore: 1.5 }))).toBe("maxScore");
    expect(fieldOf(await put({ submissionMethod: "SOME" }))).toBe("submissionMethod");
    expect(fieldOf(await put({ dueAt: "tomorrow" }))).toBe("dueAt");
    expect(fieldOf(await put({ allowLateSubmit: "yes" }))).toBe("allowLateSubmit");
    expect(fieldOf(await put({ spaceGroupSetId: "" }))).toBe("spaceGroupSetId");
    expect(fieldOf(await put({ spaceGroupSetId: "nope" }))).toBe("spaceGroupSetId");
    // nothing was stored
    expect((await as(owner).get(`/group-assignments/${id}/config`)).body.config).toEqual(DEFAULT_CONFIG);
    // no upper limit but the safe-integer range (spec: maxScore >= 1 or null)
    for (const maxScore of [20000, 9007199254740991]) expect((await put({ maxScore })).body.config.maxScore).toBe(maxScore);
  });

  test("a set must be of a space where the caller is ADMIN (400), not of another tenant", async () => {
    const id = await newAssignment();
    // admin2 manages the content but is not ADMIN of space2
    expect(fieldOf(await as(admin2).put(`/group-assignments/${id}/config`, { spaceGroupSetId: set2Id }))).toBe("spaceGroupSetId");
    // owner is ADMIN there
    expect((await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: set2Id })).body.spaceGroupSetName).toBe("Elsewhere");
    // admin2 may keep the stored link while changing other settings
    const kept = await as(admin2).put(`/group-assignments/${id}/config`, { spaceGroupSetId: set2Id, maxScore: 7 });
    expect(kept.status).toBe(200);
    expect(kept.body.config.maxScore).toBe(7);
    const otherSpace = (await as(other).post("/spaces", { name: "Theirs" })).body.id;
    const otherSet = (await as(other).post(`/spaces/${otherSpace}/group-sets`, { name: "T", groups: [{ name: "G", memberIds: [] }] })).body
      .id;
    expect(fieldOf(await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: otherSet }))).toBe("spaceGroupSetId");
  });

  test("the set cannot be swapped once groups have submitted (409), but a deleted set's link can be replaced", async () => {
    const s = (await as(owner).post(`/spaces/${spaceId}/group-sets`, { name: "Temp", groups: [{ name: "T1", memberIds: [p1.memberId] }] }))
      .body;
    const id = await newAssignment();
    expect((await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: s.id })).status).toBe(200);
    await submit(p1, id);
    invalidState(await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: setId }));
    invalidState(await as(owner).put(`/group-assignments/${id}/config`, {}));
    // same set, other settings: fine
    expect((await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: s.id, maxScore: 5 })).status).toBe(200);
    expect((await as(owner).del(`/spaces/${spaceId}/group-sets/${s.id}`)).status).toBe(204);
    expect((await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: setId })).body.isLinkValid).toBe(true);
  });

  test("returns 401 without a token, 403 for a viewer, 404 for another tenant, an unknown id or another type", async () => {
    const id = await newAssignment();
    unauth(await anon("PUT", `/group-assignments/${id}/config`, {}));
    forbidden(await as(p1).put(`/group-assignments/${id}/config`, {}));
    notFound(await as(outsider).put(`/group-assignments/${id}/config`, {}));
    notFound(await as(other).put(`/group-assignments/${id}/config`, {}));
    notFound(await as(owner).put("/group-assignments/nope/config", {}));
    notFound(await as(owner).put(`/group-assignments/${await newAssignment("SURVEY")}/config`, {}));
  });
});

describe("GET /api/v1/group-assignments/{contentId}/config — getGroupAssignmentConfig", () => {
  test("defaults before the first save: not linked", async () => {
    const id = await newAssignment();
    const res = await as(owner).get(`/group-assignments/${id}/config`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ config: DEFAULT_CONFIG, spaceGroupSetName: null, isLinkValid: false, linkInvalidReason: "NOT_LINKED" });
  });

  test("deleting the linked set marks the link GROUP_SET_DELETED and keeps its name", async () => {
    const s = (await as(owner).post(`/spaces/${spaceId}/group-sets`, { name: "Doomed", groups: [{ name: "D", memberIds: [p1.memberId] }] }))
      .body;
    const id = await newAssignment();
    await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: s.id });
    expect((await as(owner).del(`/spaces/${spaceId}/group-sets/${s.id}`)).status).toBe(204);
    const res = await as(owner).get(`/group-assignments/${id}/config`);
    expect(res.body).toEqual({
      config: { ...DEFAULT_CONFIG, spaceGroupSetId: s.id },
      spaceGroupSetName: "Doomed",
      isLinkValid: false,
      linkInvalidReason: "GROUP_SET_DELETED",
    });
    // the delete hook stored the reason (a deleted space's sets are caught on read instead)
    const stored = api.server.rt.tenants.use(owner.tenantId, (h) =>
      h.sqlite.query("SELECT link_invalid_reason AS r FROM group_assignment_configs WHERE content_id = ?").get(id),
    );
    expect(stored).toEqual({ r: "GROUP_SET_DELETED" });
    invalidState(await as(p1).post(`/group-assignments/${id}/submissions`, { body: "x" }));
    expect((await as(p1).get(`/group-assignments/${id}/my-submission`)).body.group).toBeNull();
  });

  test("deleting the set's space also breaks the link (GROUP_SET_DELETED)", async () => {
    const s3 = (await as(owner).post("/spaces", { name: "Short-lived" })).body.id;
    const set = (await as(owner).post(`/spaces/${s3}/group-sets`, { name: "Gone", groups: [{ name: "G", memberIds: [] }] })).body;
    const id = (await as(owner).post("/library/contents", { type: "GROUP_ASSIGNMENT", title: "Library work" })).body.id;
    expect((await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: set.id })).body.isLinkValid).toBe(true);
    expect((await as(owner).del(`/spaces/${s3}`)).status).toBe(200);
    const res = (await as(owner).get(`/group-assignments/${id}/config`)).body;
    expect([res.isLinkValid, res.linkInvalidReason, res.spaceGroupSetName]).toEqual([false, "GROUP_SET_DELETED", "Gone"]);
  });

  test("a renamed set shows its new name", async () => {
    const s = (await as(owner).post(`/spaces/${spaceId}/group-sets`, { name: "Old", groups: [{ name: "G", memberIds: [] }] })).body;
    const id = await newAssignment();
    await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: s.id });
    await as(owner).put(`/spaces/${spaceId}/group-sets/${s.id}`, {
      name: "New",
      groups: [{ id: s.groups[0].id, name: "G", memberIds: [] }],
    });
    expect((await as(owner).get(`/group-assignments/${id}/config`)).body.spaceGroupSetName).toBe("New");
  });

  test("returns 401, 403 for a viewer, 404 for another tenant", async () => {
    const id = await newAssignment();
    unauth(await anon("GET", `/group-assignments/${id}/config`));
    forbidden(await as(p1).get(`/group-assignments/${id}/config`));
    notFound(await as(other).get(`/group-assignments/${id}/config`));
  });
});

describe("POST /api/v1/group-assignments/{contentId}/submissions — submitGroupAssignment", () => {
  test("creates revision 1 for the caller's group; another member's submit adds revision 2", async () => {
    const id = await linked();
    const first = await submit(p1, id, { body: "Draft one" });
    expect(first).toEqual({
      id: expect.any(String),
      groupId: red.id,
      groupName: "Red",
      submitterUserId: p1.memberId,
      submitterName: "Alice",
      revision: 1,
      body: "Draft one",
      attachments: [],
      status: "SUBMITTED",
      submittedAt: expect.stringMatching(/Z$/),
      dueAtAtSubmit: null,
      isLate: false,
      score: null,
      feedback: null,
      gradedAt: null,
      returnedAt: null,
      similarity: null,
    });
    const second = await submit(p2, id, { body: "Draft two" });
    expect([second.revision, second.submitterName, second.groupId]).toEqual([2, "Bob", red.id]);
    const history = (await as(owner).get(`/group-assignments/${id}/groups/${red.id}/history`)).body;
    expect(history.latest.id).toBe(second.id);
    expect(history.history.map((s: any) => s.id)).toEqual([first.id]);
  });

  test("body null is accepted as empty, as in submitAssignment", async () => {
    const id = await linked();
    expect((await submit(p3, id, { body: null })).body).toBe("");
    const required = await linked({ bodyRequired: true });
    const res = expectProblem(await as(p3).post(`/group-assignments/${required}/submissions`, { body: null }), 400, "VALIDATION_FAILED");
    expect(res.errors).toEqual([{ in: "body", field: "body", message: "is required by this assignment" }]);
  });

  test("attaches the caller's ready files with download URLs", async () => {
    const id = await linked({ fileRequired: true });
    const fileId = await upload(p1);
    const res = await submit(p1, id, { fileIds: [fileId] });
    expect(res.attachments).toEqual([
      { fileId, fileName: "report.txt", downloadUrl: expect.stringContaining(`/files/${fileId}/content?token=`) },
    ]);
    const url = res.attachments[0].downloadUrl.replace(api.server.rt.config.publicUrl, api.url);
    expect(await (await fetch(url)).text()).toBe("hello");
    // another member's file is not the caller's upload
    expect(fieldOf(await as(p3).post(`/group-assignments/${id}/submissions`, { fileIds: [fileId] }))).toBe("fileIds[0]");
  });

  test("returns 400 for bounds and for the body and file rules", async () => {
    const id = await linked({ bodyRequired: true, fileRequired: true });
    const post = (json: unknown) => as(p1).post(`/group-assignments/${id}/submissions`, json);
    expect(fieldOf(await post({ body: "x".repeat(200001), fileIds: [] }))).toBe("body");
    expect(fieldOf(await post({ body: "ok", fileIds: Array.from({ length: 21 }, (_, i) => `f${i}`) }))).toBe("fileIds");
    expect(fieldOf(await post({ body: "   ", fileIds: ["f"] }))).toBe("body");
    expect(fieldOf(await post({ body: "ok" }))).toBe("fileIds");
    expect(fieldOf(await post({ body: "ok", fileIds: ["nope"] }))).toBe("fileIds[0]");
    expect((await as(owner).get(`/group-assignments/${id}/submissions`)).body.total).toBe(0);
  });

  test("deadline: late with allowLateSubmit, else 409 DEADLINE_PASSED", async () => {
    const past = "2020-01-01T00:00:00.000Z";
    const strict = await linked({ dueAt: past });
    expectProblem(await as(p1).post(`/group-assignments/${strict}/submissions`, { body: "x" }), 409, "DEADLINE_PASSED");
    const lenient = await linked({ dueAt: past, allowLateSubmit: true });
    const res = await submit(p1, lenient);
    expect([res.isLate, res.dueAtAtSubmit]).toEqual([true, past]);
    const future = await linked({ dueAt: "2999-01-01T00:00:00Z" });
    expect((await submit(p1, future)).isLate).toBe(false);
  });

  test("not linked: 409 INVALID_STATE; caller in no group: 403", async () => {
    invalidState(await as(p1).post(`/group-assignments/${await newAssignment()}/submissions`, { body: "x" }));
    const id = await linked();
    forbidden(await as(p4).post(`/group-assignments/${id}/submissions`, { body: "x" }));
    forbidden(await as(owner).post(`/group-assignments/${id}/submissions`, { body: "x" }));
  });

  test("a GRADED group cannot resubmit (409), nor once the grade is RETURNED (submissions.md returned grades)", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    const second = await submit(p2, id);
    expect(second.revision).toBe(2);
    const latest = second.id;
    await as(owner).put(`/group-assignments/${id}/submissions/${latest}/grade`, { score: 8 });
    invalidState(await as(p2).post(`/group-assignments/${id}/submissions`, { body: "again" }));
    await as(owner).post(`/group-assignments/${id}/submissions/${latest}/return`);
    invalidState(await as(p2).post(`/group-assignments/${id}/submissions`, { body: "again" }));
    expect(s.revision).toBe(1);
  });

  test("returns 401, 404 for an invisible content, another tenant or another type", async () => {
    const id = await linked();
    unauth(await anon("POST", `/group-assignments/${id}/submissions`, { body: "x" }));
    notFound(await as(outsider).post(`/group-assignments/${id}/submissions`, { body: "x" }));
    notFound(await as(other).post(`/group-assignments/${id}/submissions`, { body: "x" }));
    notFound(await as(p1).post(`/group-assignments/${await newAssignment("ASSIGNMENT")}/submissions`, { body: "x" }));
    // a PRIVATE draft in the space is invisible to participants
    const draft = (await as(owner).post("/library/contents", { type: "GROUP_ASSIGNMENT", title: "Draft", nodeId })).body.id;
    notFound(await as(p1).post(`/group-assignments/${draft}/submissions`, { body: "x" }));
  });
});

describe("GET /api/v1/group-assignments/{contentId}/my-submission — getMyGroupSubmission", () => {
  test("shows the group, who submitted, and hides the grade until RETURNED", async () => {
    const id = await linked({ submissionMethod: "ALL_MEMBERS", maxScore: 10 });
    const before = (await as(p2).get(`/group-assignments/${id}/my-submission`)).body;
    expect(before).toEqual({
      config: { ...DEFAULT_CONFIG, spaceGroupSetId: setId, submissionMethod: "ALL_MEMBERS", maxScore: 10 },
      group: {
        id: red.id,
        name: "Red",
        members: [
          { profileId: p1.profileId, displayName: "Alice", submitted: false },
          { profileId: p2.profileId, displayName: "Bob", submitted: false },
        ],
      },
      latest: null,
      history: [],
    });
    const s1 = await submit(p1, id);
    expect((await as(p2).get(`/group-assignments/${id}/my-submission`)).body.group.members.map((m: any) => m.submitted)).toEqual([
      true,
      false,
    ]);
    const s2 = await submit(p2, id);
    await as(owner).put(`/group-assignments/${id}/submissions/${s2.id}/grade`, { score: 9, feedback: "Good" });
    const graded = (await as(p1).get(`/group-assignments/${id}/my-submission`)).body;
    expect([graded.latest.status, graded.latest.score, graded.latest.feedback, typeof graded.latest.gradedAt]).toEqual([
      "GRADED",
      null,
      null,
      "string",
    ]);
    expect(graded.history.map((s: any) => s.id)).toEqual([s1.id]);
    await as(owner).post(`/group-assignments/${id}/submissions/${s2.id}/return`);
    const returned = (await as(p1).get(`/group-assignments/${id}/my-submission`)).body;
    expect([returned.latest.status, returned.latest.score, returned.latest.feedback]).toEqual(["RETURNED", 9, "Good"]);
    // another group sees nothing of Red's
    expect((await as(p3).get(`/group-assignments/${id}/my-submission`)).body).toMatchObject({ group: { id: blue.id }, latest: null });
  });

  test("group is null for a caller in no group and while not linked", async () => {
    const id = await linked();
    expect((await as(p4).get(`/group-assignments/${id}/my-submission`)).body).toMatchObject({ group: null, latest: null, history: [] });
    expect((await as(p1).get(`/group-assignments/${await newAssignment()}/my-submission`)).body.group).toBeNull();
  });

  test("returns 401, 404 for an invisible content or another tenant", async () => {
    const id = await linked();
    unauth(await anon("GET", `/group-assignments/${id}/my-submission`));
    notFound(await as(outsider).get(`/group-assignments/${id}/my-submission`));
    notFound(await as(other).get(`/group-assignments/${id}/my-submission`));
  });
});

describe("GET /api/v1/group-assignments/{contentId}/submissions — listGroupSubmissions", () => {
  test("one row per group (its latest revision), newest first, with pending and not-submitted counts", async () => {
    const id = await linked();
    const empty = (await as(owner).get(`/group-assignments/${id}/submissions`)).body;
    expect(empty).toEqual({ total: 0, page: 1, pageSize: 20, totalPages: 0, submissions: [], pendingCount: 0, notSubmittedGroupCount: 2 });
    await submit(p1, id);
    const redLatest = await submit(p2, id);
    const blueSub = await submit(p3, id);
    const res = (await as(owner).get(`/group-assignments/${id}/submissions`)).body;
    expect(res.submissions.map((s: any) => s.id)).toEqual([blueSub.id, redLatest.id]);
    expect([res.total, res.totalPages, res.pendingCount, res.notSubmittedGroupCount]).toEqual([2, 1, 2, 0]);
    await as(owner).put(`/group-assignments/${id}/submissions/${blueSub.id}/grade`, { score: 3 });
    const graded = (await as(owner).get(`/group-assignments/${id}/submissions?status=GRADED`)).body;
    expect(graded.submissions.map((s: any) => s.id)).toEqual([blueSub.id]);
    expect([graded.total, graded.pendingCount]).toEqual([1, 1]);
    // managers see the grade before it is returned
    expect(graded.submissions[0].score).toBe(3);
    const page2 = (await as(owner).get(`/group-assignments/${id}/submissions?page=2&pageSize=1`)).body;
    expect([page2.total, page2.totalPages, page2.submissions.map((s: any) => s.id)]).toEqual([2, 2, [redLatest.id]]);
    expect((await as(owner).get(`/group-assignments/${id}/submissions?page=5`)).body.submissions).toEqual([]);
  });

  test("ALL_MEMBERS: a group counts as submitted only once every current member has", async () => {
    const id = await linked({ submissionMethod: "ALL_MEMBERS" });
    await submit(p1, id);
    expect((await as(owner).get(`/group-assignments/${id}/submissions`)).body.notSubmittedGroupCount).toBe(2);
    await submit(p2, id);
    expect((await as(owner).get(`/group-assignments/${id}/submissions`)).body.notSubmittedGroupCount).toBe(1);
  });

  test("returns 400 for bad paging or status, 401, 403 for a viewer, 404 for another tenant", async () => {
    const id = await linked();
    const q = (s: string) => as(owner).get(`/group-assignments/${id}/submissions?${s}`);
    expect(fieldOf(await q("page=0"))).toBe("page");
    expect(fieldOf(await q("pageSize=101"))).toBe("pageSize");
    expect(fieldOf(await q("pageSize=0"))).toBe("pageSize");
    expect(fieldOf(await q("status=DONE"))).toBe("status");
    unauth(await anon("GET", `/group-assignments/${id}/submissions`));
    forbidden(await as(p1).get(`/group-assignments/${id}/submissions`));
    notFound(await as(other).get(`/group-assignments/${id}/submissions`));
  });
});

describe("GET /api/v1/group-assignments/{contentId}/groups/{groupId}/history — getGroupSubmissionHistory", () => {
  test("latest and the earlier revisions newest first", async () => {
    const id = await linked();
    const a = await submit(p1, id);
    const b = await submit(p2, id);
    const c = await submit(p1, id);
    const res = await as(admin2).get(`/group-assignments/${id}/groups/${red.id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.latest.id).toBe(c.id);
    expect(res.body.history.map((s: any) => [s.id, s.revision])).toEqual([
      [b.id, 2],
      [a.id, 1],
    ]);
  });

  test("a group without submissions is 404; 401, 403, another tenant 404", async () => {
    const id = await linked();
    await submit(p1, id);
    notFound(await as(owner).get(`/group-assignments/${id}/groups/${blue.id}/history`));
    notFound(await as(owner).get(`/group-assignments/${id}/groups/nope/history`));
    unauth(await anon("GET", `/group-assignments/${id}/groups/${red.id}/history`));
    forbidden(await as(p1).get(`/group-assignments/${id}/groups/${red.id}/history`));
    notFound(await as(other).get(`/group-assignments/${id}/groups/${red.id}/history`));
  });
});

describe("PUT /api/v1/group-assignments/{contentId}/submissions/{submissionId}/grade — gradeGroupSubmission", () => {
  test("grades the latest revision; a regrade of a RETURNED one takes it back", async () => {
    const id = await linked({ maxScore: 10 });
    const s = await submit(p1, id);
    const res = await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 10, feedback: "Great", rubric: [] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, status: "GRADED", score: 10, feedback: "Great", returnedAt: null });
    expect(res.body.gradedAt).toMatch(/Z$/);
    await as(owner).post(`/group-assignments/${id}/submissions/${s.id}/return`);
    const again = await as(admin2).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 4 });
    expect(again.body).toMatchObject({ status: "GRADED", score: 4, feedback: null, returnedAt: null });
    expect((await as(owner).get(`/group-assignments/${id}/groups/${red.id}/history`)).body.latest.score).toBe(4);
    // the new grade is released by returning it again
    const mine = async () => (await as(p2).get(`/group-assignments/${id}/my-submission`)).body.latest;
    expect([(await mine()).status, (await mine()).score]).toEqual(["GRADED", null]);
    expect((await as(owner).post(`/group-assignments/${id}/submissions/${s.id}/return`)).body.status).toBe("RETURNED");
    expect([(await mine()).status, (await mine()).score]).toEqual(["RETURNED", 4]);
  });

  test("returns 400 for bounds, a score above maxScore and a rubric", async () => {
    const id = await linked({ maxScore: 10 });
    const s = await submit(p1, id);
    const put = (json: unknown) => as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, json);
    expect(fieldOf(await put({ score: -1 }))).toBe("score");
    expect(fieldOf(await put({ score: 10001 }))).toBe("score");
    expect(fieldOf(await put({ score: 11 }))).toBe("score");
    expect(fieldOf(await put({ feedback: "x".repeat(10001) }))).toBe("feedback");
    expect(fieldOf(await put({ rubric: [{ criterionId: "c", points: 1 }] }))).toBe("rubric");
    expect(fieldOf(await put({ rubric: Array.from({ length: 21 }, () => ({ criterionId: "c", points: 1 })) }))).toBe("rubric");
    expect((await as(owner).get(`/group-assignments/${id}/groups/${red.id}/history`)).body.latest.status).toBe("SUBMITTED");
  });

  test("an older revision, or an ALL_MEMBERS group not yet complete, is 409 INVALID_STATE", async () => {
    const id = await linked();
    const old = await submit(p1, id);
    await submit(p2, id);
    invalidState(await as(owner).put(`/group-assignments/${id}/submissions/${old.id}/grade`, { score: 1 }));
    const all = await linked({ submissionMethod: "ALL_MEMBERS" });
    const partial = await submit(p1, all);
    invalidState(await as(owner).put(`/group-assignments/${all}/submissions/${partial.id}/grade`, { score: 1 }));
    const full = await submit(p2, all);
    expect((await as(owner).put(`/group-assignments/${all}/submissions/${full.id}/grade`, { score: 1 })).status).toBe(200);
  });

  test("returns 401, 403 for a viewer, 404 for an unknown submission or another tenant", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    const path = `/group-assignments/${id}/submissions/${s.id}/grade`;
    unauth(await anon("PUT", path, { score: 1 }));
    forbidden(await as(p1).put(path, { score: 1 }));
    notFound(await as(other).put(path, { score: 1 }));
    notFound(await as(owner).put(`/group-assignments/${id}/submissions/nope/grade`, { score: 1 }));
    // a submission of another assignment
    notFound(await as(owner).put(`/group-assignments/${await linked()}/submissions/${s.id}/grade`, { score: 1 }));
  });
});

describe("PUT /api/v1/group-assignments/{contentId}/submissions/{submissionId}/feedback — saveGroupSubmissionFeedback", () => {
  test("replaces the feedback and keeps the status; participants see it once RETURNED", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    const res = await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/feedback`, { feedback: "Keep going" });
    expect(res.status).toBe(200);
    expect([res.body.status, res.body.feedback]).toEqual(["SUBMITTED", "Keep going"]);
    expect((await as(p1).get(`/group-assignments/${id}/my-submission`)).body.latest.feedback).toBeNull();
    await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 1, feedback: "Graded" });
    const after = await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/feedback`, { feedback: "Revised" });
    expect([after.body.status, after.body.score, after.body.feedback]).toEqual(["GRADED", 1, "Revised"]);
    await as(owner).post(`/group-assignments/${id}/submissions/${s.id}/return`);
    expect((await as(p2).get(`/group-assignments/${id}/my-submission`)).body.latest.feedback).toBe("Revised");
  });

  test("returns 400 over 10000 characters, 409 for an older revision, 401, 403, 404", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    const path = `/group-assignments/${id}/submissions/${s.id}/feedback`;
    expect(fieldOf(await as(owner).put(path, { feedback: "x".repeat(10001) }))).toBe("feedback");
    unauth(await anon("PUT", path, { feedback: "x" }));
    forbidden(await as(p1).put(path, { feedback: "x" }));
    notFound(await as(other).put(path, { feedback: "x" }));
    notFound(await as(owner).put(`/group-assignments/${id}/submissions/nope/feedback`, { feedback: "x" }));
    await submit(p2, id);
    invalidState(await as(owner).put(path, { feedback: "x" }));
  });
});

describe("POST /api/v1/group-assignments/{contentId}/submissions/{submissionId}/return — returnGroupSubmission", () => {
  test("GRADED → RETURNED with returnedAt; anything else is 409", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    const path = `/group-assignments/${id}/submissions/${s.id}/return`;
    invalidState(await as(owner).post(path));
    await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 5 });
    const res = await as(owner).post(path);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("RETURNED");
    expect(res.body.returnedAt).toMatch(/Z$/);
    invalidState(await as(owner).post(path));
    expect((await as(owner).get(`/group-assignments/${id}/submissions?status=RETURNED`)).body.total).toBe(1);
  });

  test("returns 401, 403 for a viewer, 404 for an unknown submission or another tenant", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 5 });
    const path = `/group-assignments/${id}/submissions/${s.id}/return`;
    unauth(await anon("POST", path, {}));
    forbidden(await as(p1).post(path));
    notFound(await as(other).post(path));
    notFound(await as(owner).post(`/group-assignments/${id}/submissions/nope/return`));
  });
});

describe("PUT /api/v1/group-assignments/{contentId}/submissions/{submissionId}/member-scores — overrideGroupMemberScores", () => {
  test("replaces the overrides: effectiveScore is the override, else the group score", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 80 });
    const path = `/group-assignments/${id}/submissions/${s.id}/member-scores`;
    const res = await as(owner).put(path, { scores: [{ profileId: p2.profileId, score: 95 }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      groupScore: 80,
      members: [
        { profileId: p1.profileId, displayName: "Alice", effectiveScore: 80, overrideScore: null },
        { profileId: p2.profileId, displayName: "Bob", effectiveScore: 95, overrideScore: 95 },
      ],
    });
    const cleared = await as(admin2).put(path, { scores: [{ profileId: p1.profileId, score: 0 }] });
    expect(cleared.body.members.map((m: any) => [m.effectiveScore, m.overrideScore])).toEqual([
      [0, 0],
      [80, null],
    ]);
  });

  test("returns 400 for bounds, duplicates and non-members; 409 before grading", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    const path = `/group-assignments/${id}/submissions/${s.id}/member-scores`;
    invalidState(await as(owner).put(path, { scores: [] }));
    await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 1 });
    expect(fieldOf(await as(owner).put(path, {}))).toBe("scores");
    expect(fieldOf(await as(owner).put(path, { scores: [{ profileId: p1.profileId, score: 10001 }] }))).toBe("scores[0].score");
    expect(fieldOf(await as(owner).put(path, { scores: [{ profileId: p1.profileId, score: -1 }] }))).toBe("scores[0].score");
    expect(fieldOf(await as(owner).put(path, { scores: Array.from({ length: 101 }, () => ({ profileId: "x", score: 1 })) }))).toBe(
      "scores",
    );
    expect(fieldOf(await as(owner).put(path, { scores: [{ profileId: p3.profileId, score: 1 }] }))).toBe("scores[0].profileId");
    expect(
      fieldOf(
        await as(owner).put(path, {
          scores: [
            { profileId: p1.profileId, score: 1 },
            { profileId: p1.profileId, score: 2 },
          ],
        }),
      ),
    ).toBe("scores[1].profileId");
  });

  test("returns 401, 403 for a viewer, 404 for an unknown submission or another tenant", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    const path = `/group-assignments/${id}/submissions/${s.id}/member-scores`;
    unauth(await anon("PUT", path, { scores: [] }));
    forbidden(await as(p1).put(path, { scores: [] }));
    notFound(await as(other).put(path, { scores: [] }));
    notFound(await as(owner).put(`/group-assignments/${id}/submissions/nope/member-scores`, { scores: [] }));
  });
});

describe("GET /api/v1/files/{fileId} — getFile of a group submission's file", () => {
  test("the managers and the submitting group see it; other groups, outsiders and other tenants get 404", async () => {
    const id = await linked();
    const f = await upload(p1);
    await submit(p1, id, { body: "With a file", fileIds: [f] });
    for (const who of [p1, p2, owner, admin2]) expect((await as(who).get(`/files/${f}`)).body.fileId).toBe(f);
    for (const who of [p3, p4, outsider, other]) notFound(await as(who).get(`/files/${f}`));
  });
});

describe("deleteContent — cascades", () => {
  test("the config, submissions and overrides go with the content", async () => {
    const id = await linked();
    const s = await submit(p1, id);
    await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/grade`, { score: 1 });
    await as(owner).put(`/group-assignments/${id}/submissions/${s.id}/member-scores`, { scores: [{ profileId: p1.profileId, score: 2 }] });
    const rows = () =>
      api.server.rt.tenants.use(owner.tenantId, (h) =>
        ["group_assignment_configs WHERE content_id", "group_submissions WHERE content_id", "group_member_scores WHERE submission_id"].map(
          (q, i) => (h.sqlite.query(`SELECT count(*) AS n FROM ${q} = ?`).get(i === 2 ? s.id : id) as { n: number }).n,
        ),
      );
    expect(rows()).toEqual([1, 1, 1]);
    expect((await as(owner).del(`/library/contents/${id}`)).status).toBe(204);
    expect(rows()).toEqual([0, 0, 0]);
    notFound(await as(owner).get(`/group-assignments/${id}/config`));
  });
});
