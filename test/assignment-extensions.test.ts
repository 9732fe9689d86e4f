import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { createContent } from "./helpers/fixture";
import { createContentSpace, expectProblem, fieldOf, forbidden, notFound, unauth, useServer } from "./helpers/server";

// docs/rules/next-year.md#extensions: setSubmissionExtension gives one participant their own deadline.
const api = useServer();
const { as, anon } = api;

let owner: Tenant;
let other: Tenant;
let admin2: Member;
let alice: Member;
let bob: Member;
let nodeId: string;

beforeAll(async () => {
  ({
    owner,
    other,
    admin2,
    nodeId,
    participants: [alice, bob],
  } = await createContentSpace(api, { spaceName: "History", participants: ["Alice", "Bob"] }));
});

const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

const assignment = (config: Record<string, unknown>) => createContent(api, owner, nodeId, "ASSIGNMENT", { title: "Essay", config });

describe("PUT /api/v1/assignments/{contentId}/extensions/{profileId} — setSubmissionExtension", () => {
  test("a per-student extension lets a student submit after the class deadline, on time", async () => {
    const id = await assignment({ dueAt: at(-2) });
    expectProblem(await as(alice).post(`/assignments/${id}/submissions`, { body: "Rome" }), 409, "DEADLINE_PASSED");
    const until = at(48);
    const ext = await as(owner).put(`/assignments/${id}/extensions/${alice.profileId}`, { dueAt: until });
    expect(ext.status).toBe(200);
    expect(ext.body).toEqual({ profileId: alice.profileId, dueAt: until });
    // Alice sees her own deadline; Bob and the teacher the class's
    expect((await as(alice).get(`/assignments/${id}/config`)).body.dueAt).toBe(until);
    expect((await as(bob).get(`/assignments/${id}/config`)).body.dueAt).not.toBe(until);
    const sub = await as(alice).post(`/assignments/${id}/submissions`, { body: "Rome" });
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ isLate: false, dueAtAtSubmit: until });
    expectProblem(await as(bob).post(`/assignments/${id}/submissions`, { body: "Carthage" }), 409, "DEADLINE_PASSED");
  });

  test("listAssignmentSubmissions lists every extension, also of a participant who has not submitted; a removed one is gone", async () => {
    const id = await assignment({ dueAt: at(-2) });
    const until = at(24);
    expect((await as(owner).get(`/assignments/${id}/submissions`)).body.extensions).toEqual([]);
    expect((await as(owner).put(`/assignments/${id}/extensions/${alice.profileId}`, { dueAt: until })).status).toBe(200);
    const listed = await as(owner).get(`/assignments/${id}/submissions`);
    expect(listed.status).toBe(200);
    expect(listed.body.submissions).toEqual([]);
    expect(listed.body.extensions).toEqual([{ profileId: alice.profileId, dueAt: until }]);
    // Another assignment's extensions are not listed here.
    const otherId = await assignment({ dueAt: at(-2) });
    await as(owner).put(`/assignments/${otherId}/extensions/${bob.profileId}`, { dueAt: until });
    expect((await as(admin2).get(`/assignments/${id}/submissions`)).body.extensions).toEqual([
      { profileId: alice.profileId, dueAt: until },
    ]);
    await as(owner).put(`/assignments/${id}/extensions/${alice.profileId}`, { dueAt: null });
    expect((await as(owner).get(`/assignments/${id}/submissions`)).body.extensions).toEqual([]);
    // A participant cannot read the list (contentManager).
    expect((await as(alice).get(`/assignments/${id}/submissions`)).status).toBe(403);
  });

  test("an extension never rewrites a submitted revision's isLate; the next submit follows it", async () => {
    const id = await assignment({ dueAt: at(-2), allowLateSubmit: true, allowResubmit: true });
    expect((await as(bob).post(`/assignments/${id}/submissions`, { body: "late" })).body.isLate).toBe(true);
    const list = async () => (await as(owner).get(`/assignments/${id}/submissions`)).body.submissions[0];
    expect((await as(admin2).put(`/assignments/${id}/extensions/${bob.profileId}`, { dueAt: at(1) })).status).toBe(200);
    expect((await list()).isLate).toBe(true);
    const again = (await as(bob).post(`/assignments/${id}/submissions`, { body: "on time now" })).body;
    expect(again.isLate).toBe(false);
    const removed = await as(owner).put(`/assignments/${id}/extensions/${bob.profileId}`, { dueAt: null });
    expect(removed.body).toEqual({ profileId: bob.profileId, dueAt: null });
    expect((await list()).isLate).toBe(false);
  });

  test("returns 400 naming dueAt or a profile that is no participant, 401, 403 to a participant, 404 across tenants and for other types", async () => {
    const id = await assignment({});
    const path = `/assignments/${id}/extensions/${alice.profileId}`;
    expect(fieldOf(await as(owner).put(path, { dueAt: "friday" }))).toBe("dueAt");
    unauth(await anon("PUT", path, { dueAt: at(1) }));
    forbidden(await as(alice).put(path, { dueAt: at(1) }));
    notFound(await as(other).put(path, { dueAt: at(1) }));
    expect(fieldOf(await as(owner).put(`/assignments/${id}/extensions/no-such-profile`, { dueAt: at(1) }))).toBe("profileId");
    expect(fieldOf(await as(owner).put(`/assignments/${id}/extensions/${admin2.profileId}`, { dueAt: at(1) }))).toBe("profileId");
    const quiz = (await as(owner).post("/library/contents", { type: "QUIZ", title: "Q", nodeId, visibility: "SHARED" })).body.id;
    notFound(await as(owner).put(`/assignments/${quiz}/extensions/${alice.profileId}`, { dueAt: at(1) }));
  });
});
