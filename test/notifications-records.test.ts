// GRADE_RETURNED for returnAll and released quiz results, and notifications that leave with their
// record (docs/rules/notifications.md#kinds, docs/rules/notifications.md#deleted-records).
import { describe, expect, test } from "bun:test";
import { useContentSpace } from "./helpers/fixture";
import { useServer } from "./helpers/server";

const api = useServer();
const fx = useContentSpace(api, { spaceName: "Records", participants: ["Ann", "Ben", "Cho"] });
const as = api.as;

type Who = { token: string };
const items = async (who: Who, recordId: string) => {
  const res = await as(who).get("/me/notifications?limit=100");
  expect(res.status).toBe(200);
  return (res.body.notifications as any[]).filter((n) => n.recordId === recordId);
};
const kinds = async (who: Who, recordId: string) =>
  (await items(who, recordId)).map((n) => n.kind as string).filter((k) => k !== "CONTENT" && k !== "DUE_SOON");
const unread = async (who: Who) => (await as(who).get("/me/notifications?limit=1")).body.unreadCount as number;

describe("GRADE_RETURNED", () => {
  test("returnAllSubmissions tells every submitter whose grade it returned, and nobody else", async () => {
    const [ann, ben, cho] = fx.participants;
    const id = await fx.content("ASSIGNMENT", { title: "All back", config: { maxScore: 10 } });
    const subs: Record<string, string> = {};
    for (const [name, who] of [
      ["ann", ann],
      ["ben", ben],
      ["cho", cho],
    ] as const) {
      const res = await as(who).post(`/assignments/${id}/submissions`, { body: name });
      expect(res.status).toBe(201);
      subs[name] = res.body.id;
    }
    for (const name of ["ann", "ben"]) {
      expect((await as(fx.owner).put(`/assignments/${id}/submissions/${subs[name]}/grade`, { score: 7 })).status).toBe(200);
    }
    const res = await as(fx.owner).post(`/assignments/${id}/return-all`);
    expect(res.status).toBe(200);
    expect(res.body.returned).toBe(2);
    expect(await kinds(ann, id)).toEqual(["GRADE_RETURNED"]);
    expect(await kinds(ben, id)).toEqual(["GRADE_RETURNED"]);
    expect(await kinds(cho, id)).toEqual([]); // submitted, not graded: nothing returned
    expect(await kinds(fx.owner, id)).toEqual([]);
    expect((await items(ann, id)).find((n) => n.kind === "GRADE_RETURNED")).toMatchObject({ recordType: "CONTENT", spaceId: fx.spaceId });
  });

  test("quiz results turned from STATUS_ONLY to shown tell each taker with a scored attempt", async () => {
    const [ann, ben] = fx.participants;
    const question = { type: "SINGLE", body: "2+2", point: 1, options: [{ body: "4", isCorrect: true }, { body: "5" }] };
    const config = { resultExposeLevel: "STATUS_ONLY", questions: [question] };
    const id = await fx.content("QUIZ", { title: "Hidden results", config });
    const saved = (await as(fx.owner).get(`/quizzes/${id}/config`)).body;
    const start = await as(ann).post(`/quizzes/${id}/my-attempts`);
    const attemptId = start.body.attempt.attemptId;
    const q = saved.questions[0];
    const submit = await as(ann).post(`/quizzes/${id}/my-attempts/${attemptId}/submit`, {
      answers: [{ questionId: q.id, selectedOptionIds: [q.options[0].id] }],
    });
    expect(submit.status).toBe(200);
    expect(await kinds(ann, id)).toEqual([]);
    // Another settings change that keeps results hidden tells nobody.
    expect((await as(fx.owner).put(`/quizzes/${id}/config`, { ...config, passScore: 1 })).status).toBe(200);
    expect(await kinds(ann, id)).toEqual([]);
    expect((await as(fx.owner).put(`/quizzes/${id}/config`, { ...config, resultExposeLevel: "SCORE_ONLY" })).status).toBe(200);
    expect(await kinds(ann, id)).toEqual(["GRADE_RETURNED"]);
    expect(await kinds(ben, id)).toEqual([]); // never took it
    expect(await kinds(fx.owner, id)).toEqual([]);
  });

  test("the last hand-scored answer of a shown quiz tells the taker once; a hidden quiz's scoring tells nobody", async () => {
    const [ann, ben] = fx.participants;
    const essay = { type: "ESSAY", body: "Why?", point: 5 };
    const shown = await fx.content("QUIZ", { title: "Essay shown", config: { resultExposeLevel: "ALL", questions: [essay] } });
    const hidden = await fx.content("QUIZ", { title: "Essay hidden", config: { resultExposeLevel: "STATUS_ONLY", questions: [essay] } });
    for (const id of [shown, hidden]) {
      const q = (await as(fx.owner).get(`/quizzes/${id}/config`)).body.questions[0];
      const attemptId = (await as(ben).post(`/quizzes/${id}/my-attempts`)).body.attempt.attemptId;
      const done = await as(ben).post(`/quizzes/${id}/my-attempts/${attemptId}/submit`, {
        answers: [{ questionId: q.id, textAnswer: "Because" }],
      });
      expect(done.status).toBe(200);
      expect(await kinds(ben, id)).toEqual([]); // pending hand scoring
      const answerId = (await as(fx.owner).get(`/quizzes/${id}/attempts/${attemptId}`)).body.answers[0].answerId;
      const path = `/quizzes/${id}/attempts/${attemptId}/answers/${answerId}/score`;
      expect((await as(fx.owner).put(path, { pointsAwarded: 4 })).status).toBe(200);
      expect((await as(fx.owner).put(path, { pointsAwarded: 5 })).status).toBe(200); // a rescore: no second one
    }
    expect(await kinds(ben, shown)).toEqual(["GRADE_RETURNED"]);
    expect(await kinds(ben, hidden)).toEqual([]);
    expect(await kinds(ann, shown)).toEqual([]);
  });
});

describe("a deleted record takes its notifications with it", () => {
  test("a deleted comment's COMMENT leaves the post author's inbox and unread count", async () => {
    const [ann] = fx.participants;
    const post = (await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Discuss" })).body.id;
    const before = await unread(fx.owner);
    const comment = await as(ann).post(`/posts/${post}/comments`, { body: "First!" });
    expect(comment.status).toBe(201);
    expect(await kinds(fx.owner, comment.body.id)).toEqual(["COMMENT"]);
    expect(await unread(fx.owner)).toBe(before + 1);
    expect((await as(ann).del(`/posts/${post}/comments/${comment.body.id}`)).status).toBe(204);
    expect(await kinds(fx.owner, comment.body.id)).toEqual([]);
    expect(await unread(fx.owner)).toBe(before);
  });

  test("a deleted post takes its POST items and its comments' COMMENT items", async () => {
    const [ann, ben] = fx.participants;
    const post = (await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Question time" })).body.id;
    expect(await kinds(ben, post)).toEqual(["POST"]);
    const comment = (await as(ann).post(`/posts/${post}/comments`, { body: "Reply" })).body.id;
    expect(await kinds(fx.owner, comment)).toEqual(["COMMENT"]);
    expect((await as(fx.owner).del(`/posts/${post}`)).status).toBe(204);
    expect(await kinds(ben, post)).toEqual([]);
    expect(await kinds(fx.owner, comment)).toEqual([]);
  });

  test("a deleted space takes its MESSAGE items (its conversations went by cascade)", async () => {
    const [ann] = fx.participants;
    const space = (await as(fx.owner).post("/spaces", { name: "Short-lived" })).body.id;
    expect((await as(fx.owner).post(`/spaces/${space}/members`, { userIds: [ann.memberId], role: "PARTICIPANT" })).status).toBe(200);
    expect((await as(fx.owner).patch(`/spaces/${space}`, { messageEnabled: true })).status).toBe(200);
    const sent = await as(ann).post(`/spaces/${space}/conversations/${ann.profileId}/messages`, { body: "Hello teacher" });
    expect(sent.status).toBe(201);
    expect(await kinds(fx.owner, sent.body.id)).toEqual(["MESSAGE"]);
    expect((await as(fx.owner).del(`/spaces/${space}`)).status).toBe(200);
    expect(await kinds(fx.owner, sent.body.id)).toEqual([]);
    const other = await as(fx.other).get("/me/notifications?limit=100");
    expect(other.status).toBe(200);
  });
});
