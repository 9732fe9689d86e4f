import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContentSpace, expectProblem, fieldOf, forbidden, invalidState, notFound, unauth, useServer } from "./helpers/server";

// Per-student exceptions (docs/rules/next-year.md#quiz-overrides): one participant's window, time
// limit and attempts, followed by every check; nobody else is affected.
const api = useServer();
const { as, anon } = api;

let owner: Tenant;
let other: Tenant;
let admin2: Member;
let alice: Member;
let bob: Member;
let outsider: Member;
let nodeId: string;

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    nodeId,
    participants: [alice, bob],
  } = await createContentSpace(api, { spaceName: "Physics", participants: ["Alice", "Bob"] }));
});

const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const QUESTIONS = [{ type: "SINGLE", body: "g is?", point: 2, options: [{ body: "9.8", isCorrect: true }, { body: "3" }] }];

async function quiz(config: Record<string, unknown> = {}) {
  const id = (await as(owner).post("/library/contents", { type: "QUIZ", title: "Quiz", nodeId, visibility: "SHARED" })).body.id as string;
  const res = await as(owner).put(`/quizzes/${id}/config`, { questions: QUESTIONS, ...config });
  expect(res.status).toBe(200);
  return { id, config: res.body };
}
const start = (who: Member, id: string) => as(who).post(`/quizzes/${id}/my-attempts`);
const override = (id: string, who: Member, body: Record<string, unknown>) =>
  as(owner).put(`/quizzes/${id}/overrides/${who.profileId}`, body);

describe("PUT /api/v1/quizzes/{contentId}/overrides/{profileId} — setQuizOverride", () => {
  test("one student starts after everyone else's window closed, and nobody else", async () => {
    const { id } = await quiz({ opensAt: at(-120), closesAt: at(-60) });
    invalidState(await start(alice, id));
    const res = await override(id, alice, { closesAt: at(60) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      profileId: alice.profileId,
      opensAt: null,
      closesAt: expect.any(String),
      timeLimitMinutes: null,
      maxAttempts: null,
    });
    const view = await as(alice).get(`/quizzes/${id}/participant-view`);
    expect(view.body.closesAt).toBe(res.body.closesAt);
    const started = await start(alice, id);
    expect(started.status).toBe(201);
    invalidState(await start(bob, id));
    expect((await as(bob).get(`/quizzes/${id}/participant-view`)).body.closesAt).not.toBe(res.body.closesAt);
    // saving and submitting follow the same window
    const attempt = started.body.attempt;
    const answers = [{ questionId: attempt.questions[0].id, selectedOptionIds: [attempt.questions[0].options[0].id] }];
    expect((await as(alice).put(`/quizzes/${id}/my-attempts/${attempt.attemptId}/answers`, { answers })).status).toBe(200);
    expect((await as(alice).post(`/quizzes/${id}/my-attempts/${attempt.attemptId}/submit`, {})).status).toBe(200);
  });

  test("an override's opensAt keeps one student out while the others work", async () => {
    const { id } = await quiz({ opensAt: at(-10), closesAt: at(60) });
    await override(id, bob, { opensAt: at(30) });
    invalidState(await start(bob, id));
    expect((await start(alice, id)).status).toBe(201);
  });

  test("time limit and attempts follow the override", async () => {
    const { id } = await quiz({ timeLimitMin: 10, maxAttempts: 1 });
    await override(id, alice, { timeLimitMinutes: 90, maxAttempts: 2 });
    const first = (await start(alice, id)).body;
    const minutes = (Date.parse(first.attempt.expiresAt) - Date.parse(first.attempt.startedAt)) / 60_000;
    expect(minutes).toBe(90);
    expect(first).toMatchObject({ timeLimitMin: 90, maxAttempts: 2 });
    await as(alice).post(`/quizzes/${id}/my-attempts/${first.attempt.attemptId}/submit`, {});
    expect((await start(alice, id)).status).toBe(201); // a second attempt: hers alone
    const bobs = (await start(bob, id)).body;
    expect((Date.parse(bobs.attempt.expiresAt) - Date.parse(bobs.attempt.startedAt)) / 60_000).toBe(10);
    await as(bob).post(`/quizzes/${id}/my-attempts/${bobs.attempt.attemptId}/submit`, {});
    expectProblem(await start(bob, id), 409, "ATTEMPT_LIMIT");
  });

  test("the automatic submit at closesAt follows each student's own closesAt", async () => {
    const { id, config } = await quiz({ closesAt: at(60) });
    await override(id, alice, { closesAt: at(120) });
    const a = (await start(alice, id)).body.attempt.attemptId;
    const b = (await start(bob, id)).body.attempt.attemptId;
    // the teacher closes the quiz early: Bob's open attempt is submitted, Alice's goes on
    await as(owner).put(`/quizzes/${id}/config`, { questions: config.questions, closesAt: new Date().toISOString() });
    const own = async (who: Member) => (await as(who).get(`/quizzes/${id}/my-attempts`)).body.attempts[0];
    expect(await own(bob)).toMatchObject({ attemptId: b, submittedAt: expect.any(String) });
    expect(await own(alice)).toMatchObject({ attemptId: a, submittedAt: null });
    expect((await as(alice).put(`/quizzes/${id}/my-attempts/${a}/answers`, { answers: [] })).status).toBe(200);
    // now her own window closes: her attempt is submitted too
    await override(id, alice, { closesAt: new Date().toISOString() });
    expect(await own(alice)).toMatchObject({ attemptId: a, submittedAt: expect.any(String) });
  });

  test("deleteQuizOverride puts the student back on the quiz's own settings; listQuizOverrides lists them", async () => {
    const { id } = await quiz({ maxAttempts: 1 });
    await override(id, alice, { maxAttempts: 3 });
    await override(id, bob, { timeLimitMinutes: 5 });
    const list = await as(admin2).get(`/quizzes/${id}/overrides`);
    expect(list.status).toBe(200);
    expect(list.body.overrides.map((o: any) => o.profileId).sort()).toEqual([alice.profileId, bob.profileId].sort());
    expect((await as(owner).del(`/quizzes/${id}/overrides/${alice.profileId}`)).status).toBe(204);
    notFound(await as(owner).del(`/quizzes/${id}/overrides/${alice.profileId}`));
    expect((await as(alice).get(`/quizzes/${id}/participant-view`)).body.maxAttempts).toBe(1);
    expect((await as(owner).get(`/quizzes/${id}/overrides`)).body.overrides.length).toBe(1);
  });

  test("400: bounds, a window that ends before it opens (the quiz's own values fill the nulls), a non-participant", async () => {
    const { id } = await quiz({ opensAt: at(10) });
    expect(fieldOf(await override(id, alice, { closesAt: at(5) }))).toBe("closesAt");
    expect(fieldOf(await override(id, alice, { opensAt: at(30), closesAt: at(20) }))).toBe("closesAt");
    expect(fieldOf(await override(id, alice, { opensAt: "soon" }))).toBe("opensAt");
    expect(fieldOf(await override(id, alice, { timeLimitMinutes: 0 }))).toBe("timeLimitMinutes");
    expect(fieldOf(await override(id, alice, { maxAttempts: 1.5 }))).toBe("maxAttempts");
    expect(fieldOf(await as(owner).put(`/quizzes/${id}/overrides/${outsider.profileId}`, { maxAttempts: 2 }))).toBe("profileId");
    expect(fieldOf(await as(owner).put(`/quizzes/${id}/overrides/${admin2.profileId}`, { maxAttempts: 2 }))).toBe("profileId");
    expect((await as(owner).get(`/quizzes/${id}/overrides`)).body.overrides).toEqual([]);
  });

  test("401, 403 to a participant, 404 across tenants and for another type", async () => {
    const { id } = await quiz();
    const path = `/quizzes/${id}/overrides/${alice.profileId}`;
    unauth(await anon("PUT", path, { maxAttempts: 2 }));
    unauth(await anon("GET", `/quizzes/${id}/overrides`));
    forbidden(await as(alice).put(path, { maxAttempts: 2 }));
    forbidden(await as(alice).get(`/quizzes/${id}/overrides`));
    forbidden(await as(alice).del(path));
    notFound(await as(other).put(path, { maxAttempts: 2 }));
    notFound(await as(other).get(`/quizzes/${id}/overrides`));
    const survey = (await as(owner).post("/library/contents", { type: "SURVEY", title: "S", nodeId, visibility: "SHARED" })).body.id;
    notFound(await as(owner).put(`/quizzes/${survey}/overrides/${alice.profileId}`, { maxAttempts: 2 }));
  });
});
