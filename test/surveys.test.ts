import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent, uploadFile } from "./helpers/fixture";
import { createContentSpace, expectProblem, fieldOf, forbidden, ISO, notFound, unauth, useServer } from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant; // author of the surveys and ADMIN of the space
let other: Tenant; // another tenant
let admin2: Member; // second ADMIN of the space (a manager who is not the author)
let p1: Member; // PARTICIPANT
let p2: Member; // PARTICIPANT
let p3: Member; // PARTICIPANT
let outsider: Member; // enrolled nowhere: cannot see space content
let spaceId: string;
let nodeId: string;

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    spaceId,
    nodeId,
    participants: [p1, p2, p3],
  } = await createContentSpace(api, { spaceName: "Survey space", participants: ["Alice", "Bob", "Carol"] }));
});

/** A SURVEY published to the space (SHARED in its folder). */
const newSurvey = (body: Record<string, unknown> = {}) => createContent(api, owner, nodeId, "SURVEY", { title: "Survey", body });

const upload = (who: { token: string }, fileName = "a.txt", contentType = "text/plain", bytes = "hello") =>
  uploadFile(api, who, { fileName, contentType, bytes });
const fetchUrl = (url: string) => fetch(url.replace(api.server.rt.config.publicUrl, api.url));

const QUESTIONS = [
  { type: "SHORT_TEXT", title: "Name a fruit", isRequired: true },
  { type: "LONG_TEXT", title: "Tell us more" },
  {
    type: "SINGLE_CHOICE",
    title: "Pick one",
    isRequired: true,
    options: [{ label: "Red" }, { label: "Blue" }, { label: "Other", isEtc: true }],
  },
  { type: "MULTIPLE_CHOICE", title: "Pick many", options: [{ label: "A" }, { label: "B" }, { label: "C" }] },
  { type: "SCALE", title: "Rate", scaleMinLabel: "bad", scaleMaxLabel: "good" },
];

/** A survey with the five question types; returns its id and config. */
async function configured(extra: Record<string, unknown> = {}) {
  const id = await newSurvey();
  const res = await as(owner).put(`/surveys/${id}/config`, { questions: QUESTIONS, ...extra });
  expect(res.status).toBe(200);
  return { id, config: res.body };
}

/** Answers to the configured survey: [text, choice index, multiple indexes, scale]. */
function answers(cfg: any, a: { text?: string; long?: string; single?: number; etc?: string; multi?: number[]; scale?: number }) {
  const [q1, q2, q3, q4, q5] = cfg.questions;
  const out: any[] = [];
  if (a.text !== undefined) out.push({ questionId: q1.id, text: a.text });
  if (a.long !== undefined) out.push({ questionId: q2.id, text: a.long });
  if (a.single !== undefined) out.push({ questionId: q3.id, optionIds: [q3.options[a.single].id], etcText: a.etc ?? null });
  if (a.multi !== undefined) out.push({ questionId: q4.id, optionIds: a.multi.map((k) => q4.options[k].id) });
  if (a.scale !== undefined) out.push({ questionId: q5.id, scaleValue: a.scale });
  return { answers: out };
}

describe("PUT /api/v1/surveys/{contentId}/config — setSurveyConfig", () => {
  test("a question's type (SHORT_TEXT) and title are optional; an option needs its label (surveys.md: label 1..255)", async () => {
    const id = await newSurvey();
    const missing = await as(owner).put(`/surveys/${id}/config`, {
      questions: [{}, { type: "SINGLE_CHOICE", options: [{}, { label: "B" }] }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toContainEqual(expect.objectContaining({ field: "questions[1].options[0].label" }));
    const res = await as(owner).put(`/surveys/${id}/config`, {
      questions: [{}, { type: "SINGLE_CHOICE", options: [{ label: "A" }, { label: "B" }] }],
    });
    expect(res.status).toBe(200);
    const [q1, q2] = res.body.questions;
    expect([q1.type, q1.title, q2.title]).toEqual(["SHORT_TEXT", "", ""]);
    expect(q2.options.map((o: any) => o.label)).toEqual(["A", "B"]);
  });

  test("stores the questions with defaults and fresh ids; version 1; the read returns the same", async () => {
    const id = await newSurvey();
    const before = await as(owner).get(`/surveys/${id}/config`);
    expect(before.body).toEqual({
      description: null,
      isAnonymous: false,
      allowResubmit: false,
      version: 0,
      opensAt: null,
      closesAt: null,
      questions: [],
    });
    const res = await as(owner).put(`/surveys/${id}/config`, { description: "Intro", isAnonymous: true, questions: QUESTIONS });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe("Intro");
    expect(res.body.isAnonymous).toBe(true);
    expect(res.body.allowResubmit).toBe(false);
    expect(res.body.version).toBe(1);
    const [q1, , q3, , q5] = res.body.questions;
    expect(q1).toEqual({
      id: expect.any(String),
      type: "SHORT_TEXT",
      title: "Name a fruit",
      description: null,
      isRequired: true,
      attachments: [],
      options: [],
      scaleMin: null,
      scaleMax: null,
      scaleMinLabel: null,
      scaleMaxLabel: null,
    });
    expect(q3.options.map((o: any) => [o.label, o.isEtc, o.attachments])).toEqual([
      ["Red", false, []],
      ["Blue", false, []],
      ["Other", true, []],
    ]);
    expect(q3.scaleMin).toBeNull();
    expect([q5.scaleMin, q5.scaleMax, q5.scaleMinLabel, q5.scaleMaxLabel, q5.options]).toEqual([1, 5, "bad", "good", []]);
    expect((await as(owner).get(`/surveys/${id}/config`)).body).toEqual(res.body);
    // a space ADMIN who is not the author manages it too
    expect((await as(admin2).get(`/surveys/${id}/config`)).body.version).toBe(1);
  });

  test("keeps questions and options sent with their id; version grows only when the questions change", async () => {
    const { id, config } = await configured();
    const keep = config.questions.map((q: any) => ({
      id: q.id,
      type: q.type,
      title: q.title,
      isRequired: q.isRequired,
      options: q.options.map((o: any) => ({ id: o.id, label: o.label, isEtc: o.isEtc })),
      scaleMinLabel: q.scaleMinLabel,
      scaleMaxLabel: q.scaleMaxLabel,
    }));
    const same = await as(owner).put(`/surveys/${id}/config`, { allowResubmit: true, questions: keep });
    expect(same.body.version).toBe(1);
    expect(same.body.allowResubmit).toBe(true);
    expect(same.body.questions).toEqual(config.questions);
    keep[0].title = "Renamed";
    keep.push({ type: "SCALE", title: "New", scaleMin: 0, scaleMax: 10 });
    const changed = await as(owner).put(`/surveys/${id}/config`, { questions: keep });
    expect(changed.body.version).toBe(2);
    expect(changed.body.allowResubmit).toBe(false); // PUT: absent = default
    expect(changed.body.questions[0].id).toBe(config.questions[0].id);
    expect(changed.body.questions[0].title).toBe("Renamed");
    expect(changed.body.questions[2].options.map((o: any) => o.id)).toEqual(config.questions[2].options.map((o: any) => o.id));
    expect(changed.body.questions[5]).toMatchObject({ type: "SCALE", scaleMin: 0, scaleMax: 10 });
  });

  test("attaches files to questions and options as {fileId, url}; another manager may resend them", async () => {
    const id = await newSurvey();
    const f1 = await upload(owner, "q.txt", "text/plain", "QQQ");
    const f2 = await upload(owner, "o.txt", "text/plain", "OO");
    const body = {
      questions: [
        {
          type: "SINGLE_CHOICE",
          title: "With files",
          attachmentFileIds: [f1],
          options: [{ label: "x", attachmentFileIds: [f2] }, { label: "y" }],
        },
      ],
    };
    const res = await as(owner).put(`/surveys/${id}/config`, body);
    expect(res.status).toBe(200);
    const q = res.body.questions[0];
    expect(q.attachments).toEqual([{ fileId: f1, url: expect.any(String) }]);
    expect(q.options[0].attachments).toEqual([{ fileId: f2, url: expect.any(String) }]);
    // a participant's view carries URLs signed for them, which download the bytes
    const view = await as(p1).get(`/surveys/${id}/participant-view`);
    expect(await (await fetchUrl(view.body.questions[0].attachments[0].url)).text()).toBe("QQQ");
    // admin2 did not upload these, but they are already attached: kept without the owner check
    const again = await as(admin2).put(`/surveys/${id}/config`, {
      questions: [
        { ...body.questions[0], id: q.id, options: [{ id: q.options[0].id, label: "x", attachmentFileIds: [f2] }, { label: "z" }] },
      ],
    });
    expect(again.status).toBe(200);
    // …but new files must be the caller's own
    const f3 = await upload(owner);
    const bad = await as(admin2).put(`/surveys/${id}/config`, { questions: [{ ...body.questions[0], attachmentFileIds: [f1, f3] }] });
    expect(fieldOf(bad)).toBe("questions[0].attachmentFileIds[1]");
  });

  test("returns 400 for each bound", async () => {
    const { id, config } = await configured();
    const other3 = config.questions[3].options[0].id;
    const file = await upload(owner);
    const choice = (extra: Record<string, unknown>) => ({
      type: "SINGLE_CHOICE",
      title: "c",
      options: [{ label: "a" }, { label: "b" }],
      ...extra,
    });
    const q = (extra: Record<string, unknown>) => ({ questions: [{ type: "SHORT_TEXT", title: "t", ...extra }] });
    const cases: [unknown, string][] = [
      [{}, "questions"],
      [{ questions: Array.from({ length: 51 }, () => ({ type: "SHORT_TEXT", title: "t" })) }, "questions"],
      [{ description: "d".repeat(15001), questions: [] }, "description"],
      [{ isAnonymous: "yes", questions: [] }, "isAnonymous"],
      [q({ type: "DATE" }), "questions[0].type"],
      [q({ title: "" }), "questions[0].title"],
      [q({ title: "t".repeat(301) }), "questions[0].title"],
      [q({ description: "d".repeat(15001) }), "questions[0].description"],
      [q({ id: "nope" }), "questions[0].id"],
      [q({ options: [{ label: "a" }, { label: "b" }] }), "questions[0].options"],
      [q({ scaleMin: 1 }), "questions[0].scaleMin"],
      [q({ scaleMaxLabel: "x" }), "questions[0].scaleMaxLabel"],
      [q({ attachmentFileIds: ["missing"] }), "questions[0].attachmentFileIds[0]"],
      [q({ attachmentFileIds: [file, file] }), "questions[0].attachmentFileIds[1]"],
      [q({ attachmentFileIds: Array.from({ length: 21 }, (_, k) => `f${k}`) }), "questions[0].attachmentFileIds"],
      [{ questions: [choice({ options: [{ label: "a" }] })] }, "questions[0].options"],
      [{ questions: [choice({ options: Array.from({ length: 51 }, () => ({ label: "a" })) })] }, "questions[0].options"],
      [{ questions: [choice({ options: [{ label: "" }, { label: "b" }] })] }, "questions[0].options[0].label"],
      [{ questions: [choice({ options: [{ label: "x".repeat(256) }, { label: "b" }] })] }, "questions[0].options[0].label"],
      [
        {
          questions: [
            choice({
              options: [
                { label: "a", isEtc: true },
                { label: "b", isEtc: true },
              ],
            }),
          ],
        },
        "questions[0].options",
      ],
      [{ questions: [choice({ options: [{ id: other3, label: "a" }, { label: "b" }] })] }, "questions[0].options[0].id"],
      [{ questions: [choice({ scaleMax: 5 })] }, "questions[0].scaleMax"],
      [{ questions: [{ type: "SCALE", title: "s", scaleMin: 2 }] }, "questions[0].scaleMin"],
      [{ questions: [{ type: "SCALE", title: "s", scaleMin: -1 }] }, "questions[0].scaleMin"],
      [{ questions: [{ type: "SCALE", title: "s", scaleMax: 1 }] }, "questions[0].scaleMax"],
      [{ questions: [{ type: "SCALE", title: "s", scaleMax: 11 }] }, "questions[0].scaleMax"],
      [{ questions: [{ type: "SCALE", title: "s", scaleMinLabel: "x".repeat(101) }] }, "questions[0].scaleMinLabel"],
      [{ questions: [{ type: "SCALE", title: "s", options: [{ label: "a" }, { label: "b" }] }] }, "questions[0].options"],
      [
        {
          questions: [
            { id: config.questions[0].id, type: "SHORT_TEXT", title: "t" },
            { id: config.questions[0].id, type: "SHORT_TEXT", title: "t" },
          ],
        },
        "questions[1].id",
      ],
    ];
    for (const [body, field] of cases) {
      expect(`${field}: ${fieldOf(await as(owner).put(`/surveys/${id}/config`, body))}`).toBe(`${field}: ${field}`);
    }
    // fields of another type may be null or empty
    const ok = await as(owner).put(`/surveys/${id}/config`, {
      questions: [{ type: "SHORT_TEXT", title: "t", options: null, scaleMin: null, scaleMinLabel: "", attachmentFileIds: null }],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.questions[0]).toMatchObject({ options: [], scaleMin: null, scaleMinLabel: null, attachments: [] });
  });

  test("returns 401, 403 for a viewer who does not manage it, 404 across tenants, invisible or of another type", async () => {
    const id = await newSurvey();
    const quiz = await newSurvey({ type: "QUIZ" });
    const body = { questions: [] };
    unauth(await anon("PUT", `/surveys/${id}/config`, body));
    forbidden(await as(p1).put(`/surveys/${id}/config`, body));
    forbidden(await as(p1).get(`/surveys/${id}/config`));
    notFound(await as(other).put(`/surveys/${id}/config`, body));
    notFound(await as(outsider).put(`/surveys/${id}/config`, body));
    notFound(await as(owner).put(`/surveys/${quiz}/config`, body));
    notFound(await as(owner).get(`/surveys/${quiz}/config`));
    notFound(await as(owner).get("/surveys/unknown/config"));
    unauth(await anon("GET", `/surveys/${id}/config`));
    notFound(await as(other).get(`/surveys/${id}/config`));
    notFound(await as(outsider).get(`/surveys/${id}/config`));
  });
});

/** The config body that keeps every stored question as it is. */
const keepAll = (config: any) =>
  config.questions.map((q: any) => ({
    id: q.id,
    type: q.type,
    title: q.title,
    description: q.description,
    isRequired: q.isRequired,
    options: q.options.map((o: any) => ({ id: o.id, label: o.label, isEtc: o.isEtc })),
    scaleMin: q.scaleMin,
    scaleMax: q.scaleMax,
    scaleMinLabel: q.scaleMinLabel,
    scaleMaxLabel: q.scaleMaxLabel,
  }));

describe("POST /api/v1/surveys/{contentId}/config/change-check — checkSurveyConfigChange", () => {
  test("reports modifications and the reasons that invalidate answers, without side effects", async () => {
    const { id, config } = await configured();
    const check = (questions: unknown, extra: Record<string, unknown> = {}) =>
      as(owner).post(`/surveys/${id}/config/change-check`, { questions, ...extra });
    const same = keepAll(config);
    expect((await check(same)).body).toEqual({ submitCount: 0, isModified: false, needReset: false, reasons: [] });
    expect((await check(same, { isAnonymous: true })).body).toEqual({ submitCount: 0, isModified: true, needReset: false, reasons: [] });
    // no submits yet: reasons are listed, needReset stays false
    expect((await check(same.slice(1))).body).toEqual({
      submitCount: 0,
      isModified: true,
      needReset: false,
      reasons: ["QUESTION_REMOVED"],
    });
    expect((await as(owner).get(`/surveys/${id}/config`)).body).toEqual(config);

    expect((await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Fig", single: 0 }))).status).toBe(200);
    const edit = (fn: (qs: any[]) => void) => {
      const qs = structuredClone(same);
      fn(qs);
      return qs;
    };
    const cases: [any[], string[]][] = [
      [edit((qs) => qs.splice(1, 1)), ["QUESTION_REMOVED"]],
      [edit((qs) => (qs[0].type = "LONG_TEXT")), []],
      [edit((qs) => Object.assign(qs[1], { type: "SCALE" })), ["QUESTION_TYPE_CHANGED"]],
      [edit((qs) => (qs[3].type = "SINGLE_CHOICE")), ["QUESTION_TYPE_CHANGED"]],
      [edit((qs) => qs[3].options.pop()), ["OPTION_REMOVED"]],
      [edit((qs) => (qs[2].options[2].isEtc = false)), ["ETC_OPTION_REMOVED"]],
      [edit((qs) => (qs[4].scaleMax = 7)), ["SCALE_CHANGED"]],
      [edit((qs) => (qs[4].scaleMaxLabel = "great")), []],
      [edit((qs) => qs[3].options.push({ label: "D" })), []],
      [edit((qs) => qs.push({ type: "SHORT_TEXT", title: "Added", isRequired: true })), []],
      [edit((qs) => qs.reverse()), []],
      [
        edit((qs) => {
          qs.shift();
          qs[2].options.shift();
          qs[3].scaleMin = 0;
        }),
        ["QUESTION_REMOVED", "OPTION_REMOVED", "SCALE_CHANGED"],
      ],
    ];
    for (const [qs, reasons] of cases) {
      const res = await check(qs);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ submitCount: 1, isModified: true, needReset: reasons.length > 0, reasons });
    }
    expect((await as(owner).get(`/surveys/${id}/statistics`)).body.submittedCount).toBe(1);
  });

  test("setSurveyConfig resets the responses on such a change (with resetResponses) and keeps them otherwise", async () => {
    const { id, config } = await configured();
    await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Fig", single: 0 }));
    await as(p2).put(`/surveys/${id}/my-response/draft`, answers(config, { text: "Kiwi" }));
    const kept = keepAll(config);
    kept[0].title = "Retitled";
    expect((await as(owner).put(`/surveys/${id}/config`, { questions: kept })).body.version).toBe(2);
    let stats = (await as(owner).get(`/surveys/${id}/statistics`)).body;
    expect([stats.submittedCount, stats.draftCount]).toEqual([1, 1]);
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body.response.version).toBe(1);
    expectProblem(await as(owner).put(`/surveys/${id}/config`, { questions: kept.slice(1) }), 409, "IN_USE");
    expect((await as(owner).put(`/surveys/${id}/config`, { questions: kept.slice(1), resetResponses: true })).body.version).toBe(3);
    stats = (await as(owner).get(`/surveys/${id}/statistics`)).body;
    expect([stats.submittedCount, stats.draftCount]).toEqual([0, 0]);
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body).toEqual({ response: null });
  });

  test("returns 400 like the set operation, 401, 403, 404", async () => {
    const id = await newSurvey();
    expect(fieldOf(await as(owner).post(`/surveys/${id}/config/change-check`, {}))).toBe("questions");
    expect(
      fieldOf(await as(owner).post(`/surveys/${id}/config/change-check`, { questions: [{ type: "SCALE", title: "s", scaleMax: 11 }] })),
    ).toBe("questions[0].scaleMax");
    expect(
      fieldOf(await as(owner).post(`/surveys/${id}/config/change-check`, { questions: [{ id: "x", type: "SHORT_TEXT", title: "t" }] })),
    ).toBe("questions[0].id");
    unauth(await anon("POST", `/surveys/${id}/config/change-check`, { questions: [] }));
    forbidden(await as(p1).post(`/surveys/${id}/config/change-check`, { questions: [] }));
    notFound(await as(other).post(`/surveys/${id}/config/change-check`, { questions: [] }));
    notFound(await as(outsider).post(`/surveys/${id}/config/change-check`, { questions: [] }));
  });
});

describe("GET /api/v1/surveys/{contentId}/participant-view — getSurveyForParticipant", () => {
  test("gives a viewer the description, flags, version and questions", async () => {
    const { id, config } = await configured({ description: "Hello", allowResubmit: true });
    const res = await as(p1).get(`/surveys/${id}/participant-view`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...config, description: "Hello", allowResubmit: true });
  });

  test("returns 401, and 404 across tenants, invisible, draft content or of another type", async () => {
    const id = await newSurvey();
    const draft = await newSurvey({ visibility: "PRIVATE" });
    const quiz = await newSurvey({ type: "QUIZ" });
    unauth(await anon("GET", `/surveys/${id}/participant-view`));
    notFound(await as(other).get(`/surveys/${id}/participant-view`));
    notFound(await as(outsider).get(`/surveys/${id}/participant-view`));
    notFound(await as(p1).get(`/surveys/${draft}/participant-view`));
    notFound(await as(p1).get(`/surveys/${quiz}/participant-view`));
    expect((await as(owner).get(`/surveys/${draft}/participant-view`)).status).toBe(200);
  });
});

describe("PUT /api/v1/surveys/{contentId}/my-response/draft — saveSurveyResponseDraft", () => {
  test("replaces the caller's draft without checking isRequired", async () => {
    const { id, config } = await configured();
    const first = await as(p1).put(`/surveys/${id}/my-response/draft`, answers(config, { long: "Some", multi: [0, 2] }));
    expect(first.status).toBe(200);
    expect(first.body.response).toEqual({
      status: "DRAFT",
      version: 1,
      answers: [
        { questionId: config.questions[1].id, optionIds: [], etcText: null, text: "Some", scaleValue: null },
        {
          questionId: config.questions[3].id,
          optionIds: [config.questions[3].options[0].id, config.questions[3].options[2].id],
          etcText: null,
          text: null,
          scaleValue: null,
        },
      ],
      updatedAt: expect.stringMatching(ISO),
      submittedAt: null,
    });
    const second = await as(p1).put(`/surveys/${id}/my-response/draft`, answers(config, { scale: 4, text: "  " }));
    expect(second.body.response.answers).toEqual([
      { questionId: config.questions[4].id, optionIds: [], etcText: null, text: null, scaleValue: 4 },
    ]);
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body).toEqual(second.body);
    expect((await as(owner).get(`/surveys/${id}/statistics`)).body.draftCount).toBe(1);
  });

  test("returns 409 INVALID_STATE once submitted, and for a survey without questions", async () => {
    const { id, config } = await configured({ allowResubmit: true });
    await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Fig", single: 1 }));
    expectProblem(await as(p1).put(`/surveys/${id}/my-response/draft`, answers(config, { text: "x" })), 409, "INVALID_STATE");
    const empty = await newSurvey();
    expectProblem(await as(p1).put(`/surveys/${empty}/my-response/draft`, { answers: [] }), 409, "INVALID_STATE");
  });

  test("returns 400 for each bound, 401 and 404", async () => {
    const { id, config } = await configured();
    const [q1, , q3, q4, q5] = config.questions;
    const cases: [unknown, string][] = [
      [{}, "answers"],
      [{ answers: [{}] }, "answers[0].questionId"],
      [{ answers: [{ questionId: "nope", text: "x" }] }, "answers[0].questionId"],
      [{ answers: [{ questionId: q1.id, text: "x".repeat(10001) }] }, "answers[0].text"],
      [{ answers: [{ questionId: q1.id, optionIds: [q3.options[0].id] }] }, "answers[0].optionIds"],
      [{ answers: [{ questionId: q1.id, scaleValue: 3 }] }, "answers[0].scaleValue"],
      [{ answers: [{ questionId: q3.id, optionIds: [q3.options[0].id, q3.options[1].id] }] }, "answers[0].optionIds"],
      [{ answers: [{ questionId: q3.id, optionIds: [q4.options[0].id] }] }, "answers[0].optionIds[0]"],
      [{ answers: [{ questionId: q4.id, optionIds: [q4.options[0].id, q4.options[0].id] }] }, "answers[0].optionIds[1]"],
      [{ answers: [{ questionId: q3.id, optionIds: [q3.options[0].id], etcText: "why" }] }, "answers[0].etcText"],
      [{ answers: [{ questionId: q3.id, optionIds: [q3.options[2].id], etcText: "e".repeat(1001) }] }, "answers[0].etcText"],
      [{ answers: [{ questionId: q3.id, text: "x" }] }, "answers[0].text"],
      [{ answers: [{ questionId: q5.id, scaleValue: 6 }] }, "answers[0].scaleValue"],
      [{ answers: [{ questionId: q5.id, scaleValue: 0 }] }, "answers[0].scaleValue"],
      [{ answers: [{ questionId: q5.id, scaleValue: 2.5 }] }, "answers[0].scaleValue"],
      [
        {
          answers: [
            { questionId: q1.id, text: "a" },
            { questionId: q1.id, text: "b" },
          ],
        },
        "answers[1].questionId",
      ],
      [{ answers: Array.from({ length: 51 }, () => ({ questionId: q1.id })) }, "answers"],
    ];
    for (const [body, field] of cases) {
      expect(`${field}: ${fieldOf(await as(p1).put(`/surveys/${id}/my-response/draft`, body))}`).toBe(`${field}: ${field}`);
    }
    unauth(await anon("PUT", `/surveys/${id}/my-response/draft`, { answers: [] }));
    notFound(await as(other).put(`/surveys/${id}/my-response/draft`, { answers: [] }));
    notFound(await as(outsider).put(`/surveys/${id}/my-response/draft`, { answers: [] }));
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body).toEqual({ response: null });
  });
});

describe("POST /api/v1/surveys/{contentId}/my-response/submit — submitSurveyResponse", () => {
  test("submits the answers with the survey version; the etc text goes with the isEtc option", async () => {
    const { id, config } = await configured();
    const res = await as(p2).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Fig", single: 2, etc: "Green", scale: 5 }));
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ status: "SUBMITTED", version: 1, submittedAt: expect.stringMatching(ISO) });
    expect(res.body.response.answers[1]).toEqual({
      questionId: config.questions[2].id,
      optionIds: [config.questions[2].options[2].id],
      etcText: "Green",
      text: null,
      scaleValue: null,
    });
    expect(res.body.response.answers[2].scaleValue).toBe(5);
  });

  test("needs every isRequired question answered, naming the missing ones", async () => {
    const { id, config } = await configured();
    const res = await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { long: "only this", text: " " }));
    const body = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([
      { in: "body", field: "answers", message: `requires an answer to question ${config.questions[0].id}` },
      { in: "body", field: "answers", message: `requires an answer to question ${config.questions[2].id}` },
    ]);
    expect(fieldOf(await as(p1).post(`/surveys/${id}/my-response/submit`, { answers: [] }))).toBe("answers");
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body.response).toBeNull();
  });

  test("a draft turns into the submission; a resubmit is 409 RESUBMIT_NOT_ALLOWED", async () => {
    const { id, config } = await configured();
    await as(p1).put(`/surveys/${id}/my-response/draft`, answers(config, { text: "Draft" }));
    const sub = await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Fig", single: 0 }));
    expect(sub.body.response.status).toBe("SUBMITTED");
    const stats = (await as(owner).get(`/surveys/${id}/statistics`)).body;
    expect([stats.submittedCount, stats.draftCount]).toEqual([1, 0]);
    expectProblem(
      await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Again", single: 1 })),
      409,
      "RESUBMIT_NOT_ALLOWED",
    );
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body).toEqual(sub.body);
  });

  test("with allowResubmit the response is replaced and submittedAt updated", async () => {
    const { id, config } = await configured({ allowResubmit: true });
    const first = await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Fig", single: 0 }));
    await Bun.sleep(5);
    const second = await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Plum", single: 1 }));
    expect(second.status).toBe(200);
    expect(second.body.response.submittedAt > first.body.response.submittedAt).toBe(true);
    expect(second.body.response.answers.map((a: any) => a.text ?? a.optionIds[0])).toEqual(["Plum", config.questions[2].options[1].id]);
    expect((await as(owner).get(`/surveys/${id}/statistics`)).body.submittedCount).toBe(1);
  });

  test("returns 409 INVALID_STATE without questions, 401 and 404", async () => {
    const empty = await newSurvey();
    expectProblem(await as(p1).post(`/surveys/${empty}/my-response/submit`, { answers: [] }), 409, "INVALID_STATE");
    unauth(await anon("POST", `/surveys/${empty}/my-response/submit`, { answers: [] }));
    notFound(await as(other).post(`/surveys/${empty}/my-response/submit`, { answers: [] }));
    notFound(await as(outsider).post(`/surveys/${empty}/my-response/submit`, { answers: [] }));
    const { id, config } = await configured();
    expect(fieldOf(await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "x", single: 0, scale: 9 })))).toBe(
      "answers[2].scaleValue",
    );
  });
});

describe("GET /api/v1/surveys/{contentId}/my-response — getMySurveyResponse", () => {
  test("is null before the first save, then the caller's own response only", async () => {
    const { id, config } = await configured();
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body).toEqual({ response: null });
    await as(p2).put(`/surveys/${id}/my-response/draft`, answers(config, { text: "Bob's" }));
    expect((await as(p1).get(`/surveys/${id}/my-response`)).body).toEqual({ response: null });
    expect((await as(p2).get(`/surveys/${id}/my-response`)).body.response.answers[0].text).toBe("Bob's");
  });

  test("returns 401 and 404", async () => {
    const id = await newSurvey();
    unauth(await anon("GET", `/surveys/${id}/my-response`));
    notFound(await as(other).get(`/surveys/${id}/my-response`));
    notFound(await as(outsider).get(`/surveys/${id}/my-response`));
    notFound(await as(p1).get(`/surveys/${await newSurvey({ type: "QUIZ" })}/my-response`));
  });
});

describe("GET /api/v1/surveys/{contentId}/statistics — getSurveyStatistics", () => {
  test("counts responses against the space's participants and fills each question type", async () => {
    const { id, config } = await configured();
    const [q1, q2, q3, q4, q5] = config.questions;
    await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Fig", single: 0, multi: [0, 1], scale: 2 }));
    await as(p2).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Kiwi", single: 2, etc: "Teal", multi: [1], scale: 5 }));
    // a manager's submission counts in the figures but not in the population
    await as(owner).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "Lime", single: 0, scale: 4 }));
    await as(p3).put(`/surveys/${id}/my-response/draft`, answers(config, { scale: 1 }));
    const res = await as(owner).get(`/surveys/${id}/statistics`);
    expect(res.status).toBe(200);
    const s = res.body;
    expect([s.isAnonymous, s.submittedCount, s.draftCount, s.notSubmittedCount, s.questionCount]).toEqual([false, 3, 1, 1, 5]);
    expect(s.submitRate).toBeCloseTo((2 / 3) * 100, 10);
    expect(s.questions[0]).toEqual({
      questionId: q1.id,
      title: q1.title,
      type: "SHORT_TEXT",
      isRequired: true,
      answeredCount: 3,
      options: [],
      scale: null,
    });
    expect(s.questions[1]).toMatchObject({ questionId: q2.id, answeredCount: 0, options: [], scale: null });
    expect(s.questions[2].answeredCount).toBe(3);
    expect(s.questions[2].options).toEqual([
      { optionId: q3.options[0].id, label: "Red", isEtc: false, selectedCount: 2, ratio: (2 / 3) * 100 },
      { optionId: q3.options[1].id, label: "Blue", isEtc: false, selectedCount: 0, ratio: 0 },
      { optionId: q3.options[2].id, label: "Other", isEtc: true, selectedCount: 1, ratio: (1 / 3) * 100 },
    ]);
    expect(s.questions[2].scale).toBeNull();
    expect(s.questions[3].answeredCount).toBe(2);
    expect(s.questions[3].options.map((o: any) => [o.selectedCount, o.ratio])).toEqual([
      [1, 50],
      [2, 100],
      [0, 0],
    ]);
    expect(s.questions[4]).toMatchObject({ questionId: q5.id, answeredCount: 3, options: [] });
    expect(s.questions[4].scale).toEqual({
      distribution: [
        { value: 1, count: 0 },
        { value: 2, count: 1 },
        { value: 3, count: 0 },
        { value: 4, count: 1 },
        { value: 5, count: 1 },
      ],
      average: 11 / 3,
      median: 4,
    });
    expect(q4).toBeDefined();
  });

  test("scale median of an even count is the mean of the middle two; null without answers", async () => {
    const { id, config } = await configured({
      questions: [{ type: "SCALE", title: "r", scaleMin: 0, scaleMax: 3 }],
    });
    let s = (await as(owner).get(`/surveys/${id}/statistics`)).body;
    expect(s.questions[0].scale).toEqual({
      distribution: [0, 1, 2, 3].map((value) => ({ value, count: 0 })),
      average: null,
      median: null,
    });
    expect([s.submittedCount, s.notSubmittedCount, s.submitRate]).toEqual([0, 3, 0]);
    const q = config.questions[0].id;
    await as(p1).post(`/surveys/${id}/my-response/submit`, { answers: [{ questionId: q, scaleValue: 0 }] });
    await as(p2).post(`/surveys/${id}/my-response/submit`, { answers: [{ questionId: q, scaleValue: 3 }] });
    s = (await as(owner).get(`/surveys/${id}/statistics`)).body;
    expect([s.questions[0].scale.average, s.questions[0].scale.median]).toEqual([1.5, 1.5]);
  });

  test("content outside any space counts its shares while SHARED", async () => {
    const lib = await as(owner).post("/library/contents", { type: "SURVEY", title: "Lib", visibility: "SHARED" });
    const id = lib.body.id;
    await as(owner).put(`/library/contents/${id}/shares`, {
      shares: [
        { targetType: "USER", targetId: outsider.memberId, level: "VIEW" },
        { targetType: "USER", targetId: p1.memberId, level: "VIEW" },
      ],
    });
    const cfg = (await as(owner).put(`/surveys/${id}/config`, { questions: [{ type: "SHORT_TEXT", title: "t" }] })).body;
    expect(
      (await as(outsider).post(`/surveys/${id}/my-response/submit`, { answers: [{ questionId: cfg.questions[0].id, text: "hi" }] })).status,
    ).toBe(200);
    const s = (await as(owner).get(`/surveys/${id}/statistics`)).body;
    expect([s.submittedCount, s.notSubmittedCount, s.submitRate]).toEqual([1, 1, 50]);
  });

  test("returns 401, 403 and 404", async () => {
    const id = await newSurvey();
    unauth(await anon("GET", `/surveys/${id}/statistics`));
    forbidden(await as(p1).get(`/surveys/${id}/statistics`));
    notFound(await as(other).get(`/surveys/${id}/statistics`));
    notFound(await as(outsider).get(`/surveys/${id}/statistics`));
    notFound(await as(owner).get(`/surveys/${await newSurvey({ type: "QUIZ" })}/statistics`));
  });
});

describe("GET /api/v1/surveys/{contentId}/questions/{questionId}/text-answers — listSurveyTextAnswers", () => {
  test("lists submitted texts newest first across cursor pages; drafts are left out", async () => {
    const { id, config } = await configured();
    const q1 = config.questions[0].id;
    for (const [who, text] of [
      [p1, "Fig"],
      [p2, "Kiwi"],
      [p3, "Lime"],
    ] as const) {
      await as(who).post(`/surveys/${id}/my-response/submit`, answers(config, { text, single: 0 }));
      await Bun.sleep(3);
    }
    await as(admin2).put(`/surveys/${id}/my-response/draft`, answers(config, { text: "Draft" }));
    const page1 = await as(owner).get(`/surveys/${id}/questions/${q1}/text-answers?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.answers).toEqual([
      { text: "Lime", respondentName: "Carol", submittedAt: expect.stringMatching(ISO) },
      { text: "Kiwi", respondentName: "Bob", submittedAt: expect.stringMatching(ISO) },
    ]);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await as(owner).get(
      `/surveys/${id}/questions/${q1}/text-answers?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`,
    );
    expect(page2.body).toEqual({
      answers: [{ text: "Fig", respondentName: "Alice", submittedAt: expect.stringMatching(ISO) }],
      nextCursor: null,
    });
    // the cursor is bound to its question
    const q2 = config.questions[1].id;
    expect(
      fieldOf(await as(owner).get(`/surveys/${id}/questions/${q2}/text-answers?cursor=${encodeURIComponent(page1.body.nextCursor)}`)),
    ).toBe("cursor");
    expect(fieldOf(await as(owner).get(`/surveys/${id}/questions/${q1}/text-answers?cursor=${page1.body.nextCursor}x`))).toBe("cursor");
    expect(fieldOf(await as(owner).get(`/surveys/${id}/questions/${q1}/text-answers?limit=0`))).toBe("limit");
    expect(fieldOf(await as(owner).get(`/surveys/${id}/questions/${q1}/text-answers?limit=101`))).toBe("limit");
  });

  test("for a choice question lists the etc texts; anonymous surveys hide the name", async () => {
    const { id, config } = await configured({ isAnonymous: true });
    const q3 = config.questions[2];
    await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "a", single: 2, etc: "Teal" }));
    await as(p2).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "b", single: 0 }));
    const res = await as(owner).get(`/surveys/${id}/questions/${q3.id}/text-answers`);
    expect(res.body).toEqual({
      answers: [{ text: "Teal", respondentName: null, submittedAt: expect.stringMatching(ISO) }],
      nextCursor: null,
    });
    // respondents still show who submitted
    const r = await as(owner).get(`/surveys/${id}/respondents?spaceId=${spaceId}&status=SUBMITTED`);
    expect(r.body.respondents.map((x: any) => x.displayName)).toEqual(["Alice", "Bob"]);
  });

  test("returns 404 for a SCALE or unknown question, 401, 403 and 404", async () => {
    const { id, config } = await configured();
    const q1 = config.questions[0].id;
    notFound(await as(owner).get(`/surveys/${id}/questions/${config.questions[4].id}/text-answers`));
    notFound(await as(owner).get(`/surveys/${id}/questions/unknown/text-answers`));
    const { id: id2 } = await configured();
    notFound(await as(owner).get(`/surveys/${id2}/questions/${q1}/text-answers`));
    unauth(await anon("GET", `/surveys/${id}/questions/${q1}/text-answers`));
    forbidden(await as(p1).get(`/surveys/${id}/questions/${q1}/text-answers`));
    notFound(await as(other).get(`/surveys/${id}/questions/${q1}/text-answers`));
    notFound(await as(outsider).get(`/surveys/${id}/questions/${q1}/text-answers`));
  });
});

describe("GET /api/v1/surveys/{contentId}/respondents — listSurveyRespondents", () => {
  test("lists the space's participants with their state, filtered by status, across cursor pages", async () => {
    const { id, config } = await configured();
    const first = await as(p2).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "x", single: 0 }));
    await as(p3).put(`/surveys/${id}/my-response/draft`, answers(config, { text: "y" }));
    await as(owner).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "z", single: 0 })); // ADMIN: not listed
    const all = await as(owner).get(`/surveys/${id}/respondents?spaceId=${spaceId}`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      respondents: [
        { profileId: p1.profileId, displayName: "Alice", submitted: false, submittedAt: null },
        { profileId: p2.profileId, displayName: "Bob", submitted: true, submittedAt: first.body.response.submittedAt },
        { profileId: p3.profileId, displayName: "Carol", submitted: false, submittedAt: null },
      ],
      nextCursor: null,
    });
    const names = async (q: string) =>
      (await as(owner).get(`/surveys/${id}/respondents?spaceId=${spaceId}${q}`)).body.respondents.map((x: any) => x.displayName);
    expect(await names("&status=SUBMITTED")).toEqual(["Bob"]);
    expect(await names("&status=NOT_SUBMITTED")).toEqual(["Alice", "Carol"]);
    expect(await names("&status=ALL")).toEqual(["Alice", "Bob", "Carol"]);
    const page1 = await as(owner).get(`/surveys/${id}/respondents?spaceId=${spaceId}&limit=2`);
    expect(page1.body.respondents.map((x: any) => x.displayName)).toEqual(["Alice", "Bob"]);
    const page2 = await as(owner).get(
      `/surveys/${id}/respondents?spaceId=${spaceId}&limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`,
    );
    expect(page2.body.respondents.map((x: any) => x.displayName)).toEqual(["Carol"]);
    expect(page2.body.nextCursor).toBeNull();
    // the cursor is bound to its filters; a tampered one is refused
    const bound = await as(owner).get(
      `/surveys/${id}/respondents?spaceId=${spaceId}&status=SUBMITTED&cursor=${encodeURIComponent(page1.body.nextCursor)}`,
    );
    expect(fieldOf(bound)).toBe("cursor");
    expect(fieldOf(await as(owner).get(`/surveys/${id}/respondents?spaceId=${spaceId}&cursor=abc.def`))).toBe("cursor");
  });

  test("returns 400 for missing spaceId and a bad status, 404 for a space the caller cannot see, 401, 403", async () => {
    const id = await newSurvey();
    expect(fieldOf(await as(owner).get(`/surveys/${id}/respondents`))).toBe("spaceId");
    expect(fieldOf(await as(owner).get(`/surveys/${id}/respondents?spaceId=${spaceId}&status=DONE`))).toBe("status");
    expect(fieldOf(await as(owner).get(`/surveys/${id}/respondents?spaceId=${spaceId}&limit=101`))).toBe("limit");
    notFound(await as(owner).get(`/surveys/${id}/respondents?spaceId=unknown`));
    // a private space admin2 (a manager of the survey without space:create) is not enrolled in
    const hidden = await as(owner).post("/spaces", { name: "Hidden" });
    notFound(await as(admin2).get(`/surveys/${id}/respondents?spaceId=${hidden.body.id}`));
    expect((await as(owner).get(`/surveys/${id}/respondents?spaceId=${hidden.body.id}`)).body).toEqual({
      respondents: [],
      nextCursor: null,
    });
    const otherSpace = await as(other).post("/spaces", { name: "Elsewhere" });
    notFound(await as(owner).get(`/surveys/${id}/respondents?spaceId=${otherSpace.body.id}`));
    unauth(await anon("GET", `/surveys/${id}/respondents?spaceId=${spaceId}`));
    forbidden(await as(p1).get(`/surveys/${id}/respondents?spaceId=${spaceId}`));
    notFound(await as(other).get(`/surveys/${id}/respondents?spaceId=${spaceId}`));
    notFound(await as(outsider).get(`/surveys/${id}/respondents?spaceId=${spaceId}`));
  });
});

describe("POST /api/v1/surveys/{contentId}/email-count — checkSurveyEmailCount", () => {
  test("counts the submitted responses of the member with that e-mail", async () => {
    const { id, config } = await configured();
    await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "x", single: 0 }));
    await as(p2).put(`/surveys/${id}/my-response/draft`, answers(config, { text: "y" }));
    const count = async (email: string) => (await as(owner).post(`/surveys/${id}/email-count`, { email })).body;
    expect(await count(p1.email.toUpperCase())).toEqual({ email: p1.email.toUpperCase(), count: 1 });
    expect((await count(p2.email)).count).toBe(0);
    expect((await count("nobody@example.com")).count).toBe(0);
  });

  test("returns 400, 401, 403 and 404", async () => {
    const id = await newSurvey();
    expect(fieldOf(await as(owner).post(`/surveys/${id}/email-count`, {}))).toBe("email");
    expect(fieldOf(await as(owner).post(`/surveys/${id}/email-count`, { email: "not-an-email" }))).toBe("email");
    expect(fieldOf(await as(owner).post(`/surveys/${id}/email-count`, { email: `${"a".repeat(250)}@example.com` }))).toBe("email");
    unauth(await anon("POST", `/surveys/${id}/email-count`, { email: "a@example.com" }));
    forbidden(await as(p1).post(`/surveys/${id}/email-count`, { email: "a@example.com" }));
    notFound(await as(other).post(`/surveys/${id}/email-count`, { email: "a@example.com" }));
    notFound(await as(outsider).post(`/surveys/${id}/email-count`, { email: "a@example.com" }));
  });
});

describe("GET /api/v1/files/{fileId} — getFile of a survey question's file", () => {
  test("a member who can view the survey sees question and option files until they are removed; an outsider gets 404", async () => {
    const qf = await upload(owner);
    const of = await upload(owner);
    const id = await newSurvey();
    const questions = [
      { type: "SINGLE_CHOICE", title: "Pick", attachmentFileIds: [qf], options: [{ label: "A", attachmentFileIds: [of] }, { label: "B" }] },
    ];
    expect((await as(owner).put(`/surveys/${id}/config`, { questions })).status).toBe(200);
    for (const f of [qf, of]) {
      for (const who of [admin2, p1]) expect((await as(who).get(`/files/${f}`)).body.fileId).toBe(f);
      for (const who of [outsider, other]) notFound(await as(who).get(`/files/${f}`));
    }
    expect((await as(owner).put(`/surveys/${id}/config`, { questions: [{ type: "SHORT_TEXT", title: "Plain" }] })).status).toBe(200);
    for (const f of [qf, of]) notFound(await as(p1).get(`/files/${f}`));
  });
});

describe("deleteContent cascades to surveys", () => {
  test("the config and responses go with the content", async () => {
    const { id, config } = await configured();
    await as(p1).post(`/surveys/${id}/my-response/submit`, answers(config, { text: "x", single: 0 }));
    expect((await as(owner).del(`/library/contents/${id}`)).status).toBe(204);
    notFound(await as(owner).get(`/surveys/${id}/config`));
    const left = api.server.rt.tenants.use(owner.tenantId, (h) =>
      ["survey_configs", "survey_responses", "survey_answers"].map(
        (t) => (h.sqlite.query(`SELECT count(*) AS n FROM ${t} WHERE content_id = ?`).get(id) as { n: number }).n,
      ),
    );
    expect(left).toEqual([0, 0, 0]);
  });
});
