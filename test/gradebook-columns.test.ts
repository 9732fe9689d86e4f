import { beforeAll, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent } from "./helpers/fixture";
import { createContentSpace, fieldOf, fieldsOf, forbidden, notFound, unauth, useServer } from "./helpers/server";

// End of term (docs/rules/next-year.md#gradebook): manual columns, weights, totals, members who left,
// return all.
const api = useServer();
const { as, anon } = api;

let owner: Tenant;
let other: Tenant;
let admin2: Member;
let alice: Member;
let bob: Member;
let carol: Member;
let outsider: Member;
let spaceId: string;
let nodeId: string;
let essay: string;
let lab: string;

async function submitAndGrade(who: Member, id: string, score: number, ret = true) {
  const s = (await as(who).post(`/assignments/${id}/submissions`, { body: "x" })).body;
  expect((await as(owner).put(`/assignments/${id}/submissions/${s.id}/grade`, { score })).status).toBe(200);
  if (ret) expect((await as(owner).post(`/assignments/${id}/submissions/${s.id}/return`)).status).toBe(200);
  return s.id as string;
}

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    outsider,
    spaceId,
    nodeId,
    participants: [alice, bob, carol],
  } = await createContentSpace(api, { spaceName: "History 9", participants: ["Alice", "Bob", "Carol"] }));
  essay = await createContent(api, owner, nodeId, "ASSIGNMENT", { title: "Essay", config: { maxScore: 10 } });
  lab = await createContent(api, owner, nodeId, "ASSIGNMENT", { title: "Lab", config: { maxScore: 20 } });
  await submitAndGrade(alice, essay, 8);
  await submitAndGrade(bob, essay, 5);
  await submitAndGrade(alice, lab, 10);
});

const book = async (q = "") => {
  const res = await as(owner).get(`/spaces/${spaceId}/gradebook${q}`);
  expect(res.status).toBe(200);
  return res.body;
};
const rowOf = (b: any, who: Member) => b.rows.find((r: any) => r.profileId === who.profileId);

describe("manual columns — createGradeColumn, updateGradeColumn, setGradeColumnScores, setGradebookWeights", () => {
  let exam: string;

  test("a manual column with scores, weights and totals matching a hand computation", async () => {
    const created = await as(owner).post(`/spaces/${spaceId}/grade-columns`, { title: "Oral exam", maxScore: 50, weight: 2 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Oral exam", maxScore: 50, weight: 2 });
    exam = created.body.id;
    const scores = [
      { profileId: alice.profileId, score: 40 },
      { profileId: carol.profileId, score: 25 },
    ];
    expect((await as(owner).put(`/spaces/${spaceId}/grade-columns/${exam}/scores`, { scores })).status).toBe(204);
    expect((await as(owner).put(`/spaces/${spaceId}/gradebook/weights`, { weights: [{ contentId: lab, weight: 3 }] })).status).toBe(204);

    const b = await book();
    expect(b.columns.map((c: any) => [c.type, c.title, c.maxScore, c.weight])).toEqual([
      ["ASSIGNMENT", "Essay", 10, 1],
      ["ASSIGNMENT", "Lab", 20, 3],
      ["MANUAL", "Oral exam", 50, 2],
    ]);
    expect(b.columns[2]).toMatchObject({ contentId: null, columnId: exam });
    // Alice: essay 8/10 (w1), lab 10/20 (w3), exam 40/50 (w2) → (0.8 + 1.5 + 1.6) / 6 × 100 = 65
    expect(rowOf(b, alice).total).toBeCloseTo(65, 10);
    expect(rowOf(b, alice).cells[2]).toMatchObject({ columnId: exam, score: 40, status: "GRADED" });
    // Bob: only essay 5/10 → 50 (empty cells do not count)
    expect(rowOf(b, bob).total).toBeCloseTo(50, 10);
    // Carol: only exam 25/50 (w2) → 50
    expect(rowOf(b, carol).total).toBeCloseTo(50, 10);
    expect(rowOf(b, carol).cells[0]).toMatchObject({ contentId: essay, score: null, status: "NOT_SUBMITTED" });
  });

  test("a row without any score has total null; a cleared score leaves the total", async () => {
    const col = (await as(owner).post(`/spaces/${spaceId}/grade-columns`, { title: "Quiz bonus", maxScore: 5 })).body;
    expect(col.weight).toBe(1);
    await as(owner).put(`/spaces/${spaceId}/grade-columns/${col.id}/scores`, { scores: [{ profileId: carol.profileId, score: 5 }] });
    // Carol: exam 25/50 (w2) + bonus 5/5 (w1) → (1 + 1) / 3 × 100
    expect(rowOf(await book(), carol).total).toBeCloseTo(200 / 3, 10);
    await as(owner).put(`/spaces/${spaceId}/grade-columns/${col.id}/scores`, { scores: [{ profileId: carol.profileId, score: null }] });
    expect(rowOf(await book(), carol).total).toBeCloseTo(50, 10);
    expect((await as(owner).del(`/spaces/${spaceId}/grade-columns/${col.id}`)).status).toBe(204);
    expect((await book()).columns.length).toBe(3);
    notFound(await as(owner).del(`/spaces/${spaceId}/grade-columns/${col.id}`));
  });

  test("updateGradeColumn renames and reweighs; a maxScore below an entered score is 400", async () => {
    const res = await as(owner).patch(`/spaces/${spaceId}/grade-columns/${exam}`, { title: "Oral", weight: 2 });
    expect(res.body).toMatchObject({ id: exam, title: "Oral", maxScore: 50, weight: 2 });
    expect(fieldOf(await as(owner).patch(`/spaces/${spaceId}/grade-columns/${exam}`, { maxScore: 30 }))).toBe("maxScore");
  });

  test("the CSV adds the manual columns and the total", async () => {
    const res = await fetch(`${api.url}/api/v1/spaces/${spaceId}/gradebook`, {
      headers: { authorization: `Bearer ${owner.token}`, accept: "text/csv" },
    });
    const parsed = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true });
    expect(parsed.data[0]).toEqual(["displayName", "userId", "Essay", "Lab", "Oral", "total"]);
    const alices = parsed.data.find((r) => r[0] === "Alice");
    expect(alices?.slice(2)).toEqual(["8", "10", "40", "65"]);
  });

  test("400: bounds of each body", async () => {
    const post = (body: unknown) => as(owner).post(`/spaces/${spaceId}/grade-columns`, body);
    expect(fieldOf(await post({ title: "", maxScore: 10 }))).toBe("title");
    expect(fieldOf(await post({ title: "x".repeat(101), maxScore: 10 }))).toBe("title");
    expect(fieldOf(await post({ title: "A", maxScore: 0 }))).toBe("maxScore");
    expect(fieldOf(await post({ title: "A", maxScore: 10, weight: -1 }))).toBe("weight");
    expect(fieldOf(await post({ title: "A" }))).toBe("maxScore");
    const put = (scores: unknown) => as(owner).put(`/spaces/${spaceId}/grade-columns/${exam}/scores`, { scores });
    expect(fieldOf(await put([]))).toBe("scores");
    expect(fieldOf(await put([{ profileId: alice.profileId, score: 51 }]))).toBe("scores[0].score");
    expect(fieldOf(await put([{ profileId: alice.profileId, score: -1 }]))).toBe("scores[0].score");
    expect(fieldOf(await put([{ profileId: outsider.profileId, score: 1 }]))).toBe("scores[0].profileId");
    expect(fieldOf(await put([{ profileId: admin2.profileId, score: 1 }]))).toBe("scores[0].profileId");
    expect(
      fieldsOf(
        await put([
          { profileId: bob.profileId, score: 1 },
          { profileId: bob.profileId, score: 2 },
        ]),
      ),
    ).toEqual(["scores[1].profileId"]);
    const weights = (w: unknown) => as(owner).put(`/spaces/${spaceId}/gradebook/weights`, { weights: w });
    expect(fieldOf(await weights([{ weight: 1 }]))).toBe("weights[0]");
    expect(fieldOf(await weights([{ contentId: essay, columnId: exam, weight: 1 }]))).toBe("weights[0]");
    expect(fieldOf(await weights([{ contentId: "nope", weight: 1 }]))).toBe("weights[0].contentId");
    expect(fieldOf(await weights([{ columnId: "nope", weight: 1 }]))).toBe("weights[0].columnId");
    expect(fieldOf(await weights([{ contentId: essay, weight: 1001 }]))).toBe("weights[0].weight");
    // nothing changed
    expect(rowOf(await book(), alice).total).toBeCloseTo(65, 10);
  });

  test("401, 403 for a participant, 404 for another tenant", async () => {
    unauth(await anon("POST", `/spaces/${spaceId}/grade-columns`, { title: "A", maxScore: 1 }));
    forbidden(await as(alice).post(`/spaces/${spaceId}/grade-columns`, { title: "A", maxScore: 1 }));
    forbidden(
      await as(alice).put(`/spaces/${spaceId}/grade-columns/${exam}/scores`, { scores: [{ profileId: alice.profileId, score: 50 }] }),
    );
    forbidden(await as(alice).put(`/spaces/${spaceId}/gradebook/weights`, { weights: [{ columnId: exam, weight: 0 }] }));
    notFound(await as(other).post(`/spaces/${spaceId}/grade-columns`, { title: "A", maxScore: 1 }));
    notFound(await as(other).patch(`/spaces/${spaceId}/grade-columns/${exam}`, { title: "B" }));
    notFound(await as(other).del(`/spaces/${spaceId}/grade-columns/${exam}`));
    notFound(await as(outsider).put(`/spaces/${spaceId}/gradebook/weights`, { weights: [{ columnId: exam, weight: 0 }] }));
    expect((await as(admin2).patch(`/spaces/${spaceId}/grade-columns/${exam}`, { title: "Oral exam" })).status).toBe(200);
  });

  test("a participant's own grades show manual scores and their total", async () => {
    const mine = await as(alice).get(`/spaces/${spaceId}/my-grades`);
    expect(mine.status).toBe(200);
    expect(mine.body.row.cells.map((c: any) => c.score)).toEqual([8, 10, 40]);
    expect(mine.body.row.total).toBeCloseTo(65, 10);
  });
});

describe("getSpaceGradebook — includeInactive", () => {
  test("members who left keep a row (isActive false) only with includeInactive", async () => {
    expect((await as(owner).del(`/spaces/${spaceId}/members/${bob.memberId}`)).status).toBe(204);
    const without = await book();
    expect(rowOf(without, bob)).toBeUndefined();
    expect(without.rows.every((r: any) => r.isActive)).toBe(true);
    const withInactive = await book("?includeInactive=true");
    expect(rowOf(withInactive, bob)).toMatchObject({ isActive: false, total: 50 });
    expect(rowOf(withInactive, alice).isActive).toBe(true);
    expect(fieldOf(await as(owner).get(`/spaces/${spaceId}/gradebook?includeInactive=yes`))).toBe("includeInactive");
  });
});

describe("POST /api/v1/assignments/{contentId}/return-all — returnAllSubmissions", () => {
  test("returns every GRADED latest revision, leaves SUBMITTED ones", async () => {
    const hw = await createContent(api, owner, nodeId, "ASSIGNMENT", { title: "Homework", config: { maxScore: 10 } });
    await submitAndGrade(alice, hw, 7, false);
    await as(carol).post(`/assignments/${hw}/submissions`, { body: "late" });
    forbidden(await as(alice).post(`/assignments/${hw}/return-all`));
    notFound(await as(other).post(`/assignments/${hw}/return-all`));
    unauth(await anon("POST", `/assignments/${hw}/return-all`));
    expect((await as(alice).get(`/assignments/${hw}/my-submission`)).body.latest.score).toBeNull();
    const res = await as(owner).post(`/assignments/${hw}/return-all`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ returned: 1 });
    const list = (await as(owner).get(`/assignments/${hw}/submissions`)).body.submissions;
    expect(list.map((s: any) => s.status).sort()).toEqual(["RETURNED", "SUBMITTED"]);
    expect((await as(alice).get(`/assignments/${hw}/my-submission`)).body.latest).toMatchObject({ status: "RETURNED", score: 7 });
    expect((await as(owner).post(`/assignments/${hw}/return-all`)).body).toEqual({ returned: 0 });
  });
});
