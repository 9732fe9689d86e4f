import { beforeAll, describe, expect, test } from "bun:test";
import type { ContentSpace } from "./helpers/fixture";
import { useContentSpace } from "./helpers/fixture";
import { expectProblem, fieldOf, forbidden, notFound, unauth, useServer } from "./helpers/server";

// setGroupSubmissionExtension (docs/rules/next-year.md#extensions): one group's own deadline.
const api = useServer();
const { as, anon } = api;
const fx = useContentSpace(api, { spaceName: "Design", participants: ["Ann", "Ben", "Cid"] }) as ContentSpace<["Ann", "Ben", "Cid"]>;

const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
let id: string;
let red: string;
let blue: string;

beforeAll(async () => {
  const [ann, ben, cid] = fx.participants;
  const set = await fx.groupSet("Teams", [
    { name: "Red", memberIds: [ann.memberId, ben.memberId] },
    { name: "Blue", memberIds: [cid.memberId] },
  ]);
  [red, blue] = set.groups.map((g: any) => g.id);
  id = await fx.content("GROUP_ASSIGNMENT", { config: { spaceGroupSetId: set.setId, dueAt: at(-60) } });
});

describe("PUT /api/v1/group-assignments/{contentId}/extensions/{groupId} — setGroupSubmissionExtension", () => {
  test("the extended group submits on time; the other group stays past its deadline", async () => {
    const [ann, , cid] = fx.participants;
    expectProblem(await as(ann).post(`/group-assignments/${id}/submissions`, { body: "x" }), 409, "DEADLINE_PASSED");
    const res = await as(fx.owner).put(`/group-assignments/${id}/extensions/${red}`, { dueAt: at(60) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ groupId: red, dueAt: expect.any(String) });
    expect((await as(ann).get(`/group-assignments/${id}/my-submission`)).body.config.dueAt).toBe(res.body.dueAt);
    const sub = await as(ann).post(`/group-assignments/${id}/submissions`, { body: "x" });
    expect(sub.status).toBe(201);
    expect(sub.body.isLate).toBe(false);
    expectProblem(await as(cid).post(`/group-assignments/${id}/submissions`, { body: "y" }), 409, "DEADLINE_PASSED");
    const removed = await as(fx.admin2).put(`/group-assignments/${id}/extensions/${red}`, { dueAt: null });
    expect(removed.body).toEqual({ groupId: red, dueAt: null });
    // the revision already submitted keeps its isLate
    const list = (await as(fx.owner).get(`/group-assignments/${id}/submissions`)).body.submissions;
    expect(list[0].isLate).toBe(false);
  });

  test("400 naming groupId or dueAt, 401, 403 to a participant, 404 across tenants and for another type", async () => {
    const [ann] = fx.participants;
    const path = `/group-assignments/${id}/extensions/${blue}`;
    expect(fieldOf(await as(fx.owner).put(`/group-assignments/${id}/extensions/no-group`, { dueAt: at(1) }))).toBe("groupId");
    expect(fieldOf(await as(fx.owner).put(path, { dueAt: "tomorrow" }))).toBe("dueAt");
    unauth(await anon("PUT", path, { dueAt: at(1) }));
    forbidden(await as(ann).put(path, { dueAt: at(1) }));
    notFound(await as(fx.other).put(path, { dueAt: at(1) }));
    const quiz = await fx.content("QUIZ");
    notFound(await as(fx.owner).put(`/group-assignments/${quiz}/extensions/${blue}`, { dueAt: at(1) }));
  });
});
