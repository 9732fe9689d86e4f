import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import Papa from "papaparse";
import { members } from "../src/schema/members";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent } from "./helpers/fixture";
import { createContentSpace, createMemberFixture, forbidden, notFound, unauth, untilSimilaritySettled, useServer } from "./helpers/server";

// docs/rules/next-year.md#gradebook: the teacher's whole class at a glance (JSON or a CSV for Excel), and each
// student's own released grades.
const api = useServer();
const { as, anon } = api;

let owner: Tenant;
let other: Tenant;
let admin2: Member;
let alice: Member;
let bob: Member;
let gone: Member; // deactivated: no row
let outsider: Member;
let spaceId: string;
let essay: string;
let project: string;
let quiz: string;
let secretQuiz: string;

const content = (type: string, title: string, visibility = "SHARED") =>
  createContent(api, owner, nodeId, type, { title, body: { visibility } });
let nodeId: string;

const QUESTIONS = [
  { type: "SINGLE", body: "2+2", point: 2, options: [{ body: "4", isCorrect: true }, { body: "5" }] },
  { type: "SINGLE", body: "3+3", point: 3, options: [{ body: "6", isCorrect: true }, { body: "7" }] },
];

/** Takes the quiz once, answering the first `right` questions correctly. */
async function take(who: Member, id: string, right: number) {
  const attempt = (await as(who).post(`/quizzes/${id}/my-attempts`)).body.attempt;
  const answers = attempt.questions.slice(0, right).map((q: any) => ({
    questionId: q.id,
    selectedOptionIds: [q.options.find((o: any) => ["4", "6"].includes(o.body)).id],
  }));
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
    participants: [alice, bob, , gone], // the third has a name that needs CSV quoting
  } = await createContentSpace(api, {
    spaceName: "Maths 7B",
    participants: ["Alice", "Bob", 'Zed "Z", Jr', "Gone"],
  }));
  essay = await content("ASSIGNMENT", "Essay, part 1");
  await as(owner).put(`/assignments/${essay}/config`, { maxScore: 10 });
  await content("ASSIGNMENT", "Draft homework", "PRIVATE");
  const set = (
    await as(owner).post(`/spaces/${spaceId}/group-sets`, {
      name: "Teams",
      groups: [{ name: "Red", memberIds: [alice.memberId, bob.memberId] }],
    })
  ).body;
  project = await content("GROUP_ASSIGNMENT", "Project");
  await as(owner).put(`/group-assignments/${project}/config`, { spaceGroupSetId: set.id, maxScore: 20 });
  quiz = await content("QUIZ", "Quiz 1");
  await as(owner).put(`/quizzes/${quiz}/config`, { questions: QUESTIONS, scoreAggregation: "AVERAGE" });
  secretQuiz = await content("QUIZ", "=Quiz 2");
  await as(owner).put(`/quizzes/${secretQuiz}/config`, { questions: QUESTIONS, resultExposeLevel: "STATUS_ONLY" });

  // the term's work
  const a = (await as(alice).post(`/assignments/${essay}/submissions`, { body: "x" })).body;
  const b = (await as(bob).post(`/assignments/${essay}/submissions`, { body: "y" })).body;
  await as(owner).put(`/assignments/${essay}/submissions/${a.id}/grade`, { score: 8 });
  await as(owner).post(`/assignments/${essay}/submissions/${a.id}/return`);
  await as(owner).put(`/assignments/${essay}/submissions/${b.id}/grade`, { score: 6 }); // graded, not returned
  const g = (await as(bob).post(`/group-assignments/${project}/submissions`, { body: "team" })).body;
  await as(owner).put(`/group-assignments/${project}/submissions/${g.id}/grade`, { score: 15 });
  await as(owner).put(`/group-assignments/${project}/submissions/${g.id}/member-scores`, {
    scores: [{ profileId: bob.profileId, score: 18 }],
  });
  await as(owner).post(`/group-assignments/${project}/submissions/${g.id}/return`);
  await take(alice, quiz, 2); // 5
  await take(alice, quiz, 1); // 2 → AVERAGE 3.5
  await take(alice, secretQuiz, 1);
  await take(gone, quiz, 2);
  // the member who left the school is deactivated (the member area's updateMember writes this flag)
  api.server.rt.tenants.use(owner.tenantId, (h) =>
    h.db.update(members).set({ isActive: false }).where(eq(members.id, gone.memberId)).run(),
  );
});

const cellOf = (row: any, id: string) => row.cells.find((c: any) => c.contentId === id);

describe("GET /api/v1/spaces/{spaceId}/gradebook — getSpaceGradebook", () => {
  test("JSON: a column per shared gradable content, a row per active participant, scores per aggregation", async () => {
    const res = await as(owner).get(`/spaces/${spaceId}/gradebook`);
    expect(res.status).toBe(200);
    expect(res.body.columns).toEqual([
      { contentId: essay, type: "ASSIGNMENT", title: "Essay, part 1", maxScore: 10, weight: 1 },
      { contentId: project, type: "GROUP_ASSIGNMENT", title: "Project", maxScore: 20, weight: 1 },
      { contentId: quiz, type: "QUIZ", title: "Quiz 1", maxScore: 5, weight: 1 },
      { contentId: secretQuiz, type: "QUIZ", title: "=Quiz 2", maxScore: 5, weight: 1 },
    ]);
    expect(res.body.rows.map((r: any) => r.displayName)).toEqual(["Alice", "Bob", 'Zed "Z", Jr']);
    const [a, b, z] = res.body.rows;
    expect(a).toMatchObject({ profileId: alice.profileId, userId: null, isActive: true });
    expect(a.cells).toEqual([
      { contentId: essay, score: 8, status: "RETURNED" },
      { contentId: project, score: 15, status: "RETURNED" },
      { contentId: quiz, score: 3.5, status: "GRADED" },
      { contentId: secretQuiz, score: 2, status: "GRADED" },
    ]);
    // (8/10 + 15/20 + 3.5/5 + 2/5) / 4 × 100, every weight 1
    expect(a.total).toBeCloseTo(66.25, 10);
    expect(b.cells.map((c: any) => [c.score, c.status])).toEqual([
      [6, "GRADED"],
      [18, "RETURNED"],
      [null, "NOT_SUBMITTED"],
      [null, "NOT_SUBMITTED"],
    ]);
    expect(z.cells.every((c: any) => c.score === null && c.status === "NOT_SUBMITTED")).toBe(true);
  });

  test("a deactivated member keeps their attempts but leaves the rows and the 'who should answer' count", async () => {
    // of Alice, Bob and Zed only Alice took the second quiz; Gone is inactive and not counted
    expect((await as(owner).get(`/quizzes/${secretQuiz}/statistics`)).body).toMatchObject({ submittedCount: 1, notSubmittedCount: 2 });
    expect((await as(owner).get(`/quizzes/${quiz}/statistics`)).body.submittedCount).toBe(2);
  });

  test("CSV for Excel: UTF-8 with a BOM, quoted where needed, an empty cell for no score", async () => {
    const res = await fetch(`${api.url}/api/v1/spaces/${spaceId}/gradebook`, {
      headers: { authorization: `Bearer ${owner.token}`, accept: "text/csv" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([
      ["displayName", "userId", "Essay, part 1", "Project", "Quiz 1", "'=Quiz 2", "total"],
      ["Alice", "", "8", "15", "3.5", "2", "66.25"],
      ["Bob", "", "6", "18", "", "", "75"],
      ['Zed "Z", Jr', "", "", "", "", "", ""],
    ]);
  });

  test("returns 401, 403 to a participant (any ADMIN may read it), 404 across tenants and for unknown spaces", async () => {
    unauth(await anon("GET", `/spaces/${spaceId}/gradebook`));
    forbidden(await as(alice).get(`/spaces/${spaceId}/gradebook`));
    notFound(await as(other).get(`/spaces/${spaceId}/gradebook`));
    notFound(await as(outsider).get(`/spaces/${spaceId}/gradebook`));
    notFound(await as(owner).get("/spaces/no-such-space/gradebook"));
    expect((await as(admin2).get(`/spaces/${spaceId}/gradebook`)).status).toBe(200);
  });
});

describe("GET /api/v1/spaces/{spaceId}/my-grades — getMyGrades", () => {
  test("the caller's row: returned grades and released quiz results only", async () => {
    const mine = await as(alice).get(`/spaces/${spaceId}/my-grades`);
    expect(mine.status).toBe(200);
    expect(mine.body.columns.map((c: any) => c.contentId)).toEqual([essay, project, quiz, secretQuiz]);
    expect(mine.body.row).toMatchObject({ profileId: alice.profileId, displayName: "Alice" });
    expect(mine.body.row.cells.map((c: any) => [c.score, c.status])).toEqual([
      [8, "RETURNED"],
      [15, "RETURNED"],
      [3.5, "GRADED"],
      [null, "GRADED"], // STATUS_ONLY: the result is not released
    ]);
    const bobs = (await as(bob).get(`/spaces/${spaceId}/my-grades`)).body.row.cells;
    expect(cellOf({ cells: bobs }, essay)).toEqual({ contentId: essay, score: null, status: "GRADED" }); // not returned yet
    expect(cellOf({ cells: bobs }, project).score).toBe(18);
  });

  test("returns 401, 404 across tenants and to a member who cannot see the space", async () => {
    unauth(await anon("GET", `/spaces/${spaceId}/my-grades`));
    notFound(await as(other).get(`/spaces/${spaceId}/my-grades`));
    notFound(await as(outsider).get(`/spaces/${spaceId}/my-grades`));
  });

  test("returns 403 to a member who sees a public space without being enrolled", async () => {
    const pub = (await as(owner).post("/spaces", { name: "Open day", isPublic: true })).body.id;
    forbidden(await as(outsider).get(`/spaces/${pub}/my-grades`));
  });
});

describe("getSpaceGradebook cost", () => {
  /** How many SQL statements the tenant's Drizzle handle runs during `fn` (its client is asked for each one, cached or not). */
  async function countStatements(fn: () => Promise<unknown>) {
    const client = api.server.rt.tenants.use(
      owner.tenantId,
      (h) => (h.db as unknown as { session: { client: { prepare: (sql: string) => unknown } } }).session.client,
    );
    const prepare = client.prepare;
    let n = 0;
    client.prepare = (sql: string) => {
      n++;
      return prepare(sql);
    };
    try {
      await fn();
    } finally {
      client.prepare = prepare;
    }
    return n;
  }

  test("a fixed number of queries: more students with more work add none", async () => {
    // The fewest of three reads: a background job on the same handle (a notification's fan-out, landing
    // late on busy cores) can prepare a statement inside one read's window, never inside all three.
    const once = () =>
      countStatements(async () => {
        expect((await as(owner).get(`/spaces/${spaceId}/gradebook`)).status).toBe(200);
      });
    const run = async () => Math.min(await once(), await once(), await once());
    const before = await run();
    const late = [];
    for (const displayName of ["Yara", "Xavi"]) late.push(await createMemberFixture(api.server, owner, { displayName }));
    const enrol = await as(owner).post(`/spaces/${spaceId}/members`, { userIds: late.map((m) => m.memberId), role: "PARTICIPANT" });
    expect(enrol.status).toBe(200);
    for (const m of late) {
      expect((await as(m).post(`/assignments/${essay}/submissions`, { body: "hi" })).status).toBe(201);
      await take(m, quiz, 1);
    }
    // the submissions' background similarity checks read on the same handle: let them finish first
    await untilSimilaritySettled((p) => as(owner).get(p), `/assignments/${essay}/submissions`);
    const after = await run();
    expect((await as(owner).get(`/spaces/${spaceId}/gradebook`)).body.rows).toHaveLength(5);
    expect(before).toBeGreaterThan(10);
    expect(after).toBe(before);
  });
});
