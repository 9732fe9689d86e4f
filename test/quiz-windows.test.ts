import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContentSpace, expectProblem, fieldOf, forbidden, ISO, invalidState, notFound, unauth, useServer } from "./helpers/server";

// docs/rules/quizzes.md#windows, docs/rules/quizzes.md#another-chance (voidQuizAttempt), docs/rules/surveys.md#changes-that-drop-answers.
const api = useServer();
const { as, anon } = api;

let owner: Tenant; // teacher: author of the quizzes, ADMIN of the space
let other: Tenant; // another school
let alice: Member;
let bob: Member;
let nodeId: string;

beforeAll(async () => {
  ({
    owner,
    other,
    nodeId,
    participants: [alice, bob],
  } = await createContentSpace(api, { spaceName: "Chemistry", participants: ["Alice", "Bob"] }));
});

const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const QUESTIONS = [
  { type: "SINGLE", body: "H2O is?", point: 2, options: [{ body: "water", isCorrect: true }, { body: "salt" }] },
  { type: "SINGLE", body: "NaCl is?", point: 3, options: [{ body: "water" }, { body: "salt", isCorrect: true }] },
];

async function quiz(config: Record<string, unknown> = {}) {
  const id = (await as(owner).post("/library/contents", { type: "QUIZ", title: "Quiz", nodeId, visibility: "SHARED" })).body.id as string;
  const res = await as(owner).put(`/quizzes/${id}/config`, { questions: QUESTIONS, ...config });
  expect(res.status).toBe(200);
  return { id, config: res.body };
}

const right = (cfg: any, n = 2) =>
  cfg.questions.slice(0, n).map((q: any) => ({ questionId: q.id, selectedOptionIds: [q.options.find((o: any) => o.isCorrect).id] }));

describe("quiz windows — setQuizConfig opensAt/closesAt", () => {
  test("a quiz that opens later refuses attempts; the participant view shows both times", async () => {
    const { id, config } = await quiz({ opensAt: at(60), closesAt: at(120) });
    expect(config.opensAt).toMatch(ISO);
    expect(config.closesAt).toMatch(ISO);
    const view = await as(alice).get(`/quizzes/${id}/participant-view`);
    expect(view.body).toMatchObject({ opensAt: config.opensAt, closesAt: config.closesAt });
    invalidState(await as(alice).post(`/quizzes/${id}/my-attempts`));
    // the teacher opens it now
    await as(owner).put(`/quizzes/${id}/config`, { questions: config.questions, opensAt: at(-1), closesAt: at(120) });
    expect((await as(alice).post(`/quizzes/${id}/my-attempts`)).status).toBe(201);
  });

  test("closing early submits an open attempt with its saved answers, like an expired time limit", async () => {
    const { id, config } = await quiz({ opensAt: at(-10), closesAt: at(60) });
    const attempt = (await as(alice).post(`/quizzes/${id}/my-attempts`)).body.attempt;
    // Alice saves one right answer, then the teacher closes the quiz (closesAt = now)
    expect((await as(alice).put(`/quizzes/${id}/my-attempts/${attempt.attemptId}/answers`, { answers: right(config, 1) })).status).toBe(
      200,
    );
    const closesAt = new Date().toISOString();
    expect((await as(owner).put(`/quizzes/${id}/config`, { questions: config.questions, opensAt: at(-10), closesAt })).status).toBe(200);
    invalidState(await as(alice).put(`/quizzes/${id}/my-attempts/${attempt.attemptId}/answers`, { answers: right(config) }));
    invalidState(await as(alice).post(`/quizzes/${id}/my-attempts/${attempt.attemptId}/submit`, { answers: right(config) }));
    invalidState(await as(bob).post(`/quizzes/${id}/my-attempts`));
    const mine = await as(alice).get(`/quizzes/${id}/my-attempts`);
    expect(mine.body.attempts).toHaveLength(1);
    expect(mine.body.attempts[0]).toMatchObject({ attemptId: attempt.attemptId, submittedAt: closesAt, score: 2 });
    expect(mine.body.finalScore).toBe(2);
    expect((await as(alice).get(`/quizzes/${id}/participant-view`)).body.attempt).toBeNull();
    const listed = await as(owner).get(`/quizzes/${id}/attempts`);
    expect(listed.body.attempts.map((a: any) => [a.profileId, a.score])).toEqual([[alice.profileId, 2]]);
  });

  test("returns 400 naming closesAt when it is not after opensAt, and a bad date-time", async () => {
    const { id } = await quiz();
    const put = (json: Record<string, unknown>) => as(owner).put(`/quizzes/${id}/config`, { questions: QUESTIONS, ...json });
    expect(fieldOf(await put({ opensAt: at(60), closesAt: at(30) }))).toBe("closesAt");
    const same = at(60); // one instant: two calls of at() a millisecond apart made this window valid at load
    expect(fieldOf(await put({ opensAt: same, closesAt: same }))).toBe("closesAt");
    expect(fieldOf(await put({ opensAt: "next monday" }))).toBe("opensAt");
    expect((await put({ opensAt: null, closesAt: at(30) })).body).toMatchObject({ opensAt: null, closesAt: expect.stringMatching(ISO) });
  });
});

describe("POST /api/v1/quizzes/{contentId}/attempts/{attemptId}/void — voidQuizAttempt", () => {
  test("a voided attempt gives a student one more try and stops counting", async () => {
    const { id, config } = await quiz({ maxAttempts: 1 });
    const first = (await as(alice).post(`/quizzes/${id}/my-attempts`)).body.attempt;
    await as(alice).post(`/quizzes/${id}/my-attempts/${first.attemptId}/submit`, { answers: right(config, 1) });
    expectProblem(await as(alice).post(`/quizzes/${id}/my-attempts`), 409, "ATTEMPT_LIMIT");
    const bobs = (await as(bob).post(`/quizzes/${id}/my-attempts`)).body.attempt;
    await as(bob).post(`/quizzes/${id}/my-attempts/${bobs.attemptId}/submit`, { answers: right(config) });
    expect((await as(owner).get(`/quizzes/${id}/statistics`)).body).toMatchObject({ submittedCount: 2, averageScore: 3.5 });

    // Alice was ill: the teacher voids her attempt
    const voided = await as(owner).post(`/quizzes/${id}/attempts/${first.attemptId}/void`);
    expect(voided.status).toBe(204);
    expect((await as(owner).post(`/quizzes/${id}/attempts/${first.attemptId}/void`)).status).toBe(204);
    const listed = (await as(owner).get(`/quizzes/${id}/attempts`)).body.attempts;
    expect(listed.find((a: any) => a.attemptId === first.attemptId).voidedAt).toMatch(ISO);
    expect(listed.find((a: any) => a.attemptId === bobs.attemptId).voidedAt).toBeNull();
    const stats = (await as(owner).get(`/quizzes/${id}/statistics`)).body;
    expect(stats).toMatchObject({ submittedCount: 1, averageScore: 5 });
    expect(stats.questions[0].answeredCount).toBe(1);
    let mine = (await as(alice).get(`/quizzes/${id}/my-attempts`)).body;
    expect([mine.finalScore, mine.attempts[0].voidedAt]).toEqual([null, expect.stringMatching(ISO)]);
    expect((await as(alice).get(`/quizzes/${id}/participant-view`)).body.attemptsUsed).toBe(0);

    // one more try
    const second = await as(alice).post(`/quizzes/${id}/my-attempts`);
    expect(second.status).toBe(201);
    await as(alice).post(`/quizzes/${id}/my-attempts/${second.body.attempt.attemptId}/submit`, { answers: right(config) });
    mine = (await as(alice).get(`/quizzes/${id}/my-attempts`)).body;
    expect([mine.finalScore, mine.attempts.length]).toEqual([5, 2]);
    expectProblem(await as(alice).post(`/quizzes/${id}/my-attempts`), 409, "ATTEMPT_LIMIT");
  });

  test("an attempt in progress cannot be voided (409); 401, 403, 404 across tenants and for unknown attempts", async () => {
    const { id } = await quiz();
    const open = (await as(bob).post(`/quizzes/${id}/my-attempts`)).body.attempt;
    const path = `/quizzes/${id}/attempts/${open.attemptId}/void`;
    invalidState(await as(owner).post(path));
    unauth(await anon("POST", path));
    forbidden(await as(alice).post(path));
    notFound(await as(other).post(path));
    notFound(await as(owner).post(`/quizzes/${id}/attempts/nope/void`));
    const elsewhere = await quiz();
    notFound(await as(owner).post(`/quizzes/${elsewhere.id}/attempts/${open.attemptId}/void`));
  });
});

describe("survey windows and changes that drop answers — setSurveyConfig", () => {
  async function survey(config: Record<string, unknown> = {}) {
    const id = (await as(owner).post("/library/contents", { type: "SURVEY", title: "Feedback", nodeId, visibility: "SHARED" })).body
      .id as string;
    const questions = [
      { type: "SHORT_TEXT", title: "Best part?" },
      { type: "SCALE", title: "Pace", scaleMin: 1, scaleMax: 5 },
    ];
    const res = await as(owner).put(`/surveys/${id}/config`, { questions, ...config });
    expect(res.status).toBe(200);
    return { id, config: res.body };
  }
  const reply = (cfg: any) => ({ answers: [{ questionId: cfg.questions[0].id, text: "Labs" }] });

  test("responses only inside the window; the participant view shows it", async () => {
    const { id, config } = await survey({ opensAt: at(30), closesAt: at(90) });
    const view = (await as(alice).get(`/surveys/${id}/participant-view`)).body;
    expect([view.opensAt, view.closesAt]).toEqual([config.opensAt, config.closesAt]);
    invalidState(await as(alice).put(`/surveys/${id}/my-response/draft`, reply(config)));
    invalidState(await as(alice).post(`/surveys/${id}/my-response/submit`, reply(config)));
    const keep = config.questions.map((q: any) => ({ id: q.id, type: q.type, title: q.title }));
    await as(owner).put(`/surveys/${id}/config`, { questions: keep, opensAt: at(-30), closesAt: at(90) });
    expect((await as(alice).post(`/surveys/${id}/my-response/submit`, reply(config))).status).toBe(200);
    await as(owner).put(`/surveys/${id}/config`, { questions: keep, opensAt: at(-30), closesAt: new Date().toISOString() });
    invalidState(await as(bob).put(`/surveys/${id}/my-response/draft`, reply(config)));
    expect(fieldOf(await as(owner).put(`/surveys/${id}/config`, { questions: keep, opensAt: at(10), closesAt: at(5) }))).toBe("closesAt");
  });

  test("removing or retyping a question while responses exist needs resetResponses (else 409 IN_USE)", async () => {
    const { id, config } = await survey();
    await as(bob).put(`/surveys/${id}/my-response/draft`, reply(config));
    const [q1, q2] = config.questions.map((q: any) => ({ id: q.id, type: q.type, title: q.title }));
    expectProblem(await as(owner).put(`/surveys/${id}/config`, { questions: [q1] }), 409, "IN_USE");
    expectProblem(await as(owner).put(`/surveys/${id}/config`, { questions: [{ ...q1, type: "SCALE" }, q2] }), 409, "IN_USE");
    // a retitle keeps the answers
    expect((await as(owner).put(`/surveys/${id}/config`, { questions: [{ ...q1, title: "Favourite part?" }, q2] })).status).toBe(200);
    expect((await as(bob).get(`/surveys/${id}/my-response`)).body.response.status).toBe("DRAFT");
    const reset = await as(owner).put(`/surveys/${id}/config`, { questions: [q1], resetResponses: true });
    expect(reset.status).toBe(200);
    expect((await as(bob).get(`/surveys/${id}/my-response`)).body.response).toBeNull();
    // without responses nothing is in use
    expect((await as(owner).put(`/surveys/${id}/config`, { questions: [{ ...q1, type: "SCALE" }] })).status).toBe(200);
    expect(fieldOf(await as(owner).put(`/surveys/${id}/config`, { questions: [q1], resetResponses: "yes" }))).toBe("resetResponses");
  });
});
