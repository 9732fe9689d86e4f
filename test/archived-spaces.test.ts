import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContentSpace, createMemberFixture, invalidState, useServer } from "./helpers/server";

// docs/rules/spaces.md#archived-spaces: at the end of term a space is made inactive; participants can no
// longer hand in anything, but every grade stays readable and managers still grade and return.
const api = useServer();
const { as } = api;

let owner: Tenant;
let alice: Member;
let bob: Member;
let spaceId: string;
let nodeId: string;

beforeAll(async () => {
  ({
    owner,
    spaceId,
    nodeId,
    participants: [alice, bob],
  } = await createContentSpace(api, { spaceName: "Biology 1A", participants: ["Alice", "Bob"] }));
});

async function content(type: string, title: string) {
  const res = await as(owner).post("/library/contents", { type, title, nodeId, visibility: "SHARED" });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe("an archived (inactive) space is read-only for participants", () => {
  test("refuses new work with 409 INVALID_STATE, keeps grades readable, and managers still grade and return", async () => {
    // the term: an essay, a quiz, a survey, a group project with peer review, a reading challenge, a join code
    const essay = await content("ASSIGNMENT", "Essay");
    const quiz = await content("QUIZ", "Cells quiz");
    const q = (
      await as(owner).put(`/quizzes/${quiz}/config`, {
        maxAttempts: 3,
        questions: [{ type: "SINGLE", body: "Nucleus?", point: 5, options: [{ body: "yes", isCorrect: true }, { body: "no" }] }],
      })
    ).body.questions[0];
    const survey = await content("SURVEY", "Course feedback");
    const sq = (await as(owner).put(`/surveys/${survey}/config`, { questions: [{ type: "SHORT_TEXT", title: "Comments" }] })).body
      .questions[0];
    const set = (
      await as(owner).post(`/spaces/${spaceId}/group-sets`, {
        name: "Labs",
        groups: [{ name: "Lab 1", memberIds: [alice.memberId, bob.memberId] }],
      })
    ).body;
    const project = await content("GROUP_ASSIGNMENT", "Lab report");
    expect((await as(owner).put(`/group-assignments/${project}/config`, { spaceGroupSetId: set.id })).status).toBe(200);
    const peer = await content("GROUP_PEER_ASSESSMENT", "Lab peer review");
    const pq = (
      await as(owner).put(`/peer-assessments/${peer}/config`, { spaceGroupSetId: set.id, questions: [{ assessmentCriteria: "Effort" }] })
    ).body.questions[0];
    const challenge = (
      await as(owner).post(`/spaces/${spaceId}/challenges`, {
        title: "Read daily",
        emoji: "📚",
        tasks: [{ title: "Day 1", startedAt: at(-1) }],
      })
    ).body;
    const added = await as(owner).post(`/spaces/${spaceId}/challenges/${challenge.id}/members`, { userIds: [alice.memberId] });
    expect(added.status).toBe(200);
    const code = (await as(owner).post(`/spaces/${spaceId}/join-codes`)).body.code;

    // during term Alice hands in her essay and takes the quiz
    const sub = (await as(alice).post(`/assignments/${essay}/submissions`, { body: "Mitochondria" })).body;
    const attempt = (await as(alice).post(`/quizzes/${quiz}/my-attempts`)).body.attempt;
    const answers = [{ questionId: q.id, selectedOptionIds: [q.options[0].id] }];
    expect((await as(alice).post(`/quizzes/${quiz}/my-attempts/${attempt.attemptId}/submit`, { answers })).status).toBe(200);
    const second = (await as(alice).post(`/quizzes/${quiz}/my-attempts`)).body.attempt;
    const groupSub = (await as(bob).post(`/group-assignments/${project}/submissions`, { body: "Our lab" })).body;

    // end of term: the space is archived
    const archived = await as(owner).patch(`/spaces/${spaceId}`, { isActive: false });
    expect(archived.status).toBe(200);
    expect(archived.body.isActive).toBe(false);

    invalidState(await as(bob).post(`/assignments/${essay}/submissions`, { body: "late" }));
    invalidState(await as(alice).post(`/group-assignments/${project}/submissions`, { body: "more" }));
    invalidState(await as(bob).post(`/quizzes/${quiz}/my-attempts`));
    invalidState(await as(alice).put(`/quizzes/${quiz}/my-attempts/${second.attemptId}/answers`, { answers }));
    invalidState(await as(alice).post(`/quizzes/${quiz}/my-attempts/${second.attemptId}/submit`, { answers }));
    const feedback = { answers: [{ questionId: sq.id, text: "Great" }] };
    invalidState(await as(alice).put(`/surveys/${survey}/my-response/draft`, feedback));
    invalidState(await as(alice).post(`/surveys/${survey}/my-response/submit`, feedback));
    invalidState(
      await as(alice).put(`/peer-assessments/${peer}/my-targets/${bob.profileId}`, { answers: [{ questionId: pq.id, score: 4 }] }),
    );
    const task = challenge.tasks[0].id;
    invalidState(await as(alice).put(`/spaces/${spaceId}/challenges/${challenge.id}/tasks/${task}/completion`));
    invalidState(await as(alice).del(`/spaces/${spaceId}/challenges/${challenge.id}/tasks/${task}/completion`));
    const newcomer = await createMemberFixture(api.server, owner, { displayName: "Newcomer" });
    invalidState(await as(newcomer).post("/spaces/join", { code }));

    // managers still grade and return; the gradebook exports
    expect((await as(owner).put(`/assignments/${essay}/submissions/${sub.id}/grade`, { score: 9 })).status).toBe(200);
    expect((await as(owner).post(`/assignments/${essay}/submissions/${sub.id}/return`)).status).toBe(200);
    expect((await as(owner).put(`/group-assignments/${project}/submissions/${groupSub.id}/grade`, { score: 7 })).status).toBe(200);
    const book = await as(owner).get(`/spaces/${spaceId}/gradebook`);
    expect(book.status).toBe(200);
    const aliceRow = book.body.rows.find((r: any) => r.profileId === alice.profileId);
    const cell = (row: any, id: string) => row.cells.find((c: any) => c.contentId === id);
    expect(cell(aliceRow, essay)).toEqual({ contentId: essay, score: 9, status: "RETURNED" });
    expect(cell(aliceRow, quiz)).toEqual({ contentId: quiz, score: 5, status: "GRADED" });
    expect(cell(aliceRow, project)).toEqual({ contentId: project, score: 7, status: "GRADED" });

    // and Alice still reads everything she did
    expect((await as(alice).get(`/assignments/${essay}/my-submission`)).body.latest).toMatchObject({ score: 9, status: "RETURNED" });
    expect((await as(alice).get(`/quizzes/${quiz}/my-attempts`)).body.finalScore).toBe(5);
    const mine = await as(alice).get(`/spaces/${spaceId}/my-grades`);
    expect(mine.status).toBe(200);
    expect(cell(mine.body.row, essay).score).toBe(9);

    // re-activating the space opens it again
    expect((await as(owner).patch(`/spaces/${spaceId}`, { isActive: true })).status).toBe(200);
    expect((await as(bob).post(`/assignments/${essay}/submissions`, { body: "finally" })).status).toBe(201);
    expect((await as(bob).post(`/quizzes/${quiz}/my-attempts`)).status).toBe(201);
    expect((await as(alice).put(`/surveys/${survey}/my-response/draft`, feedback)).status).toBe(200);
    expect((await as(alice).put(`/spaces/${spaceId}/challenges/${challenge.id}/tasks/${task}/completion`)).status).toBe(200);
    expect((await as(newcomer).post("/spaces/join", { code })).status).toBe(200);
  });
});
