import { beforeAll, describe, expect, test } from "bun:test";
import type { Member, Tenant } from "./helpers/fixture";
import { uploadFile } from "./helpers/fixture";
import {
  createMemberFixture,
  createTenantFixture,
  expectProblem,
  fieldOf,
  fieldsOf,
  forbidden,
  ISO,
  notFound,
  unauth,
  useServer,
} from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant; // owner of the space (ADMIN)
let other: Tenant; // another tenant
let admin2: Member; // second ADMIN of the space
let p1: Member; // PARTICIPANT
let p2: Member; // PARTICIPANT
let p3: Member; // PARTICIPANT
let outsider: Member; // enrolled nowhere
let spaceId: string;
let publicSpaceId: string; // outsider sees it without being enrolled
let nodeId: string;

const DAY = 86_400_000;
const at = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();
const task = (title: string, start: number, deadline: number | null = null, extra: Record<string, unknown> = {}) => ({
  title,
  startedAt: at(start),
  ...(deadline === null ? {} : { deadline: at(deadline) }),
  ...extra,
});

beforeAll(async () => {
  owner = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  admin2 = await createMemberFixture(api.server, owner, { displayName: "Admin Two" });
  p1 = await createMemberFixture(api.server, owner, { displayName: "Alice" });
  p2 = await createMemberFixture(api.server, owner, { displayName: "Bob" });
  p3 = await createMemberFixture(api.server, owner, { displayName: "Carol" });
  outsider = await createMemberFixture(api.server, owner, { displayName: "Outsider" });
  const s = await as(owner).post("/spaces", { name: "Challenge space" });
  expect(s.status).toBe(201);
  spaceId = s.body.id;
  for (const [ids, role] of [
    [[p1.memberId, p2.memberId, p3.memberId], "PARTICIPANT"],
    [[admin2.memberId], "ADMIN"],
  ] as const) {
    expect((await as(owner).post(`/spaces/${spaceId}/members`, { userIds: ids, role })).status).toBe(200);
  }
  const pub = await as(owner).post("/spaces", { name: "Open space", isPublic: true });
  expect(pub.status).toBe(201);
  publicSpaceId = pub.body.id;
  const n = await as(owner).post("/library/nodes", { title: "Folder", spaceId });
  expect(n.status).toBe(201);
  nodeId = n.body.id;
});

/** A challenge made by `who` (default the owner) in the space; returns the detail. */
async function newChallenge(body: Record<string, unknown> = {}, who: { token: string } = owner, space = spaceId) {
  const res = await as(who).post(`/spaces/${space}/challenges`, {
    title: "Read daily",
    emoji: "📚",
    tasks: [task("Day 1", -1, 2), task("Day 2", -1, 3)],
    ...body,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const path = (c: { id: string }, rest = "") => `/spaces/${spaceId}/challenges/${c.id}${rest}`;

const upload = (who: { token: string }, fileName = "a.txt", contentType = "text/plain", bytes = "hello") =>
  uploadFile(api, who, { fileName, contentType, bytes });
const fetchUrl = (url: string) => fetch(url.replace(api.server.rt.config.publicUrl, api.url));

describe("POST /api/v1/spaces/{spaceId}/challenges — createChallenge", () => {
  test("a participant creates one: detail with derived dates, ordered tasks, the caller's view; the read returns the same", async () => {
    const res = await as(p1).post(`/spaces/${spaceId}/challenges`, {
      title: "Walk",
      emoji: "🚶",
      body: "Every day",
      includeAuthor: true,
      reminderMinutes: [30, 1440],
      tasks: [
        task("Second", 0.5, 4, { index: 5, guide: "Go", defaultTags: ["a", "b"] }),
        task("First", -1, 2, { index: 1, type: "CHECK_TASK" }),
      ],
    });
    expect(res.status).toBe(201);
    const c = res.body;
    expect(c).toMatchObject({
      spaceId,
      title: "Walk",
      emoji: "🚶",
      body: "Every day",
      authorName: "Alice",
      isWrittenByAdmin: false,
      state: "ONGOING",
      memberCount: 1,
      totalTaskCount: 2,
      joined: true,
      progress: 0,
      totalProgress: 0,
      doneTaskCount: 0,
      reminderMinutes: [30, 1440],
      attachments: [],
    });
    expect(c.createdAt).toMatch(ISO);
    expect(c.tasks.map((t: any) => [t.title, t.index])).toEqual([
      ["First", 0],
      ["Second", 1],
    ]);
    expect(c.tasks[1]).toMatchObject({
      guide: "Go",
      type: "CHECK_TASK",
      defaultTags: ["a", "b"],
      targetContentId: null,
      done: false,
      completedAt: null,
    });
    expect(c.tasks[0].guide).toBeNull();
    // startedAt = earliest start, endedAt = latest deadline
    expect(c.startedAt).toBe(c.tasks[0].startedAt);
    expect(c.endedAt).toBe(c.tasks[1].deadline);
    const read = await as(p1).get(path(c));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(c);
    // another member sees it without having joined
    const seen = await as(p2).get(path(c));
    expect(seen.body).toMatchObject({ joined: false, progress: 0, memberCount: 1 });
  });

  test("defaults: body empty, no reminders, the author not a member; an ADMIN's challenge isWrittenByAdmin", async () => {
    const c = await newChallenge({ tasks: [task("T", -1)] });
    expect(c).toMatchObject({ body: "", reminderMinutes: [], memberCount: 0, joined: false, isWrittenByAdmin: true, authorName: "Owner" });
    expect(c.endedAt).toBeNull(); // a task without deadline
  });

  test("state follows the task dates: BEFORE_START, ONGOING, FINISHED", async () => {
    expect((await newChallenge({ tasks: [task("Later", 1, 2)] })).state).toBe("BEFORE_START");
    expect((await newChallenge({ tasks: [task("Now", -1, 1)] })).state).toBe("ONGOING");
    expect((await newChallenge({ tasks: [task("Past", -3, -2), task("Past 2", -2, -1)] })).state).toBe("FINISHED");
  });

  test("attaches the caller's ready files with download URLs", async () => {
    const f = await upload(p1, "plan.txt", "text/plain", "PLAN");
    const c = await newChallenge({ fileIds: [f] }, p1);
    expect(c.attachments).toHaveLength(1);
    expect(c.attachments[0]).toMatchObject({ fileId: f, name: "plan.txt", contentType: "text/plain", size: 4 });
    expect(await (await fetchUrl(c.attachments[0].url)).text()).toBe("PLAN");
  });

  test("a download URL stops working once the reader has left the space (docs/rules/files.md#download-rules)", async () => {
    const leaver = await createMemberFixture(api.server, owner, { displayName: "Leaver" });
    expect((await as(owner).post(`/spaces/${spaceId}/members`, { userIds: [leaver.memberId], role: "PARTICIPANT" })).status).toBe(200);
    const c = await newChallenge({ fileIds: [await upload(owner, "rules.txt", "text/plain", "RULES")] });
    const url = (await as(leaver).get(path(c))).body.attachments[0].url;
    expect((await fetchUrl(url)).status).toBe(200);
    expect((await as(leaver).post(`/spaces/${spaceId}/leave`)).status).toBe(204);
    expect((await fetchUrl(url)).status).toBe(404);
  });

  test("a task may target a content of the space's folder; deleting the content clears targetContentId", async () => {
    const content = await as(owner).post("/library/contents", { type: "DOCUMENT", title: "Doc", nodeId, visibility: "SHARED" });
    expect(content.status).toBe(201);
    const c = await newChallenge({ tasks: [task("Read it", -1, 1, { targetContentId: content.body.id })] }, p1);
    expect(c.tasks[0].targetContentId).toBe(content.body.id);
    expect((await as(owner).del(`/library/contents/${content.body.id}`)).status).toBe(204);
    const read = await as(p1).get(path(c));
    expect(read.body.tasks[0].targetContentId).toBeNull();
  });

  test("400 for a target content the caller cannot see (another's draft) or that does not exist", async () => {
    const draft = await as(owner).post("/library/contents", { type: "DOCUMENT", title: "Draft", nodeId });
    expect(draft.status).toBe(201);
    const res = await as(p1).post(`/spaces/${spaceId}/challenges`, {
      title: "X",
      emoji: "x",
      tasks: [task("ok", 0), task("A", 0, null, { targetContentId: draft.body.id }), task("B", 0, null, { targetContentId: "nope" })],
    });
    expect(fieldsOf(res)).toEqual(["tasks[1].targetContentId", "tasks[2].targetContentId"]);
  });

  test("a target must be in this space's folders or the tenant library: another space's content is 400", async () => {
    const lib = await as(owner).post("/library/contents", { type: "DOCUMENT", title: "Tenant doc", visibility: "PUBLIC" });
    expect(lib.status).toBe(201);
    const otherNode = await as(owner).post("/library/nodes", { title: "Elsewhere", spaceId: publicSpaceId });
    const elsewhere = await as(owner).post("/library/contents", {
      type: "DOCUMENT",
      title: "Other space doc",
      nodeId: otherNode.body.id,
      visibility: "PUBLIC",
    });
    expect(elsewhere.status).toBe(201);
    const ok = await newChallenge({ tasks: [task("Lib", 0, null, { targetContentId: lib.body.id })] });
    expect(ok.tasks[0].targetContentId).toBe(lib.body.id);
    const res = await as(owner).post(`/spaces/${spaceId}/challenges`, {
      title: "X",
      emoji: "x",
      tasks: [task("B", 0, null, { targetContentId: elsewhere.body.id })],
    });
    expect(fieldsOf(res)).toEqual(["tasks[0].targetContentId"]);
  });

  test("400 names each bound", async () => {
    const base = { title: "T", emoji: "e", tasks: [task("t", 0)] };
    const post = (body: unknown) => as(p1).post(`/spaces/${spaceId}/challenges`, body);
    expect(fieldOf(await post({ ...base, title: "" }))).toBe("title");
    expect(fieldOf(await post({ ...base, title: "x".repeat(31) }))).toBe("title");
    expect(fieldOf(await post({ emoji: "e", tasks: base.tasks }))).toBe("title");
    expect(fieldOf(await post({ ...base, emoji: "" }))).toBe("emoji");
    expect(fieldOf(await post({ ...base, emoji: "e".repeat(17) }))).toBe("emoji");
    expect(fieldOf(await post({ ...base, emoji: "🔥".repeat(17) }))).toBe("emoji");
    expect(fieldOf(await post({ ...base, title: "🏃".repeat(31) }))).toBe("title");
    // "characters" are code points: nine (or sixteen) 🔥 are 18 (32) UTF-16 units but fit 1..16
    for (const emoji of ["🔥".repeat(9), "🔥".repeat(16)])
      expect((await post({ ...base, emoji, title: "🏃".repeat(30) })).status).toBe(201);
    expect(fieldOf(await post({ ...base, body: "b".repeat(15001) }))).toBe("body");
    expect(fieldOf(await post({ ...base, tasks: [] }))).toBe("tasks");
    expect(fieldOf(await post({ title: "T", emoji: "e" }))).toBe("tasks");
    expect(fieldOf(await post({ ...base, tasks: Array.from({ length: 101 }, () => task("t", 0)) }))).toBe("tasks");
    expect(fieldOf(await post({ ...base, tasks: [task("t", 0), { startedAt: at(0) }] }))).toBe("tasks[1].title");
    expect(fieldOf(await post({ ...base, tasks: [task("x".repeat(31), 0)] }))).toBe("tasks[0].title");
    expect(fieldOf(await post({ ...base, tasks: [{ title: "t" }] }))).toBe("tasks[0].startedAt");
    expect(fieldOf(await post({ ...base, tasks: [{ title: "t", startedAt: "yesterday" }] }))).toBe("tasks[0].startedAt");
    expect(fieldOf(await post({ ...base, tasks: [task("t", 0, -1)] }))).toBe("tasks[0].deadline");
    expect(fieldOf(await post({ ...base, tasks: [task("t", 0, null, { type: "QUIZ_TASK" })] }))).toBe("tasks[0].type");
    expect(fieldOf(await post({ ...base, tasks: [task("t", 0, null, { id: "unknown" })] }))).toBe("tasks[0].id");
    expect(fieldOf(await post({ ...base, fileIds: Array.from({ length: 21 }, (_, i) => `f${i}`) }))).toBe("fileIds");
    // a task's guide, index and defaultTags have no bound in the API
    const free = task("t", 0, null, {
      guide: "g".repeat(20000),
      index: 10000,
      defaultTags: Array.from({ length: 60 }, () => "x".repeat(60)),
    });
    const created = await post({ ...base, tasks: [free] });
    expect(created.status).toBe(201);
    expect(created.body.tasks[0].guide).toHaveLength(20000);
    expect(created.body.tasks[0].defaultTags).toHaveLength(60);
    expect(fieldOf(await post({ ...base, fileIds: ["not-mine"] }))).toBe("fileIds[0]");
    expect(fieldOf(await post({ ...base, reminderMinutes: [1, 2, 3, 4, 5, 6] }))).toBe("reminderMinutes");
    expect(fieldOf(await post({ ...base, reminderMinutes: [0] }))).toBe("reminderMinutes[0]");
    expect(fieldOf(await post({ ...base, reminderMinutes: [43201] }))).toBe("reminderMinutes[0]");
    expect((await post({ ...base, reminderMinutes: [43200] })).status).toBe(201);
  });

  test("401 without a token", async () => {
    unauth(await anon("POST", `/spaces/${spaceId}/challenges`, { title: "T", emoji: "e", tasks: [task("t", 0)] }));
  });

  test("403 in a visible space where the caller is not enrolled; 404 in an invisible or another tenant's space", async () => {
    const body = { title: "T", emoji: "e", tasks: [task("t", 0)] };
    forbidden(await as(outsider).post(`/spaces/${publicSpaceId}/challenges`, body));
    notFound(await as(outsider).post(`/spaces/${spaceId}/challenges`, body));
    notFound(await as(other).post(`/spaces/${spaceId}/challenges`, body));
    notFound(await as(p1).post("/spaces/nope/challenges", body));
  });
});

describe("GET /api/v1/spaces/{spaceId}/challenges/{challengeId} — getChallenge", () => {
  test("404 for an unknown id, a challenge of another space, another tenant; 403 for a non-enrolled viewer of a public space", async () => {
    const c = await newChallenge();
    notFound(await as(p1).get(`/spaces/${spaceId}/challenges/nope`));
    notFound(await as(owner).get(`/spaces/${publicSpaceId}/challenges/${c.id}`));
    notFound(await as(other).get(path(c)));
    notFound(await as(outsider).get(path(c)));
    const pc = await newChallenge({}, owner, publicSpaceId);
    forbidden(await as(outsider).get(`/spaces/${publicSpaceId}/challenges/${pc.id}`));
    unauth(await anon("GET", path(c)));
  });
});

describe("GET /api/v1/spaces/{spaceId}/challenges — listChallenges", () => {
  test("newest first; filters joined and state; the caller's progress", async () => {
    const s = await as(owner).post("/spaces", { name: "List space" });
    const sid = s.body.id;
    await as(owner).post(`/spaces/${sid}/members`, { userIds: [p1.memberId], role: "PARTICIPANT" });
    const a = await newChallenge({ title: "A", tasks: [task("t", -2, -1)] }, owner, sid);
    const b = await newChallenge({ title: "B", tasks: [task("t", 1)] }, owner, sid);
    const c = await newChallenge({ title: "C", tasks: [task("t", -1, 1)], includeAuthor: true }, p1, sid);
    const list = (q = "") => as(p1).get(`/spaces/${sid}/challenges${q}`);
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.challenges.map((x: any) => x.title)).toEqual(["C", "B", "A"]);
    expect(all.body.challenges[0]).toMatchObject({ id: c.id, joined: true, memberCount: 1, totalTaskCount: 1, state: "ONGOING" });
    expect(all.body.challenges[0].body).toBeUndefined(); // summary only
    expect((await list("?joined=true")).body.challenges.map((x: any) => x.id)).toEqual([c.id]);
    expect((await list("?joined=false")).body.challenges.map((x: any) => x.id)).toEqual([b.id, a.id]);
    expect((await list("?state=FINISHED")).body.challenges.map((x: any) => x.id)).toEqual([a.id]);
    expect((await list("?state=BEFORE_START")).body.challenges.map((x: any) => x.id)).toEqual([b.id]);
    expect((await list("?state=ONGOING&joined=true")).body.challenges.map((x: any) => x.id)).toEqual([c.id]);
    // progress after completing the one task
    expect((await as(p1).put(`/spaces/${sid}/challenges/${c.id}/tasks/${c.tasks[0].id}/completion`)).status).toBe(200);
    const after = (await list("?joined=true")).body.challenges[0];
    expect(after).toMatchObject({ progress: 100, totalProgress: 100 });
  });

  test("400 for bad filters; 401; 403 not enrolled in a visible space; 404 invisible or another tenant", async () => {
    expect(fieldOf(await as(p1).get(`/spaces/${spaceId}/challenges?state=DONE`))).toBe("state");
    expect(fieldOf(await as(p1).get(`/spaces/${spaceId}/challenges?joined=yes`))).toBe("joined");
    unauth(await anon("GET", `/spaces/${spaceId}/challenges`));
    forbidden(await as(outsider).get(`/spaces/${publicSpaceId}/challenges`));
    notFound(await as(outsider).get(`/spaces/${spaceId}/challenges`));
    notFound(await as(other).get(`/spaces/${spaceId}/challenges`));
  });
});

describe("PUT /api/v1/spaces/{spaceId}/challenges/{challengeId} — updateChallenge", () => {
  test("check order as createPost (errors.md check order): body references are 400 before the 404 and the 403", async () => {
    const c = await newChallenge({}, owner);
    const bad = { title: "T", emoji: "e", tasks: [task("t", 0)], fileIds: ["no-such-file"] };
    expect(fieldOf(await as(p1).put(path(c), bad))).toBe("fileIds[0]"); // not its manager: would be 403
    expect(fieldOf(await as(outsider).put(path(c), bad))).toBe("fileIds[0]"); // space invisible: would be 404
    expect(fieldOf(await as(owner).put(`/spaces/${spaceId}/challenges/nope`, bad))).toBe("fileIds[0]");
    const unknownTask = { ...bad, fileIds: [], tasks: [task("t", 0, null, { id: "nope" })] };
    expect(fieldOf(await as(p1).put(path(c), unknownTask))).toBe("tasks[0].id");
    // createChallenge alike: outsider of a private space, participant-less caller of a public one
    expect(fieldOf(await as(outsider).post(`/spaces/${spaceId}/challenges`, bad))).toBe("fileIds[0]");
    expect(fieldOf(await as(outsider).post(`/spaces/${publicSpaceId}/challenges`, bad))).toBe("fileIds[0]");
    forbidden(await as(p1).put(path(c), { ...bad, fileIds: [] }));
    notFound(await as(outsider).put(path(c), { ...bad, fileIds: [] }));
    forbidden(await as(outsider).post(`/spaces/${publicSpaceId}/challenges`, { ...bad, fileIds: [] }));
  });

  test("full replace: kept tasks keep completions, new ones are added, absent ones removed; dates recomputed", async () => {
    const c = await newChallenge({
      includeAuthor: true,
      tasks: [task("Keep", -1, 2), task("Drop", -1, 3)],
      body: "old",
      reminderMinutes: [5],
    });
    const [keep, drop] = c.tasks;
    expect((await as(owner).put(path(c, `/tasks/${keep.id}/completion`))).status).toBe(200);
    expect((await as(owner).put(path(c, `/tasks/${drop.id}/completion`))).status).toBe(200);
    // admin2 is an ADMIN but not the author
    const res = await as(admin2).put(path(c), {
      title: "Renamed",
      emoji: "🔥",
      tasks: [task("New", -2, 5), { ...task("Kept", -1, 2), id: keep.id }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: "Renamed",
      emoji: "🔥",
      body: "",
      reminderMinutes: [],
      totalTaskCount: 2,
      authorName: "Owner",
    });
    expect(res.body.tasks.map((t: any) => t.title)).toEqual(["New", "Kept"]);
    expect(res.body.tasks[1].id).toBe(keep.id);
    expect(res.body.startedAt).toBe(res.body.tasks[0].startedAt);
    expect(res.body.endedAt).toBe(res.body.tasks[0].deadline);
    const mine = await as(owner).get(path(c));
    expect(mine.body.tasks.map((t: any) => t.done)).toEqual([false, true]);
    expect(mine.body).toMatchObject({ doneTaskCount: 1, progress: 50, totalProgress: 50 });
  });

  test("the author may update their own challenge; includeAuthor true adds the author", async () => {
    const c = await newChallenge({}, p1);
    expect(c.joined).toBe(false);
    const res = await as(p1).put(path(c), { title: "Mine", emoji: "m", includeAuthor: true, tasks: [task("t", -1)] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "Mine", joined: true, memberCount: 1 });
    // includeAuthor false removes nobody
    const again = await as(owner).put(path(c), { title: "Mine", emoji: "m", includeAuthor: false, tasks: [task("t", -1)] });
    expect(again.body.memberCount).toBe(1);
  });

  test("400 for an unknown or repeated task id, and the body bounds", async () => {
    const c = await newChallenge();
    const other = await newChallenge();
    const put = (body: unknown) => as(owner).put(path(c), body);
    const base = { title: "T", emoji: "e" };
    expect(fieldOf(await put({ ...base, tasks: [{ ...task("t", 0), id: other.tasks[0].id }] }))).toBe("tasks[0].id");
    expect(
      fieldOf(
        await put({
          ...base,
          tasks: [
            { ...task("a", 0), id: c.tasks[0].id },
            { ...task("b", 0), id: c.tasks[0].id },
          ],
        }),
      ),
    ).toBe("tasks[1].id");
    expect(fieldOf(await put({ ...base, tasks: [] }))).toBe("tasks");
    expect(fieldOf(await put({ title: "T", tasks: [task("t", 0)] }))).toBe("emoji");
    // nothing changed
    expect((await as(owner).get(path(c))).body.title).toBe("Read daily");
  });

  test("401; 403 for a participant who is not the author; 404 unknown, other space, other tenant", async () => {
    const c = await newChallenge();
    const body = { title: "T", emoji: "e", tasks: [task("t", 0)] };
    unauth(await anon("PUT", path(c), body));
    forbidden(await as(p2).put(path(c), body));
    notFound(await as(owner).put(`/spaces/${spaceId}/challenges/nope`, body));
    notFound(await as(owner).put(`/spaces/${publicSpaceId}/challenges/${c.id}`, body));
    notFound(await as(other).put(path(c), body));
  });
});

describe("POST /api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks — addChallengeTask", () => {
  test("appends a CHECK_TASK without deadline; endedAt turns null; 201", async () => {
    const c = await newChallenge();
    expect(c.endedAt).not.toBeNull();
    const res = await as(admin2).post(path(c, "/tasks"), { title: "Extra", startedAt: at(-5) });
    expect(res.status).toBe(201);
    expect(res.body.tasks.map((t: any) => [t.title, t.index])).toEqual([
      ["Day 1", 0],
      ["Day 2", 1],
      ["Extra", 2],
    ]);
    expect(res.body.tasks[2]).toMatchObject({ type: "CHECK_TASK", deadline: null, guide: null, defaultTags: [], targetContentId: null });
    expect(res.body.endedAt).toBeNull();
    expect(res.body.startedAt).toBe(res.body.tasks[2].startedAt);
    expect((await as(p1).get(path(c))).body.totalTaskCount).toBe(3);
  });

  test("400 bounds; 401; 403 participant; 404 unknown, other tenant", async () => {
    const c = await newChallenge();
    expect(fieldOf(await as(owner).post(path(c, "/tasks"), { startedAt: at(0) }))).toBe("title");
    expect(fieldOf(await as(owner).post(path(c, "/tasks"), { title: "x".repeat(31), startedAt: at(0) }))).toBe("title");
    expect(fieldOf(await as(owner).post(path(c, "/tasks"), { title: "t" }))).toBe("startedAt");
    expect(fieldOf(await as(owner).post(path(c, "/tasks"), { title: "t", startedAt: "2025-01-01" }))).toBe("startedAt");
    unauth(await anon("POST", path(c, "/tasks"), { title: "t", startedAt: at(0) }));
    forbidden(await as(p1).post(path(c, "/tasks"), { title: "t", startedAt: at(0) }));
    notFound(await as(owner).post(`/spaces/${spaceId}/challenges/nope/tasks`, { title: "t", startedAt: at(0) }));
    notFound(await as(other).post(path(c, "/tasks"), { title: "t", startedAt: at(0) }));
  });
});

describe("DELETE /api/v1/spaces/{spaceId}/challenges/{challengeId} — deleteChallenge", () => {
  test("an ADMIN deletes; the author deletes their own; later reads are 404", async () => {
    const c = await newChallenge({ includeAuthor: true });
    const res = await as(admin2).del(path(c));
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    notFound(await as(owner).get(path(c)));
    const mine = await newChallenge({}, p2);
    expect((await as(p2).del(path(mine))).status).toBe(204);
    notFound(await as(p2).get(path(mine)));
  });

  test("401; 403 for a participant who is not the author; 404 unknown, other tenant", async () => {
    const c = await newChallenge();
    unauth(await anon("DELETE", path(c)));
    forbidden(await as(p1).del(path(c)));
    notFound(await as(other).del(path(c)));
    notFound(await as(owner).del(`/spaces/${spaceId}/challenges/nope`));
    expect((await as(p1).get(path(c))).status).toBe(200);
  });
});

describe("challenge members — listChallengeMembers, addChallengeMembers, addChallengeMembersFromCandidates", () => {
  test("a participant joins themself; adding someone else needs the author or an ADMIN", async () => {
    const c = await newChallenge();
    const join = await as(p1).post(path(c, "/members"), { userIds: [p1.memberId] });
    expect(join.status).toBe(200);
    expect(join.body.members).toEqual([{ userId: p1.memberId, displayName: "Alice", progress: 0, joinedAt: expect.stringMatching(ISO) }]);
    expect(join.body.nextCursor).toBeNull();
    forbidden(await as(p1).post(path(c, "/members"), { userIds: [p2.memberId] }));
    const add = await as(admin2).post(path(c, "/members"), { userIds: [p2.memberId, p1.memberId, p2.memberId] });
    expect(add.status).toBe(200);
    expect(add.body.members.map((m: any) => m.userId)).toEqual([p1.memberId, p2.memberId]);
    expect((await as(p3).get(path(c))).body.memberCount).toBe(2);
  });

  test("the list pages with a cursor bound to the challenge", async () => {
    const c = await newChallenge();
    await as(owner).post(path(c, "/members"), { userIds: [p1.memberId] });
    await as(owner).post(path(c, "/members"), { userIds: [p2.memberId] });
    await as(owner).post(path(c, "/members"), { userIds: [p3.memberId] });
    const first = await as(p1).get(path(c, "/members?limit=2"));
    expect(first.status).toBe(200);
    expect(first.body.members.map((m: any) => m.userId)).toEqual([p1.memberId, p2.memberId]);
    const second = await as(p1).get(path(c, `/members?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`));
    expect(second.body.members.map((m: any) => m.userId)).toEqual([p3.memberId]);
    expect(second.body.nextCursor).toBeNull();
    const d = await newChallenge();
    expect(fieldOf(await as(p1).get(path(d, `/members?cursor=${encodeURIComponent(first.body.nextCursor)}`)))).toBe("cursor");
    expect(fieldOf(await as(p1).get(path(c, "/members?cursor=garbage")))).toBe("cursor");
    expect(fieldOf(await as(p1).get(path(c, "/members?limit=0")))).toBe("limit");
    expect(fieldOf(await as(p1).get(path(c, "/members?limit=101")))).toBe("limit");
  });

  test("400 for an empty list or a member not enrolled in the space", async () => {
    const c = await newChallenge();
    expect(fieldOf(await as(owner).post(path(c, "/members"), { userIds: [] }))).toBe("userIds");
    expect(fieldOf(await as(owner).post(path(c, "/members"), {}))).toBe("userIds");
    expect(fieldOf(await as(owner).post(path(c, "/members"), { userIds: [""] }))).toBe("userIds[0]");
    expect(fieldOf(await as(owner).post(path(c, "/members"), { userIds: [p1.memberId, outsider.memberId] }))).toBe("userIds[1]");
    expect(fieldOf(await as(owner).post(path(c, "/members"), { userIds: ["nope"] }))).toBe("userIds[0]");
    expect((await as(owner).get(path(c))).body.memberCount).toBe(0);
  });

  test("the list has no count bound: over SQLite's parameter limit it is still checked and added", async () => {
    const c = await newChallenge();
    const unknown = Array.from({ length: 260_000 }, (_, i) => `${i}`); // Bun's SQLite takes at most 250000 parameters
    expect(fieldOf(await as(owner).post(path(c, "/members"), { userIds: [p1.memberId, ...unknown] }))).toBe("userIds[1]");
    const res = await as(owner).post(path(c, "/members"), { userIds: Array.from({ length: 600 }, (_, i) => (i % 2 ? p1 : p2).memberId) });
    expect(res.status).toBe(200);
    expect((await as(owner).get(path(c))).body.memberCount).toBe(2);
  });

  test("from candidates: ADMIN or author only; every id must be a current candidate", async () => {
    const c = await newChallenge({ includeAuthor: true });
    const res = await as(admin2).post(path(c, "/members/from-candidates"), { userIds: [p1.memberId, p2.memberId] });
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: any) => m.userId)).toEqual([owner.memberId, p1.memberId, p2.memberId]);
    // already a member: no longer a candidate
    expect(fieldOf(await as(owner).post(path(c, "/members/from-candidates"), { userIds: [p3.memberId, p1.memberId] }))).toBe("userIds[1]");
    expect(fieldOf(await as(owner).post(path(c, "/members/from-candidates"), { userIds: [outsider.memberId] }))).toBe("userIds[0]");
    expect(fieldOf(await as(owner).post(path(c, "/members/from-candidates"), { userIds: [] }))).toBe("userIds");
    expect(fieldOf(await as(owner).post(path(c, "/members/from-candidates"), { userIds: Array(501).fill(p3.memberId) }))).toBe("userIds");
    forbidden(await as(p3).post(path(c, "/members/from-candidates"), { userIds: [p3.memberId] }));
    const mine = await newChallenge({}, p3);
    expect((await as(p3).post(path(mine, "/members/from-candidates"), { userIds: [p1.memberId] })).status).toBe(200);
  });

  test("401; 403 non-enrolled viewer of a public space; 404 invisible space and other tenant", async () => {
    const c = await newChallenge();
    unauth(await anon("GET", path(c, "/members")));
    unauth(await anon("POST", path(c, "/members"), { userIds: [p1.memberId] }));
    unauth(await anon("POST", path(c, "/members/from-candidates"), { userIds: [p1.memberId] }));
    notFound(await as(other).get(path(c, "/members")));
    notFound(await as(other).post(path(c, "/members"), { userIds: [other.memberId] }));
    notFound(await as(other).post(path(c, "/members/from-candidates"), { userIds: [other.memberId] }));
    notFound(await as(outsider).get(path(c, "/members")));
    const pc = await newChallenge({}, owner, publicSpaceId);
    forbidden(await as(outsider).get(`/spaces/${publicSpaceId}/challenges/${pc.id}/members`));
    forbidden(await as(outsider).post(`/spaces/${publicSpaceId}/challenges/${pc.id}/members`, { userIds: [outsider.memberId] }));
  });
});

describe("GET /api/v1/spaces/{spaceId}/challenges/{challengeId}/candidates — listChallengeCandidates", () => {
  test("space members not yet in the challenge, in enrolment order; keyword on displayName; pages", async () => {
    const c = await newChallenge({ includeAuthor: true });
    await as(owner).post(path(c, "/members"), { userIds: [p2.memberId] });
    const res = await as(owner).get(path(c, "/candidates"));
    expect(res.status).toBe(200);
    expect(res.body.candidates).toEqual([
      { userId: p1.memberId, displayName: "Alice" },
      { userId: p3.memberId, displayName: "Carol" },
      { userId: admin2.memberId, displayName: "Admin Two" },
    ]);
    expect(res.body.nextCursor).toBeNull();
    expect((await as(owner).get(path(c, "/candidates?keyword=car"))).body.candidates.map((x: any) => x.userId)).toEqual([p3.memberId]);
    const first = await as(owner).get(path(c, "/candidates?limit=2"));
    expect(first.body.candidates).toHaveLength(2);
    const next = await as(owner).get(path(c, `/candidates?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`));
    expect(next.body.candidates.map((x: any) => x.userId)).toEqual([admin2.memberId]);
    // the cursor is bound to the keyword
    expect(fieldOf(await as(owner).get(path(c, `/candidates?keyword=a&cursor=${encodeURIComponent(first.body.nextCursor)}`)))).toBe(
      "cursor",
    );
  });

  test("400 keyword over 50; 401; 403 participant; 404 other tenant", async () => {
    const c = await newChallenge();
    expect(fieldOf(await as(owner).get(path(c, `/candidates?keyword=${"k".repeat(51)}`)))).toBe("keyword");
    unauth(await anon("GET", path(c, "/candidates")));
    forbidden(await as(p1).get(path(c, "/candidates")));
    notFound(await as(other).get(path(c, "/candidates")));
  });
});

describe("task completion — completeChallengeTask, uncompleteChallengeTask, getChallengeMemberProgress", () => {
  test("a member completes and uncompletes an open task (idempotent); progress follows", async () => {
    const c = await newChallenge({ tasks: [task("A", -1, 2), task("B", -1)] });
    await as(p1).post(path(c, "/members"), { userIds: [p1.memberId] });
    await as(p2).post(path(c, "/members"), { userIds: [p2.memberId] });
    const [a, b] = c.tasks;
    const done = await as(p1).put(path(c, `/tasks/${a.id}/completion`));
    expect(done.status).toBe(200);
    const firstAt = done.body.tasks[0].completedAt;
    expect(done.body).toMatchObject({ userId: p1.memberId, displayName: "Alice", doneTaskCount: 1, totalTaskCount: 2, progress: 50 });
    expect(done.body.tasks[0]).toMatchObject({ id: a.id, done: true, completedAt: expect.stringMatching(ISO) });
    expect(done.body.tasks[1]).toMatchObject({ id: b.id, done: false, completedAt: null });
    const again = await as(p1).put(path(c, `/tasks/${a.id}/completion`));
    expect(again.body.tasks[0].completedAt).toBe(firstAt);
    expect((await as(p1).put(path(c, `/tasks/${b.id}/completion`))).body.progress).toBe(100);
    // the detail: the caller's figures; totalProgress = the members' average (100 and 0)
    const detail = await as(p1).get(path(c));
    expect(detail.body).toMatchObject({ doneTaskCount: 2, progress: 100, totalProgress: 50 });
    // any space member reads anyone's progress
    const progress = await as(p3).get(path(c, `/members/${p1.memberId}/progress`));
    expect(progress.status).toBe(200);
    expect(progress.body).toMatchObject({ userId: p1.memberId, doneTaskCount: 2, progress: 100 });
    const members = await as(p3).get(path(c, "/members"));
    expect(members.body.members.map((m: any) => m.progress)).toEqual([100, 0]);
    const undone = await as(p1).del(path(c, `/tasks/${a.id}/completion`));
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ doneTaskCount: 1, progress: 50 });
    expect(undone.body.tasks[0]).toMatchObject({ done: false, completedAt: null });
    expect((await as(p1).del(path(c, `/tasks/${a.id}/completion`))).body.doneTaskCount).toBe(1);
  });

  test("403 for a space member who is not in the challenge; 409 for a task not open or a challenge not ONGOING", async () => {
    const c = await newChallenge({ includeAuthor: true, tasks: [task("Open", -1, 2), task("Later", 1, 3), task("Closed", -3, -2)] });
    const [open, later, closed] = c.tasks;
    forbidden(await as(p1).put(path(c, `/tasks/${open.id}/completion`)));
    forbidden(await as(p1).del(path(c, `/tasks/${open.id}/completion`)));
    expectProblem(await as(owner).put(path(c, `/tasks/${later.id}/completion`)), 409, "INVALID_STATE");
    expectProblem(await as(owner).put(path(c, `/tasks/${closed.id}/completion`)), 409, "INVALID_STATE");
    expectProblem(await as(owner).del(path(c, `/tasks/${closed.id}/completion`)), 409, "INVALID_STATE");
    const finished = await newChallenge({ includeAuthor: true, tasks: [task("Past", -3, -1)] });
    expectProblem(await as(owner).put(path(finished, `/tasks/${finished.tasks[0].id}/completion`)), 409, "INVALID_STATE");
    const before = await newChallenge({ includeAuthor: true, tasks: [task("Soon", 1)] });
    expectProblem(await as(owner).put(path(before, `/tasks/${before.tasks[0].id}/completion`)), 409, "INVALID_STATE");
  });

  test("404 for an unknown task, a task of another challenge, other tenant; 401; progress of a non-member 404", async () => {
    const c = await newChallenge({ includeAuthor: true });
    const d = await newChallenge({ includeAuthor: true });
    notFound(await as(owner).put(path(c, "/tasks/nope/completion")));
    notFound(await as(owner).put(path(c, `/tasks/${d.tasks[0].id}/completion`)));
    notFound(await as(other).put(path(c, `/tasks/${c.tasks[0].id}/completion`)));
    notFound(await as(other).del(path(c, `/tasks/${c.tasks[0].id}/completion`)));
    unauth(await anon("PUT", path(c, `/tasks/${c.tasks[0].id}/completion`)));
    unauth(await anon("DELETE", path(c, `/tasks/${c.tasks[0].id}/completion`)));
    notFound(await as(owner).get(path(c, `/members/${p1.memberId}/progress`)));
    notFound(await as(other).get(path(c, `/members/${owner.memberId}/progress`)));
    unauth(await anon("GET", path(c, `/members/${owner.memberId}/progress`)));
    const pc = await newChallenge({ includeAuthor: true }, owner, publicSpaceId);
    forbidden(await as(outsider).get(`/spaces/${publicSpaceId}/challenges/${pc.id}/members/${owner.memberId}/progress`));
  });
});

describe("GET /api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks/{taskId}/status — getChallengeTaskStatus", () => {
  test("counts over all members; the page filtered by status; pages with a cursor", async () => {
    const c = await newChallenge();
    await as(owner).post(path(c, "/members"), { userIds: [p1.memberId, p2.memberId, p3.memberId] });
    const t = c.tasks[0];
    await as(p2).put(path(c, `/tasks/${t.id}/completion`));
    const all = await as(admin2).get(path(c, `/tasks/${t.id}/status`));
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ allMemberCount: 3, completedMemberCount: 1, incompleteMemberCount: 2, nextCursor: null });
    expect(all.body.members.map((m: any) => [m.displayName, m.done])).toEqual([
      ["Alice", false],
      ["Bob", true],
      ["Carol", false],
    ]);
    expect(all.body.members[1].completedAt).toMatch(ISO);
    expect(all.body.members[0].completedAt).toBeNull();
    const completed = await as(owner).get(path(c, `/tasks/${t.id}/status?status=COMPLETED`));
    expect(completed.body.members.map((m: any) => m.userId)).toEqual([p2.memberId]);
    expect(completed.body.allMemberCount).toBe(3);
    const incomplete = await as(owner).get(path(c, `/tasks/${t.id}/status?status=INCOMPLETE&limit=1`));
    expect(incomplete.body.members.map((m: any) => m.userId)).toEqual([p1.memberId]);
    const next = await as(owner).get(
      path(c, `/tasks/${t.id}/status?status=INCOMPLETE&limit=1&cursor=${encodeURIComponent(incomplete.body.nextCursor)}`),
    );
    expect(next.body.members.map((m: any) => m.userId)).toEqual([p3.memberId]);
    expect(next.body.nextCursor).toBeNull();
    expect(
      fieldOf(await as(owner).get(path(c, `/tasks/${t.id}/status?status=ALL&cursor=${encodeURIComponent(incomplete.body.nextCursor)}`))),
    ).toBe("cursor");
  });

  test("400 bad status; 401; 403 participant; 404 unknown task, other tenant", async () => {
    const c = await newChallenge();
    const t = c.tasks[0];
    expect(fieldOf(await as(owner).get(path(c, `/tasks/${t.id}/status?status=DONE`)))).toBe("status");
    unauth(await anon("GET", path(c, `/tasks/${t.id}/status`)));
    forbidden(await as(p1).get(path(c, `/tasks/${t.id}/status`)));
    notFound(await as(owner).get(path(c, "/tasks/nope/status")));
    notFound(await as(other).get(path(c, `/tasks/${t.id}/status`)));
  });
});

describe("POST /api/v1/spaces/{spaceId}/challenges/{challengeId}/leave — leaveChallenge", () => {
  test("removes the caller's membership and completions; a second leave is 404", async () => {
    const c = await newChallenge();
    await as(p1).post(path(c, "/members"), { userIds: [p1.memberId] });
    await as(p1).put(path(c, `/tasks/${c.tasks[0].id}/completion`));
    const res = await as(p1).post(path(c, "/leave"));
    expect(res.status).toBe(204);
    expect((await as(p1).get(path(c))).body).toMatchObject({ joined: false, memberCount: 0, totalProgress: 0 });
    notFound(await as(p1).post(path(c, "/leave")));
    // rejoining starts over
    const back = await as(p1).post(path(c, "/members"), { userIds: [p1.memberId] });
    expect(back.body.members[0].progress).toBe(0);
  });

  test("401; 403 non-enrolled viewer of a public space; 404 other tenant", async () => {
    const c = await newChallenge();
    unauth(await anon("POST", path(c, "/leave")));
    notFound(await as(other).post(path(c, "/leave")));
    const pc = await newChallenge({}, owner, publicSpaceId);
    forbidden(await as(outsider).post(`/spaces/${publicSpaceId}/challenges/${pc.id}/leave`));
  });
});

describe("POST /api/v1/spaces/{spaceId}/challenges/{challengeId}/email-count — checkChallengeEmailCount", () => {
  test("counts the challenge's memberships of the member with that e-mail (case-insensitive)", async () => {
    const c = await newChallenge();
    await as(owner).post(path(c, "/members"), { userIds: [p1.memberId] });
    const yes = await as(owner).post(path(c, "/email-count"), { email: p1.email.toUpperCase() });
    expect(yes.status).toBe(200);
    expect(yes.body).toEqual({ email: p1.email.toUpperCase(), count: 1 });
    expect((await as(owner).post(path(c, "/email-count"), { email: p2.email })).body.count).toBe(0);
    expect((await as(owner).post(path(c, "/email-count"), { email: "nobody@example.com" })).body.count).toBe(0);
  });

  test("400 bad e-mail; 401; 403 participant; 404 other tenant", async () => {
    const c = await newChallenge();
    expect(fieldOf(await as(owner).post(path(c, "/email-count"), { email: "not-an-email" }))).toBe("email");
    expect(fieldOf(await as(owner).post(path(c, "/email-count"), {}))).toBe("email");
    unauth(await anon("POST", path(c, "/email-count"), { email: p1.email }));
    forbidden(await as(p1).post(path(c, "/email-count"), { email: p1.email }));
    notFound(await as(other).post(path(c, "/email-count"), { email: p1.email }));
  });
});

describe("space hooks", () => {
  test("leaving, removal from and blocking in a space also leave its challenges", async () => {
    const s = (await as(owner).post("/spaces", { name: "Hook space" })).body.id;
    await as(owner).post(`/spaces/${s}/members`, { userIds: [p1.memberId, p2.memberId, p3.memberId], role: "PARTICIPANT" });
    const c = await newChallenge({}, owner, s);
    const cp = `/spaces/${s}/challenges/${c.id}`;
    await as(owner).post(`${cp}/members`, { userIds: [p1.memberId, p2.memberId, p3.memberId] });
    await as(p1).put(`${cp}/tasks/${c.tasks[0].id}/completion`);
    expect((await as(p1).post(`/spaces/${s}/leave`)).status).toBe(204);
    expect((await as(owner).del(`/spaces/${s}/members/${p2.memberId}`)).status).toBe(204);
    expect((await as(owner).post(`/spaces/${s}/blocks`, { userId: p3.memberId })).status).toBe(201);
    const list = await as(owner).get(`${cp}/members`);
    expect(list.body.members).toEqual([]);
    expect((await as(owner).get(`${cp}/tasks/${c.tasks[0].id}/status`)).body.completedMemberCount).toBe(0);
  });

  test("deleting the space removes its challenges with their members and completions", async () => {
    const s = (await as(owner).post("/spaces", { name: "Doomed" })).body.id;
    const c = await newChallenge({ includeAuthor: true }, owner, s);
    await as(owner).put(`/spaces/${s}/challenges/${c.id}/tasks/${c.tasks[0].id}/completion`);
    expect((await as(owner).del(`/spaces/${s}`)).status).toBe(200);
    const left = api.server.rt.tenants.use(owner.tenantId, (h) =>
      [
        ["challenges", "id"],
        ["challenge_tasks", "challenge_id"],
        ["challenge_members", "challenge_id"],
        ["challenge_completions", "challenge_id"],
      ].map(([table, column]) => (h.sqlite.query(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).get(c.id) as any).n),
    );
    expect(left).toEqual([0, 0, 0, 0]);
  });
});
