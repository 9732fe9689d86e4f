import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent, uploadFile } from "./helpers/fixture";
import { createContentSpace, expectProblem, fieldOf, fieldsOf, forbidden, ISO, notFound, unauth, useServer } from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant; // author of the assignments and ADMIN of the space
let other: Tenant; // another tenant
let admin2: Member; // second ADMIN of the space (a manager who is not the author)
let p1: Member; // PARTICIPANT
let p2: Member; // PARTICIPANT
let p3: Member; // PARTICIPANT
let outsider: Member; // enrolled nowhere: cannot see space content
let nodeId: string;

const PAST = "2020-01-01T09:00:00+09:00";
const FUTURE = "2099-01-01T00:00:00Z";

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    nodeId,
    participants: [p1, p2, p3],
  } = await createContentSpace(api, { spaceName: "Assignment space", participants: ["Alice", "Bob", "Carol"] }));
});

/** An ASSIGNMENT published to the space (SHARED in its folder), optionally configured. */
const newAssignment = (config?: Record<string, unknown>, body: Record<string, unknown> = {}) =>
  createContent(api, owner, nodeId, "ASSIGNMENT", { title: "Essay", config, body });

const upload = (who: { token: string }, bytes = "hello", fileName = "a.txt") => uploadFile(api, who, { bytes, fileName });
const fetchUrl = (url: string) => fetch(url.replace(api.server.rt.config.publicUrl, api.url));

async function submit(who: { token: string }, id: string, body: Record<string, unknown> = { body: "my work" }) {
  const res = await as(who).post(`/assignments/${id}/submissions`, body);
  expect(res.status).toBe(201);
  return res.body;
}

const RUBRIC = {
  useLevel: true,
  visibility: "VISIBLE_ALL",
  criteria: [
    {
      name: "Content",
      description: "What it says",
      maxPoints: 10,
      levels: [
        { name: "Good", points: 10 },
        { name: "Weak", description: "thin", points: 4 },
      ],
    },
    { name: "Style", maxPoints: 5, levels: [{ name: "Fine", points: 5 }] },
  ],
};

describe("PUT /api/v1/assignments/{contentId}/config — setAssignmentConfig", () => {
  test("stores the config; the read returns it; defaults before the first save", async () => {
    const id = await newAssignment();
    expect((await as(owner).get(`/assignments/${id}/config`)).body).toEqual({
      maxScore: null,
      allowLateSubmit: false,
      allowResubmit: false,
      bodyRequired: false,
      fileRequired: false,
      dueAt: null,
    });
    const cfg = { maxScore: 100, allowLateSubmit: true, allowResubmit: true, bodyRequired: true, fileRequired: true, dueAt: PAST };
    const res = await as(owner).put(`/assignments/${id}/config`, cfg);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...cfg, dueAt: "2020-01-01T00:00:00.000Z" });
    expect((await as(owner).get(`/assignments/${id}/config`)).body).toEqual(res.body);
    // a space ADMIN who is not the author manages it too; PUT is a full replace
    const again = await as(admin2).put(`/assignments/${id}/config`, { maxScore: null, allowResubmit: true });
    expect(again.status).toBe(200);
    expect((await as(p1).get(`/assignments/${id}/config`)).body).toEqual({
      maxScore: null,
      allowLateSubmit: false,
      allowResubmit: true,
      bodyRequired: false,
      fileRequired: false,
      dueAt: null,
    });
  });

  test("returns 400 naming each bad field", async () => {
    const id = await newAssignment();
    const zero = expectProblem(await as(owner).put(`/assignments/${id}/config`, { maxScore: 0 }), 400, "VALIDATION_FAILED");
    expect(zero.errors).toEqual([{ in: "body", field: "maxScore", message: "must be an integer >= 1 or null" }]);
    expect(fieldOf(await as(owner).put(`/assignments/${id}/config`, { maxScore: 9007199254740992 }))).toBe("maxScore");
    expect(fieldOf(await as(owner).put(`/assignments/${id}/config`, { maxScore: 1.5 }))).toBe("maxScore");
    expect(fieldOf(await as(owner).put(`/assignments/${id}/config`, { dueAt: "tomorrow" }))).toBe("dueAt");
    expect(fieldOf(await as(owner).put(`/assignments/${id}/config`, { allowResubmit: "yes" }))).toBe("allowResubmit");
    // nothing was stored
    expect((await as(owner).get(`/assignments/${id}/config`)).body.maxScore).toBeNull();
    // no upper limit but the safe-integer range (spec: maxScore >= 1 or null)
    for (const maxScore of [20000, 9007199254740991]) {
      expect((await as(owner).put(`/assignments/${id}/config`, { maxScore })).body.maxScore).toBe(maxScore);
    }
  });

  test("returns 401 without a token", async () => {
    const id = await newAssignment();
    unauth(await anon("PUT", `/assignments/${id}/config`, {}));
  });

  test("returns 403 for a participant who sees the assignment", async () => {
    const id = await newAssignment();
    forbidden(await as(p1).put(`/assignments/${id}/config`, { maxScore: 5 }));
  });

  test("returns 404 for another tenant's, an invisible, an unknown or another type's content", async () => {
    const id = await newAssignment();
    notFound(await as(other).put(`/assignments/${id}/config`, {}));
    notFound(await as(outsider).put(`/assignments/${id}/config`, {}));
    notFound(await as(owner).put("/assignments/nope/config", {}));
    const survey = await as(owner).post("/library/contents", { type: "SURVEY", title: "S", nodeId, visibility: "SHARED" });
    notFound(await as(owner).put(`/assignments/${survey.body.id}/config`, {}));
  });
});

describe("GET /api/v1/assignments/{contentId}/config — getAssignmentConfig", () => {
  test("any viewer reads the rules and the deadline", async () => {
    const id = await newAssignment({ maxScore: 20, dueAt: FUTURE });
    const res = await as(p2).get(`/assignments/${id}/config`);
    expect(res.status).toBe(200);
    expect(res.body.maxScore).toBe(20);
    expect(res.body.dueAt).toBe("2099-01-01T00:00:00.000Z");
  });

  test("returns 401 without a token", async () => {
    unauth(await anon("GET", `/assignments/${await newAssignment()}/config`));
  });

  test("returns 404 for another tenant, an outsider, and a PRIVATE draft to a participant", async () => {
    const id = await newAssignment();
    notFound(await as(other).get(`/assignments/${id}/config`));
    notFound(await as(outsider).get(`/assignments/${id}/config`));
    const draft = await newAssignment(undefined, { visibility: "PRIVATE" });
    notFound(await as(p1).get(`/assignments/${draft}/config`));
    expect((await as(admin2).get(`/assignments/${draft}/config`)).status).toBe(200);
  });
});

describe("PUT /api/v1/assignments/{contentId}/rubric — setAssignmentRubric", () => {
  test("criterion name, description and maxPoints are optional: empty, null, the largest level's points (else 0)", async () => {
    const id = await newAssignment();
    const res = await as(owner).put(`/assignments/${id}/rubric`, {
      useLevel: false,
      visibility: "VISIBLE_ALL",
      criteria: [
        {
          levels: [
            { name: "Low", points: 2 },
            { name: "High", points: 6 },
          ],
        },
        {},
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.criteria.map((c: any) => [c.name, c.description, c.maxPoints])).toEqual([
      ["", null, 6],
      ["", null, 0],
    ]);
    expect(res.body.totalMaxPoints).toBe(6);
  });

  test("stores criteria and levels with ids, indexes and totalMaxPoints; ids sent back are kept", async () => {
    const id = await newAssignment();
    const empty = await as(owner).get(`/assignments/${id}/rubric`);
    expect(empty.body).toEqual({ useLevel: false, visibility: "VISIBLE_ALL", criteria: [], totalMaxPoints: 0 });
    const res = await as(owner).put(`/assignments/${id}/rubric`, RUBRIC);
    expect(res.status).toBe(200);
    expect(res.body.totalMaxPoints).toBe(15);
    const [c1, c2] = res.body.criteria;
    expect(c1).toEqual({
      id: expect.any(String),
      index: 0,
      name: "Content",
      description: "What it says",
      maxPoints: 10,
      levels: [
        { id: expect.any(String), name: "Good", description: null, points: 10 },
        { id: expect.any(String), name: "Weak", description: "thin", points: 4 },
      ],
    });
    expect(c2.index).toBe(1);
    expect((await as(owner).get(`/assignments/${id}/rubric`)).body).toEqual(res.body);
    // resend with ids, reordered, one level dropped: ids are kept
    const next = await as(admin2).put(`/assignments/${id}/rubric`, {
      useLevel: false,
      visibility: "HIDE_ALL_TO_PARTICIPANTS",
      criteria: [
        { id: c2.id, name: "Style", maxPoints: 7 },
        { id: c1.id, name: "Content", maxPoints: 10, levels: [{ id: c1.levels[0].id, name: "Good", points: 10 }] },
      ],
    });
    expect(next.status).toBe(200);
    expect(next.body.criteria.map((c: any) => [c.id, c.index, c.levels.length])).toEqual([
      [c2.id, 0, 0],
      [c1.id, 1, 1],
    ]);
    expect(next.body.criteria[1].levels[0].id).toBe(c1.levels[0].id);
    expect(next.body.totalMaxPoints).toBe(17);
    expect(next.body.visibility).toBe("HIDE_ALL_TO_PARTICIPANTS");
  });

  test("returns 400 naming each bad field", async () => {
    const id = await newAssignment();
    const put = (body: unknown) => as(owner).put(`/assignments/${id}/rubric`, body);
    expect(fieldOf(await put({ visibility: "VISIBLE_ALL", criteria: [] }))).toBe("useLevel");
    expect(fieldOf(await put({ useLevel: false, visibility: "SOME", criteria: [] }))).toBe("visibility");
    expect(fieldOf(await put({ useLevel: false, visibility: "VISIBLE_ALL" }))).toBe("criteria");
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `c${i}`, maxPoints: 1 }));
    expect(fieldOf(await put({ useLevel: false, visibility: "VISIBLE_ALL", criteria: many }))).toBe("criteria");
    const base = { useLevel: false, visibility: "VISIBLE_ALL" };
    expect(fieldOf(await put({ ...base, criteria: [{ name: "c", maxPoints: 10001 }] }))).toBe("criteria[0].maxPoints");
    expect(fieldOf(await put({ ...base, criteria: [{ name: "", maxPoints: 1 }] }))).toBe("criteria[0].name");
    expect(fieldOf(await put({ ...base, criteria: [{ name: "c", maxPoints: 1, levels: [{ name: "l", points: -1 }] }] }))).toBe(
      "criteria[0].levels[0].points",
    );
    expect(fieldOf(await put({ ...base, criteria: [{ name: "c", maxPoints: 3, levels: [{ name: "l", points: 4 }] }] }))).toBe(
      "criteria[0].levels[0].points",
    );
    expect(fieldOf(await put({ ...base, criteria: [{ id: "unknown", name: "c", maxPoints: 3 }] }))).toBe("criteria[0].id");
    expect(fieldOf(await put({ ...base, useLevel: true, criteria: [{ name: "c", maxPoints: 3 }] }))).toBe("criteria[0].levels");
    expect((await as(owner).get(`/assignments/${id}/rubric`)).body.criteria).toEqual([]);
  });

  test("returns 401, 403 for a participant, 404 for another tenant", async () => {
    const id = await newAssignment();
    unauth(await anon("PUT", `/assignments/${id}/rubric`, RUBRIC));
    forbidden(await as(p1).put(`/assignments/${id}/rubric`, RUBRIC));
    notFound(await as(other).put(`/assignments/${id}/rubric`, RUBRIC));
    notFound(await as(outsider).put(`/assignments/${id}/rubric`, RUBRIC));
  });
});

describe("GET /api/v1/assignments/{contentId}/rubric — getAssignmentRubric", () => {
  test("participants read a VISIBLE_ALL rubric; a hidden one is 404 to them and readable by managers", async () => {
    const id = await newAssignment();
    const set = await as(owner).put(`/assignments/${id}/rubric`, RUBRIC);
    expect((await as(p1).get(`/assignments/${id}/rubric`)).body).toEqual(set.body);
    await as(owner).put(`/assignments/${id}/rubric`, { ...RUBRIC, visibility: "HIDE_ALL_TO_PARTICIPANTS" });
    notFound(await as(p1).get(`/assignments/${id}/rubric`));
    expect((await as(admin2).get(`/assignments/${id}/rubric`)).body.visibility).toBe("HIDE_ALL_TO_PARTICIPANTS");
  });

  test("returns 401 and 404 for another tenant or an outsider", async () => {
    const id = await newAssignment();
    unauth(await anon("GET", `/assignments/${id}/rubric`));
    notFound(await as(other).get(`/assignments/${id}/rubric`));
    notFound(await as(outsider).get(`/assignments/${id}/rubric`));
  });
});

describe("POST /api/v1/assignments/{contentId}/submissions — submitAssignment", () => {
  test("creates revision 1 with its files; the participant sees no grade and no similarity", async () => {
    const id = await newAssignment({ dueAt: FUTURE });
    const f1 = await upload(p1, "first file", "one.txt");
    const f2 = await upload(p1, "second", "two.txt");
    const res = await as(p1).post(`/assignments/${id}/submissions`, { body: "my essay", fileIds: [f2, f1] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      profileId: p1.profileId,
      displayName: "Alice",
      revision: 1,
      body: "my essay",
      attachments: [
        { fileId: f2, fileName: "two.txt", downloadUrl: expect.any(String) },
        { fileId: f1, fileName: "one.txt", downloadUrl: expect.any(String) },
      ],
      status: "SUBMITTED",
      submittedAt: expect.stringMatching(ISO),
      dueAtAtSubmit: "2099-01-01T00:00:00.000Z",
      isLate: false,
      score: null,
      feedback: null,
      gradedAt: null,
      returnedAt: null,
      rubricEvaluation: null,
      similarity: null,
    });
    expect(await (await fetchUrl(res.body.attachments[1].downloadUrl)).text()).toBe("first file");
    const mine = await as(p1).get(`/assignments/${id}/my-submission`);
    const noUrls = (x: any) => ({ ...x, attachments: x.attachments.map((a: any) => ({ ...a, downloadUrl: "" })) });
    expect(mine.body.history).toEqual([]);
    expect(noUrls(mine.body.latest)).toEqual(noUrls(res.body));
  });

  test("bodyRequired and fileRequired give 400 naming body and fileIds", async () => {
    const id = await newAssignment({ bodyRequired: true, fileRequired: true });
    expect(fieldsOf(await as(p1).post(`/assignments/${id}/submissions`, { body: "   " }))).toEqual(["body", "fileIds"]);
    const f = await upload(p1);
    expect(fieldsOf(await as(p1).post(`/assignments/${id}/submissions`, { fileIds: [f] }))).toEqual(["body"]);
    expect((await as(p1).post(`/assignments/${id}/submissions`, { body: "x", fileIds: [f] })).status).toBe(201);
  });

  test("returns 400 for bounds and for files that are not the caller's ready uploads", async () => {
    const id = await newAssignment();
    expect(fieldOf(await as(p1).post(`/assignments/${id}/submissions`, { body: "x".repeat(200001) }))).toBe("body");
    const many = Array.from({ length: 21 }, (_, i) => `f${i}`);
    expect(fieldOf(await as(p1).post(`/assignments/${id}/submissions`, { fileIds: many }))).toBe("fileIds");
    const theirs = await upload(p2);
    expect(fieldOf(await as(p1).post(`/assignments/${id}/submissions`, { fileIds: [theirs] }))).toBe("fileIds[0]");
    const mine = await upload(p1);
    expect(fieldOf(await as(p1).post(`/assignments/${id}/submissions`, { fileIds: [mine, mine] }))).toBe("fileIds[1]");
    const pending = (await as(p1).post("/files", { fileName: "p.txt", contentType: "text/plain", size: 3 })).body.fileId;
    expect(fieldOf(await as(p1).post(`/assignments/${id}/submissions`, { fileIds: [pending] }))).toBe("fileIds[0]");
    const otherFile = await upload(other);
    expect(fieldOf(await as(p1).post(`/assignments/${id}/submissions`, { fileIds: [otherFile] }))).toBe("fileIds[0]");
    expect((await as(p1).get(`/assignments/${id}/my-submission`)).body).toEqual({ latest: null, history: [] });
  });

  test("after dueAt: 409 DEADLINE_PASSED, or isLate with allowLateSubmit", async () => {
    const strict = await newAssignment({ dueAt: PAST });
    expectProblem(await as(p1).post(`/assignments/${strict}/submissions`, { body: "late" }), 409, "DEADLINE_PASSED");
    const lenient = await newAssignment({ dueAt: PAST, allowLateSubmit: true });
    const late = await submit(p1, lenient);
    expect(late.isLate).toBe(true);
    expect(late.dueAtAtSubmit).toBe("2020-01-01T00:00:00.000Z");
  });

  test("a second submission needs allowResubmit (409 RESUBMIT_NOT_ALLOWED); with it, revision 2 and history", async () => {
    const once = await newAssignment();
    await submit(p1, once);
    expectProblem(await as(p1).post(`/assignments/${once}/submissions`, { body: "again" }), 409, "RESUBMIT_NOT_ALLOWED");
    const id = await newAssignment({ allowResubmit: true });
    const r1 = await submit(p1, id, { body: "v1" });
    const r2 = await submit(p1, id, { body: "v2" });
    const r3 = await submit(p1, id, { body: "v3" });
    expect([r1.revision, r2.revision, r3.revision]).toEqual([1, 2, 3]);
    const mine = await as(p1).get(`/assignments/${id}/my-submission`);
    expect(mine.body.latest.id).toBe(r3.id);
    expect(mine.body.history.map((h: any) => [h.id, h.body])).toEqual([
      [r2.id, "v2"],
      [r1.id, "v1"],
    ]);
  });

  test("returns 401 without a token and 404 for another tenant or an outsider", async () => {
    const id = await newAssignment();
    unauth(await anon("POST", `/assignments/${id}/submissions`, { body: "x" }));
    notFound(await as(other).post(`/assignments/${id}/submissions`, { body: "x" }));
    notFound(await as(outsider).post(`/assignments/${id}/submissions`, { body: "x" }));
    expect((await as(owner).get(`/assignments/${id}/submissions`)).body.total).toBe(0);
  });
});

describe("GET /api/v1/assignments/{contentId}/my-submission — getMySubmission", () => {
  test("null before submitting; the grade shows only once RETURNED, the status always", async () => {
    const id = await newAssignment({ maxScore: 10 });
    await as(owner).put(`/assignments/${id}/rubric`, { ...RUBRIC, useLevel: false, criteria: [{ name: "All", maxPoints: 10 }] });
    expect((await as(p1).get(`/assignments/${id}/my-submission`)).body).toEqual({ latest: null, history: [] });
    const sub = await submit(p1, id);
    const rubric = (await as(owner).get(`/assignments/${id}/rubric`)).body;
    const graded = await as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, {
      score: 8,
      feedback: "nice",
      rubric: [{ criterionId: rubric.criteria[0].id, points: 8 }],
    });
    expect(graded.status).toBe(200);
    const before = (await as(p1).get(`/assignments/${id}/my-submission`)).body.latest;
    expect([before.status, before.score, before.feedback, before.rubricEvaluation, before.similarity]).toEqual([
      "GRADED",
      null,
      null,
      null,
      null,
    ]);
    expect(before.gradedAt).toMatch(ISO);
    await as(owner).post(`/assignments/${id}/submissions/${sub.id}/return`);
    const after = (await as(p1).get(`/assignments/${id}/my-submission`)).body.latest;
    expect(after.status).toBe("RETURNED");
    expect(after.score).toBe(8);
    expect(after.feedback).toBe("nice");
    expect(after.rubricEvaluation).toEqual({ items: [{ criterionId: rubric.criteria[0].id, levelId: null, points: 8 }], total: 8 });
    expect(after.similarity).toBeNull();
    // another participant sees only their own (nothing)
    expect((await as(p2).get(`/assignments/${id}/my-submission`)).body.latest).toBeNull();
  });

  test("returns 401 and 404 for another tenant or an outsider", async () => {
    const id = await newAssignment();
    unauth(await anon("GET", `/assignments/${id}/my-submission`));
    notFound(await as(other).get(`/assignments/${id}/my-submission`));
    notFound(await as(outsider).get(`/assignments/${id}/my-submission`));
  });
});

describe("GET /api/v1/assignments/{contentId}/submissions — listAssignmentSubmissions", () => {
  test("one row per submitter (its latest revision), newest first; status filter, pendingCount and pages", async () => {
    const id = await newAssignment({ allowResubmit: true });
    const a1 = await submit(p1, id, { body: "a1" });
    const b1 = await submit(p2, id, { body: "b1" });
    const c1 = await submit(p3, id, { body: "c1" });
    const a2 = await submit(p1, id, { body: "a2" });
    await as(owner).put(`/assignments/${id}/submissions/${b1.id}/grade`, { score: 3 });
    const all = await as(admin2).get(`/assignments/${id}/submissions`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 20, totalPages: 1, pendingCount: 2 });
    expect(all.body.submissions.map((s: any) => s.id)).toEqual([a2.id, c1.id, b1.id]);
    const row = all.body.submissions[0];
    expect(row.revision).toBe(2);
    expect(row.displayName).toBe("Alice");
    // managers get the similarity check (its figures: test/similarity.test.ts)
    expect(row.similarity).toMatchObject({ gptCopyRatio: null, matches: expect.any(Array) });
    expect(all.body.submissions[2].score).toBe(3);
    expect(all.body.submissions.some((s: any) => s.id === a1.id)).toBe(false);
    const graded = await as(owner).get(`/assignments/${id}/submissions?status=GRADED`);
    expect(graded.body.submissions.map((s: any) => s.id)).toEqual([b1.id]);
    expect([graded.body.total, graded.body.pendingCount]).toEqual([1, 2]);
    const pending = await as(owner).get(`/assignments/${id}/submissions?status=SUBMITTED`);
    expect(pending.body.submissions.map((s: any) => s.id)).toEqual([a2.id, c1.id]);
    const p2page = await as(owner).get(`/assignments/${id}/submissions?page=2&pageSize=2`);
    expect(p2page.body).toMatchObject({ total: 3, page: 2, pageSize: 2, totalPages: 2 });
    expect(p2page.body.submissions.map((s: any) => s.id)).toEqual([b1.id]);
    const past = await as(owner).get(`/assignments/${id}/submissions?page=9`);
    expect([past.body.submissions, past.body.total]).toEqual([[], 3]);
  });

  test("returns 400 for page, pageSize and status out of range", async () => {
    const id = await newAssignment();
    expect(fieldOf(await as(owner).get(`/assignments/${id}/submissions?page=0`))).toBe("page");
    expect(fieldOf(await as(owner).get(`/assignments/${id}/submissions?pageSize=101`))).toBe("pageSize");
    expect(fieldOf(await as(owner).get(`/assignments/${id}/submissions?status=LOST`))).toBe("status");
  });

  test("returns 401, 403 for a participant, 404 for another tenant", async () => {
    const id = await newAssignment();
    unauth(await anon("GET", `/assignments/${id}/submissions`));
    forbidden(await as(p1).get(`/assignments/${id}/submissions`));
    notFound(await as(other).get(`/assignments/${id}/submissions`));
  });
});

describe("GET /api/v1/assignments/{contentId}/submitters/{profileId}/history — getSubmitterHistory", () => {
  test("the submitter's latest revision and the earlier ones, newest first", async () => {
    const id = await newAssignment({ allowResubmit: true });
    const r1 = await submit(p2, id, { body: "one" });
    const r2 = await submit(p2, id, { body: "two" });
    const res = await as(admin2).get(`/assignments/${id}/submitters/${p2.profileId}/history`);
    expect(res.status).toBe(200);
    expect(res.body.latest.id).toBe(r2.id);
    expect(res.body.latest.similarity.gptCopyRatio).toBeNull();
    expect(res.body.history.map((h: any) => h.id)).toEqual([r1.id]);
  });

  test("returns 404 for a profile without submissions, 401, 403 and another tenant's 404", async () => {
    const id = await newAssignment();
    await submit(p2, id);
    notFound(await as(owner).get(`/assignments/${id}/submitters/${p3.profileId}/history`));
    unauth(await anon("GET", `/assignments/${id}/submitters/${p2.profileId}/history`));
    forbidden(await as(p1).get(`/assignments/${id}/submitters/${p2.profileId}/history`));
    notFound(await as(other).get(`/assignments/${id}/submitters/${p2.profileId}/history`));
  });
});

describe("PUT /api/v1/assignments/{contentId}/submissions/{submissionId}/grade — gradeSubmission", () => {
  async function withRubric(config: Record<string, unknown> = {}, rubric: Record<string, unknown> = RUBRIC) {
    const id = await newAssignment({ maxScore: 15, allowResubmit: true, ...config });
    const r = await as(owner).put(`/assignments/${id}/rubric`, rubric);
    return { id, criteria: r.body.criteria, sub: await submit(p1, id) };
  }

  test("grades with levels: the level's points are the default, score = the rubric total without a score", async () => {
    const { id, criteria, sub } = await withRubric();
    const [c1, c2] = criteria;
    const res = await as(admin2).put(`/assignments/${id}/submissions/${sub.id}/grade`, {
      feedback: "good",
      rubric: [
        { criterionId: c1.id, levelId: c1.levels[1].id },
        { criterionId: c2.id, levelId: c2.levels[0].id, points: 3 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("GRADED");
    expect(res.body.score).toBe(7);
    expect(res.body.feedback).toBe("good");
    expect(res.body.gradedAt).toMatch(ISO);
    expect(res.body.rubricEvaluation).toEqual({
      items: [
        { criterionId: c1.id, levelId: c1.levels[1].id, points: 4 },
        { criterionId: c2.id, levelId: c2.levels[0].id, points: 3 },
      ],
      total: 7,
    });
    // a regrade is a full replace: feedback and rubric left out are cleared
    const again = await as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 12 });
    expect([again.body.score, again.body.feedback, again.body.rubricEvaluation]).toEqual([12, null, null]);
    const listed = await as(owner).get(`/assignments/${id}/submissions`);
    expect(listed.body.submissions[0].score).toBe(12);
  });

  test("returns 400 naming each bad field", async () => {
    const { id, criteria, sub } = await withRubric();
    const [c1, c2] = criteria;
    const grade = (body: unknown) => as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, body);
    expect(fieldOf(await grade({ score: 10001 }))).toBe("score");
    expect(fieldOf(await grade({ score: -1 }))).toBe("score");
    expect(fieldOf(await grade({ score: 16 }))).toBe("score"); // above maxScore 15
    expect(fieldOf(await grade({ feedback: "x".repeat(10001) }))).toBe("feedback");
    const many = Array.from({ length: 21 }, () => ({ criterionId: c1.id, points: 1 }));
    expect(fieldOf(await grade({ rubric: many }))).toBe("rubric");
    expect(fieldOf(await grade({ rubric: [{ criterionId: "nope", levelId: c1.levels[0].id }] }))).toBe("rubric[0].criterionId");
    expect(fieldOf(await grade({ rubric: [{ criterionId: c1.id, levelId: c2.levels[0].id }] }))).toBe("rubric[0].levelId");
    expect(fieldOf(await grade({ rubric: [{ criterionId: c1.id }] }))).toBe("rubric[0].levelId");
    expect(fieldOf(await grade({ rubric: [{ criterionId: c2.id, levelId: c2.levels[0].id, points: 6 }] }))).toBe("rubric[0].points");
    expect(
      fieldOf(
        await grade({
          rubric: [
            { criterionId: c1.id, levelId: c1.levels[0].id },
            { criterionId: c1.id, levelId: c1.levels[0].id },
          ],
        }),
      ),
    ).toBe("rubric[1].criterionId");
    const noLevels = await withRubric({}, { useLevel: false, visibility: "VISIBLE_ALL", criteria: [{ name: "A", maxPoints: 5 }] });
    const g2 = (body: unknown) => as(owner).put(`/assignments/${noLevels.id}/submissions/${noLevels.sub.id}/grade`, body);
    expect(fieldOf(await g2({ rubric: [{ criterionId: noLevels.criteria[0].id }] }))).toBe("rubric[0].points");
    expect(fieldOf(await g2({ rubric: [{ criterionId: noLevels.criteria[0].id, levelId: "x", points: 1 }] }))).toBe("rubric[0].levelId");
    // nothing was stored
    expect((await as(owner).get(`/assignments/${id}/submitters/${p1.profileId}/history`)).body.latest.status).toBe("SUBMITTED");
  });

  test("an older revision is 409 INVALID_STATE; another assignment's submission is 404", async () => {
    const { id, sub } = await withRubric();
    await submit(p1, id, { body: "newer" });
    expectProblem(await as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 1 }), 409, "INVALID_STATE");
    const elsewhere = await newAssignment();
    notFound(await as(owner).put(`/assignments/${elsewhere}/submissions/${sub.id}/grade`, { score: 1 }));
    notFound(await as(owner).put(`/assignments/${id}/submissions/unknown/grade`, { score: 1 }));
  });

  test("returns 401, 403 for a participant, 404 for another tenant", async () => {
    const { id, sub } = await withRubric();
    unauth(await anon("PUT", `/assignments/${id}/submissions/${sub.id}/grade`, { score: 1 }));
    forbidden(await as(p1).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 1 }));
    notFound(await as(other).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 1 }));
  });
});

describe("PUT /api/v1/assignments/{contentId}/submissions/{submissionId}/feedback — saveSubmissionFeedback", () => {
  test("sets the feedback alone; the status and score stay", async () => {
    const id = await newAssignment({ allowResubmit: true });
    const sub = await submit(p1, id);
    const res = await as(owner).put(`/assignments/${id}/submissions/${sub.id}/feedback`, { feedback: "draft notes" });
    expect(res.status).toBe(200);
    expect([res.body.status, res.body.feedback, res.body.score]).toEqual(["SUBMITTED", "draft notes", null]);
    await as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 4, feedback: "graded notes" });
    const after = await as(admin2).put(`/assignments/${id}/submissions/${sub.id}/feedback`, { feedback: "edited" });
    expect([after.body.status, after.body.feedback, after.body.score]).toEqual(["GRADED", "edited", 4]);
    const history = await as(owner).get(`/assignments/${id}/submitters/${p1.profileId}/history`);
    expect(history.body.latest.feedback).toBe("edited");
    // an older revision is 409
    await submit(p1, id);
    expectProblem(await as(owner).put(`/assignments/${id}/submissions/${sub.id}/feedback`, { feedback: "x" }), 409, "INVALID_STATE");
  });

  test("returns 400, 401, 403 and 404", async () => {
    const id = await newAssignment();
    const sub = await submit(p1, id);
    const path = `/assignments/${id}/submissions/${sub.id}/feedback`;
    expect(fieldOf(await as(owner).put(path, { feedback: "x".repeat(10001) }))).toBe("feedback");
    expect(fieldOf(await as(owner).put(path, { feedback: 5 }))).toBe("feedback");
    unauth(await anon("PUT", path, { feedback: "x" }));
    forbidden(await as(p1).put(path, { feedback: "x" }));
    notFound(await as(other).put(path, { feedback: "x" }));
    notFound(await as(owner).put(`/assignments/${id}/submissions/nope/feedback`, { feedback: "x" }));
  });
});

describe("POST /api/v1/assignments/{contentId}/submissions/{submissionId}/return — returnSubmission", () => {
  test("GRADED → RETURNED with returnedAt; anything else is 409 INVALID_STATE", async () => {
    const id = await newAssignment();
    const sub = await submit(p1, id);
    const path = `/assignments/${id}/submissions/${sub.id}/return`;
    expectProblem(await as(owner).post(path), 409, "INVALID_STATE");
    await as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 9 });
    const res = await api.call("POST", `/api/v1${path}`, { token: admin2.token }); // no body at all
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("RETURNED");
    expect(res.body.returnedAt).toMatch(ISO);
    expectProblem(await as(owner).post(path), 409, "INVALID_STATE");
    // a regrade of a returned submission takes it back: the new grade is released by returning again
    const regraded = await as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 10 });
    expect([regraded.body.status, regraded.body.returnedAt, regraded.body.score]).toEqual(["GRADED", null, 10]);
    const mine = async () => (await as(p1).get(`/assignments/${id}/my-submission`)).body.latest;
    expect([(await mine()).status, (await mine()).score]).toEqual(["GRADED", null]);
    expect((await as(owner).post(path)).body.status).toBe("RETURNED");
    expect([(await mine()).status, (await mine()).score]).toEqual(["RETURNED", 10]);
  });

  test("returns 401, 403 and 404", async () => {
    const id = await newAssignment();
    const sub = await submit(p1, id);
    await as(owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 1 });
    const path = `/assignments/${id}/submissions/${sub.id}/return`;
    unauth(await anon("POST", path));
    forbidden(await as(p1).post(path));
    notFound(await as(other).post(path));
    notFound(await as(outsider).post(path));
    expect((await as(owner).get(`/assignments/${id}/submitters/${p1.profileId}/history`)).body.latest.status).toBe("GRADED");
  });
});

describe("submission files and deletion", () => {
  test("getFile: the assignment's managers see a submitted file; other participants do not", async () => {
    const id = await newAssignment();
    const f = await upload(p1, "attached");
    notFound(await as(admin2).get(`/files/${f}`));
    await submit(p1, id, { fileIds: [f] });
    expect((await as(admin2).get(`/files/${f}`)).body.fileId).toBe(f);
    expect((await as(owner).get(`/files/${f}`)).status).toBe(200);
    expect((await as(p1).get(`/files/${f}`)).status).toBe(200);
    notFound(await as(p2).get(`/files/${f}`));
    notFound(await as(other).get(`/files/${f}`));
    const list = await as(owner).get(`/assignments/${id}/submissions`);
    expect(await (await fetchUrl(list.body.submissions[0].attachments[0].downloadUrl)).text()).toBe("attached");
  });

  test("deleting the content removes its config, rubric and submissions", async () => {
    const id = await newAssignment({ maxScore: 5 });
    await as(owner).put(`/assignments/${id}/rubric`, RUBRIC);
    const f = await upload(p1, "gone");
    await submit(p1, id, { fileIds: [f] });
    expect((await as(admin2).get(`/files/${f}`)).status).toBe(200);
    expect((await as(owner).del(`/library/contents/${id}`)).status).toBe(204);
    notFound(await as(admin2).get(`/files/${f}`));
    const rows = api.server.rt.tenants.use(owner.tenantId, (h) =>
      ["assignment_configs", "assignment_rubrics", "assignment_submissions"].map(
        (t) => (h.sqlite.query(`SELECT count(*) AS n FROM ${t} WHERE content_id = ?`).get(id) as { n: number }).n,
      ),
    );
    expect(rows).toEqual([0, 0, 0]);
  });
});
