import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent, uploadFile } from "./helpers/fixture";
import { createContentSpace, expectProblem, fieldOf, fieldsOf, forbidden, ISO, notFound, unauth, useServer } from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant; // author of the quizzes and ADMIN of the space
let other: Tenant; // another tenant
let admin2: Member; // second ADMIN of the space (a manager who is not the author)
let p1: Member; // PARTICIPANT
let p2: Member; // PARTICIPANT
let p3: Member; // PARTICIPANT, never answers
let outsider: Member; // enrolled nowhere: cannot see space content
let nodeId: string;

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    nodeId,
    participants: [p1, p2, p3],
  } = await createContentSpace(api, { spaceName: "Quiz space", participants: ["Alice", "Bob", "Carol"] }));
});

/** A QUIZ published to the space (SHARED in its folder). */
const newQuiz = (type = "QUIZ") => createContent(api, owner, nodeId, type, { title: "Quiz" });

const upload = (who: { token: string }) => uploadFile(api, who);

const QUESTIONS = [
  {
    type: "SINGLE",
    body: "Pick A",
    point: 2,
    explanation: "A is first",
    options: [{ body: "A", isCorrect: true }, { body: "B" }, { body: "C", isCorrect: false }],
  },
  {
    type: "MULTIPLE",
    body: "Pick W and X",
    point: 4,
    options: [{ body: "W", isCorrect: true }, { body: "X", isCorrect: true }, { body: "Y" }, { body: "Z" }],
  },
  {
    type: "SHORT_ANSWER",
    body: "A city",
    point: 3,
    answerCandidates: [{ text: "New  York" }, { text: "san*" }, { text: "a*b", ignoreWildcard: true }],
  },
  { type: "ESSAY", body: "Explain", point: 5, explanation: "Free text" },
];

/** A quiz with the four question types; returns its id and config. */
async function configured(extra: Record<string, unknown> = {}, questions: unknown[] = QUESTIONS) {
  const id = await newQuiz();
  const res = await as(owner).put(`/quizzes/${id}/config`, { questions, ...extra });
  expect(res.status).toBe(200);
  return { id, config: res.body };
}

/** Answers to the configured quiz: option indexes for q0/q1, texts for q2/q3. */
function answers(cfg: any, a: { single?: number; multi?: number[]; short?: string; essay?: string }) {
  const [q0, q1, q2, q3] = cfg.questions;
  const out: any[] = [];
  if (a.single !== undefined) out.push({ questionId: q0.id, selectedOptionIds: [q0.options[a.single].id] });
  if (a.multi !== undefined) out.push({ questionId: q1.id, selectedOptionIds: a.multi.map((k) => q1.options[k].id) });
  if (a.short !== undefined) out.push({ questionId: q2.id, textAnswer: a.short });
  if (a.essay !== undefined) out.push({ questionId: q3.id, textAnswer: a.essay });
  return { answers: out };
}

async function start(who: { token: string }, id: string) {
  const res = await as(who).post(`/quizzes/${id}/my-attempts`);
  expect([200, 201]).toContain(res.status);
  return res.body.attempt.attemptId as string;
}

/** Starts and submits an attempt; returns the submit result. */
async function take(who: { token: string }, id: string, body: { answers: unknown[] }) {
  const attemptId = await start(who, id);
  const res = await as(who).post(`/quizzes/${id}/my-attempts/${attemptId}/submit`, body);
  expect(res.status).toBe(200);
  return res.body;
}

const tenantSql = (sqlText: string, ...args: any[]) =>
  api.server.rt.tenants.use(owner.tenantId, (h) => h.sqlite.query(sqlText).run(...args));

describe("PUT /api/v1/quizzes/{contentId}/config — setQuizConfig", () => {
  test("a question's type (ESSAY) and body are optional (empty)", async () => {
    const id = await newQuiz();
    const res = await as(owner).put(`/quizzes/${id}/config`, {
      questions: [{}, { type: "SINGLE", options: [{ body: "A", isCorrect: true }, { body: "B" }] }],
    });
    expect(res.status).toBe(200);
    expect(res.body.questions.map((q: any) => [q.type, q.body, q.point])).toEqual([
      ["ESSAY", "", 1],
      ["SINGLE", "", 1],
    ]);
  });

  test("stores the questions with defaults and fresh ids; the read returns the same", async () => {
    const id = await newQuiz();
    const before = await as(owner).get(`/quizzes/${id}/config`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      passScore: null,
      maxAttempts: null,
      timeLimitMin: null,
      shuffleQuestions: false,
      shuffleOptions: false,
      resultExposeLevel: "ALL",
      scoreAggregation: "HIGHEST",
      partialCreditMultiple: false,
      opensAt: null,
      closesAt: null,
      questions: [],
    });
    const res = await as(owner).put(`/quizzes/${id}/config`, { passScore: 7, maxAttempts: 3, timeLimitMin: 10, questions: QUESTIONS });
    expect(res.status).toBe(200);
    expect([res.body.passScore, res.body.maxAttempts, res.body.timeLimitMin, res.body.resultExposeLevel]).toEqual([7, 3, 10, "ALL"]);
    const [q0, q1, q2, q3] = res.body.questions;
    expect(q0).toEqual({
      id: expect.any(String),
      type: "SINGLE",
      body: "Pick A",
      point: 2,
      explanation: "A is first",
      attachments: [],
      options: [
        { id: expect.any(String), body: "A", isCorrect: true, attachments: [] },
        { id: expect.any(String), body: "B", isCorrect: false, attachments: [] },
        { id: expect.any(String), body: "C", isCorrect: false, attachments: [] },
      ],
      answerCandidates: [],
    });
    expect(q1.options.filter((o: any) => o.isCorrect).length).toBe(2);
    expect(q2.answerCandidates).toEqual([
      { text: "New  York", ignoreWildcard: false },
      { text: "san*", ignoreWildcard: false },
      { text: "a*b", ignoreWildcard: true },
    ]);
    expect(q2.options).toEqual([]);
    expect([q3.options, q3.answerCandidates, q3.explanation]).toEqual([[], [], "Free text"]);
    expect((await as(owner).get(`/quizzes/${id}/config`)).body).toEqual(res.body);
    // a space ADMIN who is not the author manages it too
    expect((await as(admin2).get(`/quizzes/${id}/config`)).body).toEqual(res.body);
  });

  test("a question or option sent with its id is kept, one without is new, one left out is removed", async () => {
    const { id, config } = await configured();
    const [q0, , , q3] = config.questions;
    const res = await as(owner).put(`/quizzes/${id}/config`, {
      scoreAggregation: "LAST",
      questions: [
        { ...q3, body: "Explain again" },
        { id: q0.id, type: "SINGLE", body: "Pick A", options: [{ id: q0.options[0].id, body: "A", isCorrect: true }, { body: "New" }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.scoreAggregation).toBe("LAST");
    expect(res.body.passScore).toBeNull();
    expect(res.body.questions.map((q: any) => q.id)).toEqual([q3.id, q0.id]);
    expect(res.body.questions[0].body).toBe("Explain again");
    expect(res.body.questions[1].point).toBe(1); // absent point: the default
    expect(res.body.questions[1].options[0].id).toBe(q0.options[0].id);
    expect(res.body.questions[1].options[1].id).not.toBe(q0.options[1].id);
  });

  test("accepts null lists of another type and stores them as []", async () => {
    const id = await newQuiz();
    const res = await as(owner).put(`/quizzes/${id}/config`, {
      questions: [{ type: "ESSAY", body: "E", point: 1, options: null, answerCandidates: null, attachmentFileIds: null }],
    });
    expect(res.status).toBe(200);
    expect(res.body.questions[0].options).toEqual([]);
  });

  test("attaches the caller's ready uploads with signed URLs and rejects other files", async () => {
    const id = await newQuiz();
    const fileId = await upload(owner);
    const res = await as(owner).put(`/quizzes/${id}/config`, {
      questions: [{ ...QUESTIONS[0], attachmentFileIds: [fileId] }],
    });
    expect(res.status).toBe(200);
    expect(res.body.questions[0].attachments).toEqual([{ fileId, url: expect.stringContaining(`/files/${fileId}/content?token=`) }]);
    const foreign = await upload(p1);
    expect(fieldOf(await as(owner).put(`/quizzes/${id}/config`, { questions: [{ ...QUESTIONS[3], attachmentFileIds: [foreign] }] }))).toBe(
      "questions[0].attachmentFileIds[0]",
    );
  });

  test("returns 400 naming the field for each bound and type rule", async () => {
    const id = await newQuiz();
    const put = (body: unknown) => as(owner).put(`/quizzes/${id}/config`, body);
    const one = (q: Record<string, unknown>) => put({ questions: [q] });
    expect(fieldOf(await put({}))).toBe("questions");
    expect(fieldOf(await put({ questions: Array.from({ length: 61 }, () => QUESTIONS[3]) }))).toBe("questions");
    expect(fieldOf(await put({ passScore: -1, questions: [] }))).toBe("passScore");
    const zero = expectProblem(await put({ maxAttempts: 0, questions: [] }), 400, "VALIDATION_FAILED");
    expect(zero.errors).toEqual([{ in: "body", field: "maxAttempts", message: "must be an integer >= 1 or null" }]);
    expect(fieldOf(await put({ timeLimitMin: 0, questions: [] }))).toBe("timeLimitMin");
    expect(fieldOf(await put({ timeLimitMin: 9007199254740992, questions: [] }))).toBe("timeLimitMin");
    expect(fieldOf(await put({ resultExposeLevel: "SOME", questions: [] }))).toBe("resultExposeLevel");
    expect(fieldOf(await put({ scoreAggregation: "MEDIAN", questions: [] }))).toBe("scoreAggregation");
    expect(fieldOf(await one({ type: "TRUE_FALSE", body: "x" }))).toBe("questions[0].type");
    expect(fieldOf(await one({ type: "ESSAY", body: "" }))).toBe("questions[0].body");
    expect(fieldOf(await one({ type: "ESSAY", body: "x", point: -1 }))).toBe("questions[0].point");
    expect(fieldOf(await one({ type: "SINGLE", body: "x", options: [{ body: "A", isCorrect: true }] }))).toBe("questions[0].options");
    expect(
      fieldOf(
        await one({
          type: "SINGLE",
          body: "x",
          options: [
            { body: "A", isCorrect: true },
            { body: "B", isCorrect: true },
          ],
        }),
      ),
    ).toBe("questions[0].options");
    expect(fieldOf(await one({ type: "MULTIPLE", body: "x", options: [{ body: "A" }, { body: "B" }] }))).toBe("questions[0].options");
    expect(
      fieldOf(
        await one({ type: "MULTIPLE", body: "x", options: Array.from({ length: 21 }, (_, i) => ({ body: `${i}`, isCorrect: true })) }),
      ),
    ).toBe("questions[0].options");
    expect(fieldOf(await one({ type: "SHORT_ANSWER", body: "x" }))).toBe("questions[0].answerCandidates");
    expect(fieldOf(await one({ type: "SHORT_ANSWER", body: "x", answerCandidates: [{ text: "a".repeat(256) }] }))).toBe(
      "questions[0].answerCandidates[0].text",
    );
    expect(fieldOf(await one({ type: "SHORT_ANSWER", body: "x", answerCandidates: [{ text: "ok" }, { text: "  " }] }))).toBe(
      "questions[0].answerCandidates[1].text",
    );
    expect(fieldOf(await one({ type: "ESSAY", body: "x", options: [{ body: "A" }, { body: "B" }] }))).toBe("questions[0].options");
    expect(fieldOf(await one({ ...QUESTIONS[0], answerCandidates: [{ text: "a" }] }))).toBe("questions[0].answerCandidates");
    expect(fieldOf(await one({ ...QUESTIONS[3], id: "no-such-question" }))).toBe("questions[0].id");
    expect(fieldOf(await one({ ...QUESTIONS[0], options: [{ id: "nope", body: "A", isCorrect: true }, { body: "B" }] }))).toBe(
      "questions[0].options[0].id",
    );
    // nothing was stored by the refused requests
    expect((await as(owner).get(`/quizzes/${id}/config`)).body.questions).toEqual([]);
  });

  test("returns 401 without a token, 403 to a viewer, 404 across tenants, to outsiders and for other content types", async () => {
    const id = await newQuiz();
    const body = { questions: [] };
    unauth(await anon("PUT", `/quizzes/${id}/config`, body));
    forbidden(await as(p1).put(`/quizzes/${id}/config`, body));
    notFound(await as(other).put(`/quizzes/${id}/config`, body));
    notFound(await as(outsider).put(`/quizzes/${id}/config`, body));
    const survey = await newQuiz("SURVEY");
    notFound(await as(owner).put(`/quizzes/${survey}/config`, body));
  });
});

describe("GET /api/v1/quizzes/{contentId}/config — getQuizConfig", () => {
  test("returns 401, 403 to a participant, 404 to another tenant and for an unknown id", async () => {
    const { id } = await configured();
    unauth(await anon("GET", `/quizzes/${id}/config`));
    forbidden(await as(p1).get(`/quizzes/${id}/config`));
    notFound(await as(other).get(`/quizzes/${id}/config`));
    notFound(await as(owner).get("/quizzes/no-such-quiz/config"));
  });
});

describe("GET /api/v1/quizzes/{contentId}/participant-view — getQuizForParticipant", () => {
  test("shows settings and totals without questions before an attempt, and never the answers", async () => {
    const { id } = await configured({ passScore: 8, maxAttempts: 2, timeLimitMin: 15, resultExposeLevel: "SCORE_ONLY" });
    const res = await as(p1).get(`/quizzes/${id}/participant-view`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      passScore: 8,
      maxAttempts: 2,
      timeLimitMin: 15,
      resultExposeLevel: "SCORE_ONLY",
      opensAt: null,
      closesAt: null,
      questionCount: 4,
      totalPoints: 14,
      attemptsUsed: 0,
      attempt: null,
    });
    const started = await as(p1).post(`/quizzes/${id}/my-attempts`);
    const text = JSON.stringify(started.body);
    for (const secret of ["isCorrect", "answerCandidates", "explanation", "New  York", "A is first"]) expect(text).not.toContain(secret);
    const view = await as(p1).get(`/quizzes/${id}/participant-view`);
    expect(view.body.attemptsUsed).toBe(1);
    expect(view.body.attempt).toEqual(started.body.attempt);
  });

  test("shuffles questions and options by the attempt, stable within it", async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      type: "SINGLE",
      body: `Q${i}`,
      options: Array.from({ length: 8 }, (_, j) => ({ body: `O${j}`, isCorrect: j === 0 })),
    }));
    const { id, config } = await configured({ shuffleQuestions: true, shuffleOptions: true }, many);
    const first = (await as(p1).post(`/quizzes/${id}/my-attempts`)).body.attempt;
    const again = (await as(p1).get(`/quizzes/${id}/participant-view`)).body.attempt;
    expect(again.questions).toEqual(first.questions);
    // turning shuffling off does not reorder an attempt in progress
    expect((await as(owner).put(`/quizzes/${id}/config`, { ...config, shuffleQuestions: false, shuffleOptions: false })).status).toBe(200);
    expect((await as(p1).get(`/quizzes/${id}/participant-view`)).body.attempt.questions).toEqual(first.questions);
    const order = first.questions.map((q: any) => q.id);
    expect([...order].sort()).toEqual(config.questions.map((q: any) => q.id).sort());
    expect(order).not.toEqual(config.questions.map((q: any) => q.id));
    const q = first.questions[0];
    const stored = config.questions.find((x: any) => x.id === q.id);
    expect(q.options.map((o: any) => o.id).sort()).toEqual(stored.options.map((o: any) => o.id).sort());
    const unshuffled = await configured({}, many);
    const plain = (await as(p1).post(`/quizzes/${unshuffled.id}/my-attempts`)).body.attempt;
    expect(plain.questions.map((x: any) => x.id)).toEqual(unshuffled.config.questions.map((x: any) => x.id));
  });

  test("returns 401, and 404 to another tenant and to a member who cannot see the quiz", async () => {
    const { id } = await configured();
    unauth(await anon("GET", `/quizzes/${id}/participant-view`));
    notFound(await as(other).get(`/quizzes/${id}/participant-view`));
    notFound(await as(outsider).get(`/quizzes/${id}/participant-view`));
  });
});

describe("POST /api/v1/quizzes/{contentId}/my-attempts — startQuizAttempt", () => {
  test("large limits are valid: maxAttempts, passScore and timeLimitMin up to the safe-integer range; expiresAt is capped", async () => {
    const big = { maxAttempts: 5000, passScore: 9007199254740991, timeLimitMin: 9007199254740991 };
    const { id } = await configured(big);
    expect((await as(owner).get(`/quizzes/${id}/config`)).body).toMatchObject(big);
    const res = await as(p1).post(`/quizzes/${id}/my-attempts`);
    expect(res.status).toBe(201);
    expect(res.body.attempt.expiresAt).toBe("9999-12-31T23:59:59.999Z");
    expect((await as(owner).put(`/quizzes/${id}/config`, { timeLimitMin: 50000, questions: QUESTIONS })).body.timeLimitMin).toBe(50000);
    expect((await as(p1).get(`/quizzes/${id}/participant-view`)).status).toBe(200);
  });

  test("creates an attempt (201) with expiresAt from timeLimitMin; a second call returns it (200)", async () => {
    const { id, config } = await configured({ timeLimitMin: 10 });
    const res = await as(p2).post(`/quizzes/${id}/my-attempts`);
    expect(res.status).toBe(201);
    const a = res.body.attempt;
    expect(a.startedAt).toMatch(ISO);
    expect(Date.parse(a.expiresAt) - Date.parse(a.startedAt)).toBe(10 * 60_000);
    expect(a.questions.map((q: any) => q.id)).toEqual(config.questions.map((q: any) => q.id));
    expect(a.questions[0]).toEqual({
      id: config.questions[0].id,
      type: "SINGLE",
      body: "Pick A",
      point: 2,
      attachments: [],
      options: config.questions[0].options.map((o: any) => ({ id: o.id, body: o.body, attachments: [] })),
    });
    expect(a.answers).toEqual([]);
    expect(res.body.attemptsUsed).toBe(1);
    const again = await as(p2).post(`/quizzes/${id}/my-attempts`);
    expect(again.status).toBe(200);
    expect(again.body.attempt.attemptId).toBe(a.attemptId);
    expect(again.body.attemptsUsed).toBe(1);
  });

  test("refuses a quiz without questions (409 INVALID_STATE) and past maxAttempts (409 ATTEMPT_LIMIT)", async () => {
    const empty = await newQuiz();
    expectProblem(await as(p1).post(`/quizzes/${empty}/my-attempts`), 409, "INVALID_STATE");
    const { id } = await configured({ maxAttempts: 1 });
    await take(p1, id, { answers: [] });
    expectProblem(await as(p1).post(`/quizzes/${id}/my-attempts`), 409, "ATTEMPT_LIMIT");
    expect((await as(p1).get(`/quizzes/${id}/participant-view`)).body.attemptsUsed).toBe(1);
    // another participant still has their attempt
    expect((await as(p2).post(`/quizzes/${id}/my-attempts`)).status).toBe(201);
  });

  test("an expired attempt is submitted with its saved answers, and a new one can start", async () => {
    const { id, config } = await configured({ timeLimitMin: 5 });
    const attemptId = await start(p3, id);
    expect((await as(p3).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, answers(config, { single: 0 }))).status).toBe(200);
    const past = Date.now() - 10 * 60_000;
    tenantSql("UPDATE quiz_attempts SET started_at = ?, expires_at = ? WHERE id = ?", past - 5 * 60_000, past, attemptId);
    expectProblem(await as(p3).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, { answers: [] }), 409, "INVALID_STATE");
    expectProblem(await as(p3).post(`/quizzes/${id}/my-attempts/${attemptId}/submit`, { answers: [] }), 409, "INVALID_STATE");
    // A bad answer is a 400 before the attempt's state is a 409 (docs/rules/errors.md#check-order).
    const unknown = { answers: [{ questionId: "no-such-question", selectedOptionIds: [] }] };
    expect(fieldsOf(await as(p3).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, unknown))).toEqual(["answers[0].questionId"]);
    const mine = await as(p3).get(`/quizzes/${id}/my-attempts`);
    expect(mine.body.attempts[0].attemptId).toBe(attemptId);
    expect(mine.body.attempts[0].submittedAt).toBe(new Date(past).toISOString());
    expect(mine.body.attempts[0].score).toBe(2);
    const next = await as(p3).post(`/quizzes/${id}/my-attempts`);
    expect(next.status).toBe(201);
    expect(next.body.attempt.attemptId).not.toBe(attemptId);
    expect(next.body.attemptsUsed).toBe(2);
  });

  test("a submit is accepted up to 30 s after expiresAt, a save only until expiresAt", async () => {
    const { id, config } = await configured({ timeLimitMin: 1 });
    const attemptId = await start(p2, id);
    tenantSql("UPDATE quiz_attempts SET expires_at = ? WHERE id = ?", Date.now() - 10_000, attemptId);
    expectProblem(
      await as(p2).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, answers(config, { single: 1 })),
      409,
      "INVALID_STATE",
    );
    const view = (await as(p2).get(`/quizzes/${id}/participant-view`)).body;
    expect(view.attempt.attemptId).toBe(attemptId); // still open during the grace period
    const res = await api.call("POST", `/api/v1/quizzes/${id}/my-attempts/${attemptId}/submit`, { token: p2.token });
    expect(res.status).toBe(200);
    expect([res.body.score, res.body.hasPendingManual]).toEqual([0, false]);
  });

  test("returns 401, and 404 to another tenant and to an outsider", async () => {
    const { id } = await configured();
    unauth(await anon("POST", `/quizzes/${id}/my-attempts`, {}));
    notFound(await as(other).post(`/quizzes/${id}/my-attempts`));
    notFound(await as(outsider).post(`/quizzes/${id}/my-attempts`));
  });
});

describe("PUT /api/v1/quizzes/{contentId}/my-attempts/{attemptId}/answers — saveQuizAnswers", () => {
  test("upserts per question; the view shows the saved answers", async () => {
    const { id, config } = await configured();
    const attemptId = await start(p1, id);
    const path = `/quizzes/${id}/my-attempts/${attemptId}/answers`;
    const res = await as(p1).put(path, answers(config, { single: 1, short: "Paris" }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ attemptId, savedAt: expect.stringMatching(ISO), expiresAt: null });
    expect((await as(p1).put(path, answers(config, { single: 0, essay: "Because" }))).status).toBe(200);
    const view = (await as(p1).get(`/quizzes/${id}/participant-view`)).body.attempt;
    const [q0, , q2, q3] = config.questions;
    expect(view.answers).toEqual([
      { questionId: q0.id, selectedOptionIds: [q0.options[0].id], textAnswer: null },
      { questionId: q2.id, selectedOptionIds: [], textAnswer: "Paris" },
      { questionId: q3.id, selectedOptionIds: [], textAnswer: "Because" },
    ]);
  });

  test("returns 400 naming the field for unknown questions and options and for answers of another type", async () => {
    const { id, config } = await configured();
    const attemptId = await start(p2, id);
    const put = (list: unknown[]) => as(p2).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, { answers: list });
    const [q0, q1, q2, q3] = config.questions;
    expect(fieldOf(await as(p2).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, {}))).toBe("answers");
    expect(fieldOf(await put([{ questionId: "nope" }]))).toBe("answers[0].questionId");
    expect(fieldOf(await put([{ questionId: q0.id }, { questionId: q0.id }]))).toBe("answers[1].questionId");
    expect(fieldOf(await put([{ questionId: q0.id, selectedOptionIds: [q1.options[0].id] }]))).toBe("answers[0].selectedOptionIds[0]");
    expect(fieldOf(await put([{ questionId: q0.id, selectedOptionIds: [q0.options[0].id, q0.options[1].id] }]))).toBe(
      "answers[0].selectedOptionIds",
    );
    expect(fieldOf(await put([{ questionId: q1.id, selectedOptionIds: [q1.options[0].id, q1.options[0].id] }]))).toBe(
      "answers[0].selectedOptionIds[1]",
    );
    expect(fieldOf(await put([{ questionId: q0.id, textAnswer: "A" }]))).toBe("answers[0].textAnswer");
    expect(fieldOf(await put([{ questionId: q3.id, selectedOptionIds: [q0.options[0].id] }]))).toBe("answers[0].selectedOptionIds");
    expect(fieldOf(await put([{ questionId: q2.id, textAnswer: "x".repeat(10001) }]))).toBe("answers[0].textAnswer");
    expect(fieldOf(await put(Array.from({ length: 61 }, () => ({ questionId: q3.id }))))).toBe("answers");
    // empty fields of another type are accepted
    expect(
      (
        await put([
          { questionId: q0.id, textAnswer: "", selectedOptionIds: [] },
          { questionId: q3.id, selectedOptionIds: null },
        ])
      ).status,
    ).toBe(200);
  });

  test("returns 404 for another member's attempt or another quiz, 409 once submitted, 401 without a token", async () => {
    const { id, config } = await configured();
    const attemptId = await start(p1, id);
    const path = `/quizzes/${id}/my-attempts/${attemptId}/answers`;
    unauth(await anon("PUT", path, { answers: [] }));
    notFound(await as(p2).put(path, { answers: [] }));
    notFound(await as(other).put(path, { answers: [] }));
    const second = await configured();
    notFound(await as(p1).put(`/quizzes/${second.id}/my-attempts/${attemptId}/answers`, { answers: [] }));
    expect((await as(p1).post(`/quizzes/${id}/my-attempts/${attemptId}/submit`, answers(config, {}))).status).toBe(200);
    expectProblem(await as(p1).put(path, { answers: [] }), 409, "INVALID_STATE");
  });
});

describe("POST /api/v1/quizzes/{contentId}/my-attempts/{attemptId}/submit — submitQuizAttempt", () => {
  test("scores each type; an ESSAY answer leaves the attempt pending", async () => {
    const { id, config } = await configured({ passScore: 5 });
    const attemptId = await start(p1, id);
    await as(p1).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, answers(config, { single: 0, essay: "Because" }));
    const res = await as(p1).post(
      `/quizzes/${id}/my-attempts/${attemptId}/submit`,
      answers(config, { multi: [0, 2], short: "  SAN   francisco " }),
    );
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r.attemptId).toBe(attemptId);
    expect(r.submittedAt).toMatch(ISO);
    expect([r.score, r.passed, r.hasPendingManual, r.scoringCompletedAt]).toEqual([5, null, true, null]);
    const [q0, q1, q2, q3] = config.questions;
    expect(r.answers).toEqual([
      {
        questionId: q0.id,
        selectedOptionIds: [q0.options[0].id],
        textAnswer: null,
        isCorrect: true,
        pointsAwarded: 2,
        correctOptionIds: [q0.options[0].id],
        explanation: "A is first",
        feedback: null,
      },
      {
        questionId: q1.id,
        selectedOptionIds: [q1.options[0].id, q1.options[2].id],
        textAnswer: null,
        isCorrect: false,
        pointsAwarded: 0,
        correctOptionIds: [q1.options[0].id, q1.options[1].id],
        explanation: null,
        feedback: null,
      },
      {
        questionId: q2.id,
        selectedOptionIds: [],
        textAnswer: "  SAN   francisco ",
        isCorrect: true,
        pointsAwarded: 3,
        correctOptionIds: [],
        explanation: null,
        feedback: null,
      },
      {
        questionId: q3.id,
        selectedOptionIds: [],
        textAnswer: "Because",
        isCorrect: null,
        pointsAwarded: null,
        correctOptionIds: [],
        explanation: "Free text",
        feedback: null,
      },
    ]);
    expectProblem(await as(p1).post(`/quizzes/${id}/my-attempts/${attemptId}/submit`, {}), 409, "INVALID_STATE");
  });

  test("partial credit for MULTIPLE; unanswered questions get 0 and isCorrect=false; a complete score is passed/failed", async () => {
    const { id, config } = await configured({ partialCreditMultiple: true, passScore: 4 });
    const r = await take(p2, id, answers(config, { multi: [0, 1, 2] }));
    // right 2, wrong 1 of 2 correct: floor(4 × 1 ÷ 2) = 2
    expect(r.answers.map((a: any) => [a.isCorrect, a.pointsAwarded])).toEqual([
      [false, 0],
      [false, 2],
      [false, 0],
      [false, 0],
    ]);
    expect([r.score, r.hasPendingManual, r.passed]).toEqual([2, false, false]);
    expect(r.scoringCompletedAt).toBe(r.submittedAt);
    const best = await take(p3, id, answers(config, { single: 0, multi: [0, 1], short: "new york" }));
    expect([best.score, best.passed]).toEqual([9, true]);
  });

  test("SHORT_ANSWER: whole-answer match after normalisation and case folding; * is a wildcard unless ignoreWildcard", async () => {
    const qs = [
      { type: "SHORT_ANSWER", body: "1", answerCandidates: [{ text: "a*b", ignoreWildcard: true }] },
      { type: "SHORT_ANSWER", body: "2", answerCandidates: [{ text: "a*b" }] },
      { type: "SHORT_ANSWER", body: "3", answerCandidates: [{ text: "Caf\u00e9" }] },
      { type: "SHORT_ANSWER", body: "4", answerCandidates: [{ text: "x.y" }] },
      { type: "SHORT_ANSWER", body: "5", answerCandidates: [{ text: "Stra\u00dfe" }] },
    ];
    const { id, config } = await configured({}, qs);
    const cases: [string, string, boolean][] = [
      ["1", "aXb", false],
      ["1", "A*B", true],
      ["2", "ab", true],
      ["2", "a long b", true],
      ["2", "a long bc", false],
      ["3", "CAFE\u0301", true],
      ["4", "xzy", false],
      ["5", "STRASSE", true],
      ["5", "strasse", true],
      ["5", "STRA\u1E9Ee", true],
      ["5", "strase", false],
    ];
    for (const [body, text, ok] of cases) {
      const q = config.questions.find((x: any) => x.body === body);
      const r = await take(owner, id, { answers: [{ questionId: q.id, textAnswer: text }] });
      const a = r.answers.find((x: any) => x.questionId === q.id);
      expect([body, text, a.isCorrect]).toEqual([body, text, ok]);
    }
  });

  test("SHORT_ANSWER: only * is special; keys with regex characters score instead of failing", async () => {
    const keys = ["e-mail*", "a*-*b", "x.y*", "f(x)*", "[a]*", "c:\\dir*", "a*a"];
    const qs = keys.map((text, k) => ({ type: "SHORT_ANSWER", body: String(k), answerCandidates: [{ text }] }));
    const { id, config } = await configured({}, qs);
    const cases: [string, string, boolean][] = [
      ["e-mail*", "E-Mail address", true],
      ["e-mail*", "email", false],
      ["a*-*b", "a - b", true],
      ["a*-*b", "ab", false],
      ["x.y*", "x.yz", true],
      ["x.y*", "xzyz", false],
      ["f(x)*", "f(x) = 1", true],
      ["f(x)*", "fx", false],
      ["[a]*", "[a]", true],
      ["[a]*", "a", false],
      ["c:\\dir*", "C:\\DIR\\sub", true],
      ["c:\\dir*", "c:dir", false],
      ["a*a", "a", false],
      ["a*a", "aa", true],
    ];
    for (const [key, text, ok] of cases) {
      const q = config.questions[keys.indexOf(key)];
      const r = await take(owner, id, { answers: [{ questionId: q.id, textAnswer: text }] });
      expect([key, text, r.answers.find((x: any) => x.questionId === q.id).isCorrect]).toEqual([key, text, ok]);
    }
  });

  test("an expired attempt on a key with regex characters is closed, and reads of the quiz succeed", async () => {
    const { id, config } = await configured({ timeLimitMin: 5 }, [
      { type: "SHORT_ANSWER", body: "k", answerCandidates: [{ text: "x-*" }] },
    ]);
    const attemptId = await start(p2, id);
    const q = config.questions[0];
    const saved = await as(p2).put(`/quizzes/${id}/my-attempts/${attemptId}/answers`, {
      answers: [{ questionId: q.id, textAnswer: "x-ray" }],
    });
    expect(saved.status).toBe(200);
    const past = Date.now() - 10 * 60_000;
    tenantSql("UPDATE quiz_attempts SET started_at = ?, expires_at = ? WHERE id = ?", past - 5 * 60_000, past, attemptId);
    expect((await as(owner).get(`/quizzes/${id}/statistics`)).status).toBe(200);
    const mine = await as(p2).get(`/quizzes/${id}/my-attempts`);
    expect(mine.status).toBe(200);
    expect([mine.body.attempts[0].attemptId, mine.body.attempts[0].score]).toEqual([attemptId, q.point]);
  });

  test("an attempt keeps its questions when the config changes", async () => {
    const { id, config } = await configured();
    const attemptId = await start(p1, id);
    const res = await as(owner).put(`/quizzes/${id}/config`, { questions: [QUESTIONS[3]] });
    expect(res.status).toBe(200);
    const view = (await as(p1).get(`/quizzes/${id}/participant-view`)).body;
    expect(view.questionCount).toBe(1);
    expect(view.attempt.questions.map((q: any) => q.id)).toEqual(config.questions.map((q: any) => q.id));
    const r = await as(p1).post(`/quizzes/${id}/my-attempts/${attemptId}/submit`, answers(config, { single: 0 }));
    expect(r.status).toBe(200);
    expect(r.body.score).toBe(2);
  });

  test("returns 400 for a bad answer, 404 for another member's attempt, 401 without a token", async () => {
    const { id } = await configured();
    const attemptId = await start(p1, id);
    const path = `/quizzes/${id}/my-attempts/${attemptId}/submit`;
    expect(fieldOf(await as(p1).post(path, { answers: [{ questionId: "nope" }] }))).toBe("answers[0].questionId");
    notFound(await as(p2).post(path, {}));
    notFound(await as(other).post(path, {}));
    unauth(await anon("POST", path, {}));
    // the refused calls left the attempt open
    expect((await as(p1).get(`/quizzes/${id}/participant-view`)).body.attempt.attemptId).toBe(attemptId);
  });
});

describe("GET /api/v1/quizzes/{contentId}/my-attempts — listMyQuizAttempts", () => {
  test("ALL: newest first with answers; finalScore per scoreAggregation", async () => {
    const { id, config } = await configured({ passScore: 5 });
    await take(p1, id, answers(config, { single: 0, short: "new york" })); // 5
    await take(p1, id, answers(config, { single: 0 })); // 2
    const open = await start(p1, id);
    const res = await as(p1).get(`/quizzes/${id}/my-attempts`);
    expect(res.status).toBe(200);
    expect(res.body.resultExposeLevel).toBe("ALL");
    expect(res.body.attempts.map((a: any) => a.score)).toEqual([null, 2, 5]);
    expect(res.body.attempts[0]).toMatchObject({ attemptId: open, submittedAt: null, answers: null, passed: null });
    expect(res.body.attempts[1].answers).toHaveLength(4);
    expect(res.body.attempts[1].passed).toBe(false);
    expect([res.body.finalScore, res.body.passed]).toEqual([5, true]);
    const put = (extra: Record<string, unknown>) => as(owner).put(`/quizzes/${id}/config`, { ...config, ...extra });
    await put({ scoreAggregation: "LAST", passScore: 5 });
    expect((await as(p1).get(`/quizzes/${id}/my-attempts`)).body).toMatchObject({ finalScore: 2, passed: false });
    await put({ scoreAggregation: "AVERAGE", passScore: null });
    expect((await as(p1).get(`/quizzes/${id}/my-attempts`)).body).toMatchObject({ finalScore: 3.5, passed: null });
    // another participant sees only their own attempts
    expect((await as(p2).get(`/quizzes/${id}/my-attempts`)).body).toEqual({
      resultExposeLevel: "ALL",
      finalScore: null,
      passed: null,
      attempts: [],
    });
  });

  test("SCORE_ONLY hides the answers; STATUS_ONLY hides scores too", async () => {
    const { id, config } = await configured({ resultExposeLevel: "SCORE_ONLY", passScore: 1 });
    const submitted = await take(p2, id, answers(config, { single: 0 }));
    expect([submitted.score, submitted.passed, submitted.answers]).toEqual([2, true, null]);
    const scoreOnly = (await as(p2).get(`/quizzes/${id}/my-attempts`)).body;
    expect([scoreOnly.finalScore, scoreOnly.passed, scoreOnly.attempts[0].answers]).toEqual([2, true, null]);
    await as(owner).put(`/quizzes/${id}/config`, { ...config, resultExposeLevel: "STATUS_ONLY", passScore: 1 });
    const status = (await as(p2).get(`/quizzes/${id}/my-attempts`)).body;
    expect(status.resultExposeLevel).toBe("STATUS_ONLY");
    expect([status.finalScore, status.passed]).toEqual([null, null]);
    expect(status.attempts[0]).toMatchObject({ score: null, passed: null, answers: null, hasPendingManual: false });
    expect(status.attempts[0].submittedAt).toMatch(ISO);
  });

  test("returns 401, and 404 to another tenant and to an outsider", async () => {
    const { id } = await configured();
    unauth(await anon("GET", `/quizzes/${id}/my-attempts`));
    notFound(await as(other).get(`/quizzes/${id}/my-attempts`));
    notFound(await as(outsider).get(`/quizzes/${id}/my-attempts`));
  });
});

describe("manager results: listQuizAttempts, getQuizAttempt, scoreQuizAnswer, getQuizStatistics", () => {
  let id: string;
  let config: any;
  let a1: any; // p1's attempt, pending ESSAY
  let a2: any; // p2's attempt, complete
  let a3: string; // p3's attempt id, in progress

  beforeAll(async () => {
    ({ id, config } = await configured({ passScore: 8 }));
    a1 = await take(p1, id, answers(config, { single: 0, multi: [0, 1], short: "Boston", essay: "Long answer" }));
    a2 = await take(p2, id, answers(config, { single: 1, multi: [0] }));
    a3 = await start(p3, id); // in progress: not listed, not counted
  });

  test("GET /attempts — listQuizAttempts: submitted attempts, newest first, keyset pages", async () => {
    const res = await as(owner).get(`/quizzes/${id}/attempts`);
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.attempts).toEqual([
      {
        attemptId: a2.attemptId,
        profileId: p2.profileId,
        displayName: "Bob",
        score: 0,
        passed: false,
        submittedAt: a2.submittedAt,
        scoringCompletedAt: a2.submittedAt,
        hasPendingManual: false,
        voidedAt: null,
      },
      {
        attemptId: a1.attemptId,
        profileId: p1.profileId,
        displayName: "Alice",
        score: 6,
        passed: null,
        submittedAt: a1.submittedAt,
        scoringCompletedAt: null,
        hasPendingManual: true,
        voidedAt: null,
      },
    ]);
    const page1 = await as(admin2).get(`/quizzes/${id}/attempts?limit=1`);
    expect(page1.body.attempts.map((a: any) => a.attemptId)).toEqual([a2.attemptId]);
    const page2 = await as(admin2).get(`/quizzes/${id}/attempts?limit=1&cursor=${encodeURIComponent(page1.body.nextCursor)}`);
    expect(page2.body.attempts.map((a: any) => a.attemptId)).toEqual([a1.attemptId]);
    expect(page2.body.nextCursor).toBeNull();
  });

  test("GET /attempts — returns 400 for bad limit and cursors, 401, 403, 404", async () => {
    expect(fieldOf(await as(owner).get(`/quizzes/${id}/attempts?limit=0`))).toBe("limit");
    expect(fieldOf(await as(owner).get(`/quizzes/${id}/attempts?limit=101`))).toBe("limit");
    expect(fieldOf(await as(owner).get(`/quizzes/${id}/attempts?cursor=garbage`))).toBe("cursor");
    const page1 = await as(owner).get(`/quizzes/${id}/attempts?limit=1`);
    const otherQuiz = await configured();
    expect(fieldOf(await as(owner).get(`/quizzes/${otherQuiz.id}/attempts?cursor=${encodeURIComponent(page1.body.nextCursor)}`))).toBe(
      "cursor",
    );
    unauth(await anon("GET", `/quizzes/${id}/attempts`));
    forbidden(await as(p1).get(`/quizzes/${id}/attempts`));
    notFound(await as(other).get(`/quizzes/${id}/attempts`));
  });

  test("GET /attempts/{attemptId} — getQuizAttempt: every answer with the key and scoring mode", async () => {
    const res = await as(owner).get(`/quizzes/${id}/attempts/${a1.attemptId}`);
    expect(res.status).toBe(200);
    const d = res.body;
    expect(d).toMatchObject({ attemptId: a1.attemptId, profileId: p1.profileId, displayName: "Alice", score: 6, hasPendingManual: true });
    expect(d.startedAt).toMatch(ISO);
    expect(d.expiresAt).toBeNull();
    const [q0, q1, q2, q3] = config.questions;
    expect(d.answers.map((a: any) => [a.questionId, a.type, a.point, a.isCorrect, a.pointsAwarded, a.isManualScoring])).toEqual([
      [q0.id, "SINGLE", 2, true, 2, false],
      [q1.id, "MULTIPLE", 4, true, 4, false],
      [q2.id, "SHORT_ANSWER", 3, false, 0, false],
      [q3.id, "ESSAY", 5, null, null, true],
    ]);
    expect(d.answers[0].correctOptionIds).toEqual([q0.options[0].id]);
    expect(d.answers[2].answerCandidates).toEqual(q2.answerCandidates);
    expect(d.answers[3]).toMatchObject({
      questionBody: "Explain",
      textAnswer: "Long answer",
      feedback: null,
      answerId: expect.any(String),
    });
  });

  test("GET /attempts/{attemptId} — returns 401, 403, 404 for unknown ids, other quizzes and other tenants", async () => {
    const path = `/quizzes/${id}/attempts/${a1.attemptId}`;
    unauth(await anon("GET", path));
    forbidden(await as(p1).get(path));
    notFound(await as(other).get(path));
    notFound(await as(owner).get(`/quizzes/${id}/attempts/no-such-attempt`));
    const otherQuiz = await configured();
    notFound(await as(owner).get(`/quizzes/${otherQuiz.id}/attempts/${a1.attemptId}`));
  });

  test("GET /statistics — getQuizStatistics before hand scoring", async () => {
    const res = await as(owner).get(`/quizzes/${id}/statistics`);
    expect(res.status).toBe(200);
    const s = res.body;
    // p1 pending (not graded), p2 graded with 0; p3 only in progress
    expect([s.submittedCount, s.gradedCount, s.pendingManualCount, s.averageScore, s.passRate, s.notSubmittedCount]).toEqual([
      2, 1, 1, 0, 0, 1,
    ]);
    const [q0, q1, q2, q3] = config.questions;
    expect(s.questions).toEqual([
      {
        questionId: q0.id,
        body: "Pick A",
        type: "SINGLE",
        answeredCount: 2,
        correctRate: 50,
        options: [
          { optionId: q0.options[0].id, body: "A", selectedCount: 1 },
          { optionId: q0.options[1].id, body: "B", selectedCount: 1 },
          { optionId: q0.options[2].id, body: "C", selectedCount: 0 },
        ],
      },
      {
        questionId: q1.id,
        body: "Pick W and X",
        type: "MULTIPLE",
        answeredCount: 2,
        correctRate: 50,
        options: [
          { optionId: q1.options[0].id, body: "W", selectedCount: 2 },
          { optionId: q1.options[1].id, body: "X", selectedCount: 1 },
          { optionId: q1.options[2].id, body: "Y", selectedCount: 0 },
          { optionId: q1.options[3].id, body: "Z", selectedCount: 0 },
        ],
      },
      { questionId: q2.id, body: "A city", type: "SHORT_ANSWER", answeredCount: 1, correctRate: 0, options: [] },
      { questionId: q3.id, body: "Explain", type: "ESSAY", answeredCount: 1, correctRate: 0, options: [] },
    ]);
  });

  test("PUT /answers/{answerId}/score — scoreQuizAnswer completes the attempt; statistics and the participant see it", async () => {
    const detail = (await as(owner).get(`/quizzes/${id}/attempts/${a1.attemptId}`)).body;
    const essay = detail.answers[3];
    const path = `/quizzes/${id}/attempts/${a1.attemptId}/answers/${essay.answerId}/score`;
    const res = await as(admin2).put(path, { pointsAwarded: 5, feedback: "Well argued" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ score: 11, hasPendingManual: false, passed: true });
    expect(res.body.scoringCompletedAt).toMatch(ISO);
    expect(res.body.answers[3]).toMatchObject({
      pointsAwarded: 5,
      isCorrect: true,
      feedback: { text: "Well argued", authorProfileId: admin2.profileId, createdAt: expect.stringMatching(ISO) },
    });
    // a later PUT replaces points and feedback; isCorrect = (pointsAwarded = point)
    const again = await as(owner).put(path, { pointsAwarded: 3 });
    expect(again.body).toMatchObject({ score: 9, passed: true, scoringCompletedAt: res.body.scoringCompletedAt });
    expect(again.body.answers[3]).toMatchObject({ pointsAwarded: 3, isCorrect: false, feedback: null });
    const mine = (await as(p1).get(`/quizzes/${id}/my-attempts`)).body;
    expect(mine.attempts[0]).toMatchObject({ score: 9, passed: true, hasPendingManual: false });
    expect(mine.attempts[0].answers[3]).toMatchObject({ pointsAwarded: 3, isCorrect: false });
    expect(mine.finalScore).toBe(9);
    const s = (await as(owner).get(`/quizzes/${id}/statistics`)).body;
    expect([s.submittedCount, s.gradedCount, s.pendingManualCount, s.averageScore, s.passRate]).toEqual([2, 2, 0, 4.5, 50]);
  });

  test("PUT /answers/{answerId}/score — 400 above the point or negative, 409 for an auto-scored answer, 401, 403, 404", async () => {
    const detail = (await as(owner).get(`/quizzes/${id}/attempts/${a1.attemptId}`)).body;
    const essayPath = `/quizzes/${id}/attempts/${a1.attemptId}/answers/${detail.answers[3].answerId}/score`;
    expect(fieldOf(await as(owner).put(essayPath, { pointsAwarded: 6 }))).toBe("pointsAwarded");
    expect(fieldOf(await as(owner).put(essayPath, { pointsAwarded: -1 }))).toBe("pointsAwarded");
    expect(fieldOf(await as(owner).put(essayPath, { pointsAwarded: 1.5 }))).toBe("pointsAwarded");
    expect(fieldOf(await as(owner).put(essayPath, {}))).toBe("pointsAwarded");
    expect(fieldOf(await as(owner).put(essayPath, { pointsAwarded: 1, feedback: "x".repeat(5001) }))).toBe("feedback");
    expectProblem(
      await as(owner).put(`/quizzes/${id}/attempts/${a1.attemptId}/answers/${detail.answers[0].answerId}/score`, { pointsAwarded: 1 }),
      409,
      "INVALID_STATE",
    );
    unauth(await anon("PUT", essayPath, { pointsAwarded: 1 }));
    forbidden(await as(p1).put(essayPath, { pointsAwarded: 1 }));
    notFound(await as(other).put(essayPath, { pointsAwarded: 1 }));
    // an answer of another attempt
    notFound(
      await as(owner).put(`/quizzes/${id}/attempts/${a2.attemptId}/answers/${detail.answers[3].answerId}/score`, { pointsAwarded: 1 }),
    );
    // nothing changed
    expect((await as(owner).get(`/quizzes/${id}/attempts/${a1.attemptId}`)).body.answers[3].pointsAwarded).toBe(3);
  });

  test("an attempt in progress can be read but not scored; an unanswered ESSAY is not scored by hand", async () => {
    const open = await as(owner).get(`/quizzes/${id}/attempts/${a3}`);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ submittedAt: null, score: null, passed: null, hasPendingManual: false });
    expect(open.body.answers.map((a: any) => a.pointsAwarded)).toEqual([null, null, null, null]);
    const essayOpen = open.body.answers[3].answerId;
    expectProblem(
      await as(owner).put(`/quizzes/${id}/attempts/${a3}/answers/${essayOpen}/score`, { pointsAwarded: 1 }),
      409,
      "INVALID_STATE",
    );
    const unanswered = (await as(owner).get(`/quizzes/${id}/attempts/${a2.attemptId}`)).body.answers[3];
    expect([unanswered.pointsAwarded, unanswered.isCorrect]).toEqual([0, false]);
    expectProblem(
      await as(owner).put(`/quizzes/${id}/attempts/${a2.attemptId}/answers/${unanswered.answerId}/score`, { pointsAwarded: 1 }),
      409,
      "INVALID_STATE",
    );
  });

  test("GET /statistics — returns 401, 403, 404", async () => {
    unauth(await anon("GET", `/quizzes/${id}/statistics`));
    forbidden(await as(p1).get(`/quizzes/${id}/statistics`));
    notFound(await as(other).get(`/quizzes/${id}/statistics`));
    notFound(await as(outsider).get(`/quizzes/${id}/statistics`));
  });
});

describe("getQuizStatistics — who should answer", () => {
  test("content outside any space counts the members its shares name, while SHARED", async () => {
    const lib = await as(owner).post("/library/contents", { type: "QUIZ", title: "Lib", visibility: "SHARED" });
    const id = lib.body.id;
    await as(owner).put(`/library/contents/${id}/shares`, {
      shares: [
        { targetType: "USER", targetId: outsider.memberId, level: "VIEW" },
        { targetType: "USER", targetId: p1.memberId, level: "VIEW" },
      ],
    });
    const cfg = (await as(owner).put(`/quizzes/${id}/config`, { questions: [QUESTIONS[0]] })).body;
    await take(outsider, id, { answers: [{ questionId: cfg.questions[0].id, selectedOptionIds: [cfg.questions[0].options[0].id] }] });
    const s = (await as(owner).get(`/quizzes/${id}/statistics`)).body;
    expect([s.submittedCount, s.gradedCount, s.notSubmittedCount, s.averageScore, s.passRate]).toEqual([1, 1, 1, 2, null]);
    expect(s.questions[0]).toMatchObject({ answeredCount: 1, correctRate: 100 });
  });
});

describe("POST /api/v1/quizzes/{contentId}/email-count — checkQuizEmailCount", () => {
  test("counts the submitted attempts of the member with that e-mail", async () => {
    const { id, config } = await configured();
    const count = async (email: string) => {
      const res = await as(owner).post(`/quizzes/${id}/email-count`, { email });
      expect(res.status).toBe(200);
      return res.body;
    };
    expect(await count(p1.email)).toEqual({ email: p1.email, count: 0 });
    await take(p1, id, answers(config, { single: 0 }));
    await take(p1, id, answers(config, { single: 1 }));
    await start(p1, id);
    expect((await count(p1.email.toUpperCase())).count).toBe(2);
    expect((await count("nobody@example.com")).count).toBe(0);
  });

  test("returns 400 for a missing or bad e-mail, 401, 403, 404", async () => {
    const id = await newQuiz();
    expect(fieldOf(await as(owner).post(`/quizzes/${id}/email-count`, {}))).toBe("email");
    expect(fieldOf(await as(owner).post(`/quizzes/${id}/email-count`, { email: "not-an-email" }))).toBe("email");
    unauth(await anon("POST", `/quizzes/${id}/email-count`, { email: "a@example.com" }));
    forbidden(await as(p1).post(`/quizzes/${id}/email-count`, { email: "a@example.com" }));
    notFound(await as(other).post(`/quizzes/${id}/email-count`, { email: "a@example.com" }));
  });
});

describe("GET /api/v1/files/{fileId} — getFile of a quiz question's file", () => {
  test("a member who can view the quiz sees question and option files; an outsider and another tenant get 404", async () => {
    const qf = await upload(owner);
    const of = await upload(owner);
    await configured({}, [
      {
        type: "SINGLE",
        body: "Pick",
        attachmentFileIds: [qf],
        options: [{ body: "A", isCorrect: true, attachmentFileIds: [of] }, { body: "B" }],
      },
    ]);
    for (const f of [qf, of]) {
      for (const who of [owner, admin2, p1]) expect((await as(who).get(`/files/${f}`)).body.fileId).toBe(f);
      for (const who of [outsider, other]) notFound(await as(who).get(`/files/${f}`));
    }
  });

  test("a file left out of the questions stays visible to whoever took an attempt on them, and to managers only", async () => {
    const f = await upload(owner);
    const { id } = await configured({}, [{ type: "ESSAY", body: "Look", attachmentFileIds: [f] }]);
    await start(p1, id);
    expect((await as(owner).put(`/quizzes/${id}/config`, { questions: [{ type: "ESSAY", body: "Plain" }] })).status).toBe(200);
    for (const who of [owner, admin2, p1]) expect((await as(who).get(`/files/${f}`)).status).toBe(200);
    for (const who of [p2, outsider]) notFound(await as(who).get(`/files/${f}`));
  });
});

describe("deleteContent cascades to quizzes", () => {
  test("the config, question sets, attempts and answers go with the content", async () => {
    const { id, config } = await configured();
    await take(p1, id, answers(config, { single: 0 }));
    await start(p2, id);
    expect((await as(owner).del(`/library/contents/${id}`)).status).toBe(204);
    notFound(await as(owner).get(`/quizzes/${id}/config`));
    notFound(await as(p1).get(`/quizzes/${id}/my-attempts`));
    const left = api.server.rt.tenants.use(owner.tenantId, (h) =>
      ["quiz_configs", "quiz_question_sets", "quiz_attempts", "quiz_answers"].map(
        (t) => (h.sqlite.query(`SELECT count(*) AS n FROM ${t} WHERE content_id = ?`).get(id) as { n: number }).n,
      ),
    );
    expect(left).toEqual([0, 0, 0, 0]);
  });
});
