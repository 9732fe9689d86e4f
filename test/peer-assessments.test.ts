import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent, createGroupSet } from "./helpers/fixture";
import { createContentSpace, fieldOf, forbidden, invalidState, notFound, unauth, useServer } from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant; // author and ADMIN of the space
let other: Tenant; // another tenant
let admin2: Member; // second ADMIN (manages without being the author)
let p1: Member; // group Red
let p2: Member; // group Red
let p3: Member; // group Blue
let p4: Member; // enrolled, in no group
let outsider: Member; // enrolled nowhere
let spaceId: string;
let nodeId: string;
let setId: string;
let set2Id: string; // in a space where admin2 is not ADMIN
let red: { id: string; name: string };
let blue: { id: string; name: string };

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    spaceId,
    nodeId,
    participants: [p1, p2, p3, p4],
  } = await createContentSpace(api, { spaceName: "Peer space", participants: ["Alice", "Bob", "Carol", "Dave"] }));
  const space2 = (await as(owner).post("/spaces", { name: "Other space" })).body.id;
  ({
    setId,
    groups: [red, blue],
  } = await createGroupSet(api, owner, spaceId, "Teams", [
    { name: "Red", memberIds: [p1.memberId, p2.memberId] },
    { name: "Blue", memberIds: [p3.memberId] },
  ]));
  set2Id = (await as(owner).post(`/spaces/${space2}/group-sets`, { name: "Elsewhere", groups: [{ name: "X", memberIds: [] }] })).body.id;
});

const newPeer = (type = "GROUP_PEER_ASSESSMENT") => createContent(api, owner, nodeId, type, { title: "Peer review" });

const QUESTIONS = [
  { assessmentCriteria: "Contribution", criteriaSubText: "How much did they help?" },
  { assessmentCriteria: "Communication" },
];

/** A peer assessment linked to Teams; returns its id and question ids. */
async function linked(config: Record<string, unknown> = {}) {
  const id = await newPeer();
  const res = await as(owner).put(`/peer-assessments/${id}/config`, { spaceGroupSetId: setId, questions: QUESTIONS, ...config });
  expect(res.status).toBe(200);
  return { id, q: res.body.questions.map((q: any) => q.id) as string[] };
}

const answers = (q: (string | undefined)[], scores: number[], comments: (string | null)[] = []) => ({
  answers: q.map((questionId, i) => ({ questionId, score: scores[i], comment: comments[i] ?? null })),
});

describe("PUT /api/v1/peer-assessments/{contentId}/config — setPeerAssessmentConfig", () => {
  test("a question's assessmentCriteria is optional (empty)", async () => {
    const id = await newPeer();
    const res = await as(owner).put(`/peer-assessments/${id}/config`, { questions: [{}, { criteriaSubText: "Why" }] });
    expect(res.status).toBe(200);
    expect(res.body.questions.map((q: any) => [q.assessmentCriteria, q.criteriaSubText])).toEqual([
      ["", null],
      ["", "Why"],
    ]);
  });

  test("stores the settings and questions (maxScore 5); the read returns the same", async () => {
    const id = await newPeer();
    const res = await as(owner).put(`/peer-assessments/${id}/config`, {
      spaceGroupSetId: setId,
      allowDescriptiveAssessment: true,
      allowSelfAssessment: true,
      submitType: "INTER_GROUP",
      questions: QUESTIONS,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      snapshot: {
        id: expect.any(String),
        spaceGroupSetId: setId,
        allowDescriptiveAssessment: true,
        allowSelfAssessment: true,
        submitType: "INTER_GROUP",
      },
      questions: [
        { id: expect.any(String), index: 0, assessmentCriteria: "Contribution", criteriaSubText: "How much did they help?", maxScore: 5 },
        { id: expect.any(String), index: 1, assessmentCriteria: "Communication", criteriaSubText: null, maxScore: 5 },
      ],
      spaceGroupSetName: "Teams",
      isLinkValid: true,
      linkInvalidReason: null,
      hasSubmitters: false,
      submitCount: 0,
    });
    expect((await as(owner).get(`/peer-assessments/${id}/config`)).body).toEqual(res.body);
    expect((await as(admin2).get(`/peer-assessments/${id}/config`)).body).toEqual(res.body);
  });

  test("a question sent with its id is kept, one without is new; the snapshot id changes; defaults fill absent fields", async () => {
    const { id, q } = await linked({ submitType: "INTER_GROUP", allowSelfAssessment: true });
    const before = (await as(owner).get(`/peer-assessments/${id}/config`)).body;
    const res = await as(owner).put(`/peer-assessments/${id}/config`, {
      spaceGroupSetId: setId,
      questions: [{ id: q[1], assessmentCriteria: "Talking" }, { assessmentCriteria: "New one" }],
    });
    expect(res.body.questions.map((x: any) => [x.id === q[1] ? "kept" : "new", x.index, x.assessmentCriteria])).toEqual([
      ["kept", 0, "Talking"],
      ["new", 1, "New one"],
    ]);
    expect(res.body.snapshot.id).not.toBe(before.snapshot.id);
    expect(res.body.snapshot).toMatchObject({ submitType: "GROUP_MEMBER", allowSelfAssessment: false, allowDescriptiveAssessment: false });
  });

  test("returns 400 naming the field for each bound", async () => {
    const id = await newPeer();
    const put = (json: unknown) => as(owner).put(`/peer-assessments/${id}/config`, json);
    expect(fieldOf(await put({}))).toBe("questions");
    expect(fieldOf(await put({ questions: [] }))).toBe("questions");
    expect(fieldOf(await put({ questions: Array.from({ length: 21 }, () => ({ assessmentCriteria: "c" })) }))).toBe("questions");
    expect(fieldOf(await put({ questions: [{ assessmentCriteria: "" }] }))).toBe("questions[0].assessmentCriteria");
    expect(fieldOf(await put({ questions: [{ assessmentCriteria: "x".repeat(501) }] }))).toBe("questions[0].assessmentCriteria");
    expect(fieldOf(await put({ questions: [{ assessmentCriteria: "c", criteriaSubText: "x".repeat(2001) }] }))).toBe(
      "questions[0].criteriaSubText",
    );
    expect(fieldOf(await put({ questions: [{ id: "nope", assessmentCriteria: "c" }] }))).toBe("questions[0].id");
    expect(fieldOf(await put({ questions: QUESTIONS, submitType: "EVERYONE" }))).toBe("submitType");
    expect(fieldOf(await put({ questions: QUESTIONS, allowSelfAssessment: 1 }))).toBe("allowSelfAssessment");
    expect(fieldOf(await put({ questions: QUESTIONS, spaceGroupSetId: "nope" }))).toBe("spaceGroupSetId");
    // admin2 manages the content but is not ADMIN of the set's space
    expect(fieldOf(await as(admin2).put(`/peer-assessments/${id}/config`, { questions: QUESTIONS, spaceGroupSetId: set2Id }))).toBe(
      "spaceGroupSetId",
    );
    expect((await as(owner).get(`/peer-assessments/${id}/config`)).body.questions).toEqual([]);
  });

  test("once someone has assessed, the set and submit type cannot change (409); a removed question drops its scores", async () => {
    const { id, q } = await linked();
    expect((await as(p1).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [4, 2]))).status).toBe(200);
    invalidState(await as(owner).put(`/peer-assessments/${id}/config`, { spaceGroupSetId: set2Id, questions: QUESTIONS }));
    invalidState(
      await as(owner).put(`/peer-assessments/${id}/config`, { spaceGroupSetId: setId, submitType: "INTER_GROUP", questions: QUESTIONS }),
    );
    const kept = await as(owner).put(`/peer-assessments/${id}/config`, {
      spaceGroupSetId: setId,
      questions: [{ id: q[1], assessmentCriteria: "Communication" }],
    });
    expect([kept.body.hasSubmitters, kept.body.submitCount]).toEqual([true, 1]);
    const target = (await as(owner).get(`/peer-assessments/${id}/results`)).body.targets.find((t: any) => t.targetId === p2.profileId);
    expect([target.averages, target.overallAverage]).toEqual([[{ questionId: q[1], average: 2 }], 2]);
  });

  test("returns 401, 403 for a viewer, 404 for another tenant, an unknown id or another type", async () => {
    const id = await newPeer();
    const body = { questions: QUESTIONS };
    unauth(await anon("PUT", `/peer-assessments/${id}/config`, body));
    forbidden(await as(p1).put(`/peer-assessments/${id}/config`, body));
    notFound(await as(outsider).put(`/peer-assessments/${id}/config`, body));
    notFound(await as(other).put(`/peer-assessments/${id}/config`, body));
    notFound(await as(owner).put("/peer-assessments/nope/config", body));
    notFound(await as(owner).put(`/peer-assessments/${await newPeer("GROUP_ASSIGNMENT")}/config`, body));
  });
});

describe("GET /api/v1/peer-assessments/{contentId}/config — getPeerAssessmentConfig", () => {
  test("defaults before the first save", async () => {
    const id = await newPeer();
    expect((await as(owner).get(`/peer-assessments/${id}/config`)).body).toEqual({
      snapshot: {
        id: null,
        spaceGroupSetId: null,
        allowDescriptiveAssessment: false,
        allowSelfAssessment: false,
        submitType: "GROUP_MEMBER",
      },
      questions: [],
      spaceGroupSetName: null,
      isLinkValid: false,
      linkInvalidReason: "NOT_LINKED",
      hasSubmitters: false,
      submitCount: 0,
    });
  });

  test("deleting the linked set marks the link GROUP_SET_DELETED (stored by the delete hook)", async () => {
    const s = (
      await as(owner).post(`/spaces/${spaceId}/group-sets`, {
        name: "Doomed",
        groups: [{ name: "D", memberIds: [p1.memberId, p2.memberId] }],
      })
    ).body;
    const id = await newPeer();
    await as(owner).put(`/peer-assessments/${id}/config`, { spaceGroupSetId: s.id, questions: QUESTIONS });
    expect((await as(owner).del(`/spaces/${spaceId}/group-sets/${s.id}`)).status).toBe(204);
    const res = (await as(owner).get(`/peer-assessments/${id}/config`)).body;
    expect([res.snapshot.spaceGroupSetId, res.spaceGroupSetName, res.isLinkValid, res.linkInvalidReason]).toEqual([
      s.id,
      "Doomed",
      false,
      "GROUP_SET_DELETED",
    ]);
    const stored = api.server.rt.tenants.use(owner.tenantId, (h) =>
      h.sqlite.query("SELECT link_invalid_reason AS r FROM peer_assessment_configs WHERE content_id = ?").get(id),
    );
    expect(stored).toEqual({ r: "GROUP_SET_DELETED" });
    invalidState(await as(p1).get(`/peer-assessments/${id}/my-targets`));
    // a broken link may be replaced
    expect((await as(owner).put(`/peer-assessments/${id}/config`, { spaceGroupSetId: setId, questions: QUESTIONS })).body.isLinkValid).toBe(
      true,
    );
  });

  test("returns 401, 403 for a viewer, 404 for another tenant", async () => {
    const id = await newPeer();
    unauth(await anon("GET", `/peer-assessments/${id}/config`));
    forbidden(await as(p1).get(`/peer-assessments/${id}/config`));
    notFound(await as(other).get(`/peer-assessments/${id}/config`));
  });
});

describe("GET /api/v1/peer-assessments/{contentId}/my-targets — listMyPeerTargets", () => {
  test("GROUP_MEMBER: the other members of the caller's group; self assessment adds the caller", async () => {
    const { id, q } = await linked({ allowDescriptiveAssessment: true });
    const res = await as(p1).get(`/peer-assessments/${id}/my-targets`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      submitType: "GROUP_MEMBER",
      allowDescriptiveAssessment: true,
      questions: [expect.objectContaining({ id: q[0], index: 0, maxScore: 5 }), expect.objectContaining({ id: q[1], index: 1 })],
      targets: [{ targetId: p2.profileId, targetName: "Bob", groupId: red.id, groupName: "Red", submittedAt: null }],
    });
    await as(p1).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [3, 3]));
    expect((await as(p1).get(`/peer-assessments/${id}/my-targets`)).body.targets[0].submittedAt).toMatch(/Z$/);
    // Carol is alone in Blue: nobody to assess
    expect((await as(p3).get(`/peer-assessments/${id}/my-targets`)).body.targets).toEqual([]);
    const self = await linked({ allowSelfAssessment: true });
    expect((await as(p1).get(`/peer-assessments/${self.id}/my-targets`)).body.targets.map((t: any) => t.targetId)).toEqual([
      p1.profileId,
      p2.profileId,
    ]);
  });

  test("INTER_GROUP: the other groups; self assessment adds the caller's own group", async () => {
    const { id } = await linked({ submitType: "INTER_GROUP" });
    expect((await as(p1).get(`/peer-assessments/${id}/my-targets`)).body.targets).toEqual([
      { targetId: blue.id, targetName: "Blue", groupId: blue.id, groupName: "Blue", submittedAt: null },
    ]);
    const self = await linked({ submitType: "INTER_GROUP", allowSelfAssessment: true });
    expect((await as(p3).get(`/peer-assessments/${self.id}/my-targets`)).body.targets.map((t: any) => t.targetId)).toEqual([
      red.id,
      blue.id,
    ]);
  });

  test("not linked: 409; caller in no group: 403; invisible or another tenant: 404; 401", async () => {
    invalidState(await as(p1).get(`/peer-assessments/${await newPeer()}/my-targets`));
    const { id } = await linked();
    forbidden(await as(p4).get(`/peer-assessments/${id}/my-targets`));
    notFound(await as(outsider).get(`/peer-assessments/${id}/my-targets`));
    notFound(await as(other).get(`/peer-assessments/${id}/my-targets`));
    unauth(await anon("GET", `/peer-assessments/${id}/my-targets`));
  });
});

describe("PUT /api/v1/peer-assessments/{contentId}/my-targets/{targetId} — submitPeerAssessment", () => {
  test("stores one answer per question; a later PUT replaces it", async () => {
    const { id, q } = await linked({ allowDescriptiveAssessment: true });
    const path = `/peer-assessments/${id}/my-targets/${p2.profileId}`;
    const res = await as(p1).put(path, {
      answers: [
        { questionId: q[1], score: 1 },
        { questionId: q[0], score: 5, comment: "Great" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      targetId: p2.profileId,
      answers: [
        { questionId: q[0], score: 5, comment: "Great" },
        { questionId: q[1], score: 1, comment: null },
      ],
      submittedAt: expect.stringMatching(/Z$/),
    });
    await as(p1).put(path, answers(q, [0, 0]));
    const target = (await as(owner).get(`/peer-assessments/${id}/results`)).body.targets.find((t: any) => t.targetId === p2.profileId);
    expect([target.receivedCount, target.overallAverage, target.comments]).toEqual([1, 0, []]);
  });

  test("returns 400 for scores, comments and the answer set", async () => {
    const { id, q } = await linked();
    const put = (json: unknown) => as(p1).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, json);
    expect(fieldOf(await put({}))).toBe("answers");
    expect(fieldOf(await put(answers(q, [6, 1])))).toBe("answers[0].score");
    expect(fieldOf(await put(answers(q, [1, -1])))).toBe("answers[1].score");
    expect(fieldOf(await put(answers(q, [1.5, 1])))).toBe("answers[0].score");
    expect(fieldOf(await put(answers(q, [1, 1], ["nice"])))).toBe("answers[0].comment");
    expect(fieldOf(await put(answers([q[0]], [1])))).toBe("answers");
    expect(fieldOf(await put(answers([q[0], q[0]], [1, 1])))).toBe("answers[1].questionId");
    expect(fieldOf(await put(answers([q[0], q[1], "nope"], [1, 1, 1])))).toBe("answers[2].questionId");
    expect(fieldOf(await put({ answers: Array.from({ length: 21 }, () => ({ questionId: q[0], score: 1 })) }))).toBe("answers");
    const descriptive = await linked({ allowDescriptiveAssessment: true });
    expect(
      fieldOf(
        await as(p1).put(
          `/peer-assessments/${descriptive.id}/my-targets/${p2.profileId}`,
          answers(descriptive.q, [1, 1], ["x".repeat(5001)]),
        ),
      ),
    ).toBe("answers[0].comment");
    expect((await as(p1).get(`/peer-assessments/${id}/my-targets`)).body.targets[0].submittedAt).toBeNull();
  });

  test("a target that is not the caller's is 404; no group 403; not linked 409; 401; another tenant 404", async () => {
    const { id, q } = await linked();
    notFound(await as(p1).put(`/peer-assessments/${id}/my-targets/${p3.profileId}`, answers(q, [1, 1])));
    notFound(await as(p1).put(`/peer-assessments/${id}/my-targets/${p1.profileId}`, answers(q, [1, 1])));
    notFound(await as(p1).put(`/peer-assessments/${id}/my-targets/${blue.id}`, answers(q, [1, 1])));
    forbidden(await as(p4).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [1, 1])));
    invalidState(await as(p1).put(`/peer-assessments/${await newPeer()}/my-targets/${p2.profileId}`, answers(q, [1, 1])));
    unauth(await anon("PUT", `/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [1, 1])));
    notFound(await as(other).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [1, 1])));
    notFound(await as(outsider).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [1, 1])));
  });
});

describe("GET /api/v1/peer-assessments/{contentId}/results — getPeerAssessmentResults", () => {
  test("GROUP_MEMBER: per-target averages and comments; who was expected and who finished", async () => {
    const { id, q } = await linked({ allowDescriptiveAssessment: true });
    const empty = (await as(owner).get(`/peer-assessments/${id}/results`)).body;
    expect(empty.targets.map((t: any) => [t.targetName, t.groupName, t.receivedCount, t.overallAverage])).toEqual([
      ["Alice", "Red", 0, null],
      ["Bob", "Red", 0, null],
      ["Carol", "Blue", 0, null],
    ]);
    // Carol has no target (alone in her group): not expected
    expect([empty.expectedSubmitterCount, empty.submittedSubmitterCount]).toEqual([2, 0]);
    await as(p1).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [4, 3], ["Solid", null]));
    const mid = (await as(owner).get(`/peer-assessments/${id}/results`)).body;
    expect(mid.submittedSubmitterCount).toBe(1);
    const bob = mid.targets.find((t: any) => t.targetId === p2.profileId);
    expect(bob).toEqual({
      targetId: p2.profileId,
      targetName: "Bob",
      groupId: red.id,
      groupName: "Red",
      receivedCount: 1,
      averages: [
        { questionId: q[0], average: 4 },
        { questionId: q[1], average: 3 },
      ],
      overallAverage: 3.5,
      comments: ["Solid"],
    });
    await as(p2).put(`/peer-assessments/${id}/my-targets/${p1.profileId}`, answers(q, [5, 2]));
    const done = (await as(admin2).get(`/peer-assessments/${id}/results`)).body;
    expect([done.expectedSubmitterCount, done.submittedSubmitterCount]).toEqual([2, 2]);
    expect(done.questions.map((x: any) => x.id)).toEqual(q);
  });

  test("INTER_GROUP: groups are the targets, scores from several assessors are averaged", async () => {
    const { id, q } = await linked({ submitType: "INTER_GROUP" });
    await as(p1).put(`/peer-assessments/${id}/my-targets/${blue.id}`, answers(q, [4, 4]));
    await as(p2).put(`/peer-assessments/${id}/my-targets/${blue.id}`, answers(q, [1, 2]));
    const res = (await as(owner).get(`/peer-assessments/${id}/results`)).body;
    const blueResult = res.targets.find((t: any) => t.targetId === blue.id);
    expect([
      blueResult.targetName,
      blueResult.receivedCount,
      blueResult.averages.map((a: any) => a.average),
      blueResult.overallAverage,
    ]).toEqual(["Blue", 2, [2.5, 3], 2.75]);
    expect([res.expectedSubmitterCount, res.submittedSubmitterCount]).toEqual([3, 2]);
  });

  test("returns 401, 403 for a viewer, 404 for another tenant", async () => {
    const { id } = await linked();
    unauth(await anon("GET", `/peer-assessments/${id}/results`));
    forbidden(await as(p1).get(`/peer-assessments/${id}/results`));
    notFound(await as(other).get(`/peer-assessments/${id}/results`));
  });
});

describe("deleteContent — cascades", () => {
  test("the config, assessments and answers go with the content", async () => {
    const { id, q } = await linked();
    await as(p1).put(`/peer-assessments/${id}/my-targets/${p2.profileId}`, answers(q, [1, 1]));
    const rows = () =>
      api.server.rt.tenants.use(owner.tenantId, (h) =>
        ["peer_assessment_configs", "peer_assessments", "peer_answers"].map(
          (table) => (h.sqlite.query(`SELECT count(*) AS n FROM ${table} WHERE content_id = ?`).get(id) as { n: number }).n,
        ),
      );
    expect(rows()).toEqual([1, 1, 2]);
    expect((await as(owner).del(`/library/contents/${id}`)).status).toBe(204);
    expect(rows()).toEqual([0, 0, 0]);
  });
});
