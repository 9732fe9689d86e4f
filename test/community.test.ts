// Participant posts, comments and answered questions (docs/rules/community.md).
import { beforeAll, describe, expect, test } from "bun:test";
import { useContentSpace } from "./helpers/fixture";
import { recordQueryPlans } from "./helpers/query-plans";
import { fieldOf, forbidden, invalidState, notFound, unauth, useServer } from "./helpers/server";

// The per-member write limit has its own file (community-rate-limit.test.ts).
const api = useServer({ communityRateLimit: 0 });
const { as, anon } = api;
const fx = useContentSpace(api, { spaceName: "Class 3-1", participants: ["Ann", "Ben"] });
const ann = () => fx.participants[0];
const ben = () => fx.participants[1];

/** A space of the fixture's owner with Ann and Ben as participants and the given settings. */
async function space(settings: Record<string, unknown> = {}) {
  const id = (await as(fx.owner).post("/spaces", { name: "Extra" })).body.id as string;
  expect(
    (await as(fx.owner).post(`/spaces/${id}/members`, { userIds: [ann().memberId, ben().memberId], role: "PARTICIPANT" })).status,
  ).toBe(200);
  if (Object.keys(settings).length) expect((await as(fx.owner).patch(`/spaces/${id}`, settings)).status).toBe(200);
  return id;
}

async function post(who: { token: string }, body: Record<string, unknown> = {}, spaceId = fx.spaceId) {
  const res = await as(who).post("/posts", { spaceId, title: "A post", type: "GENERAL", ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

async function comment(who: { token: string }, postId: string, body: Record<string, unknown> = {}) {
  const res = await as(who).post(`/posts/${postId}/comments`, { body: "A comment", ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

const NO_COMMUNITY = { enabledMenus: ["announcement", "content"] };

describe("POST /api/v1/posts — createPost by a participant", () => {
  test("a participant posts GENERAL and QUESTION while community is on; the post names its author", async () => {
    const general = await post(ann(), { title: "Study group?", content: "Anyone?" });
    expect(general).toMatchObject({
      type: "GENERAL",
      status: "PUBLISHED",
      authorId: ann().memberId,
      authorName: "Ann",
      commentCount: 0,
      answeredCommentId: null,
    });
    const question = await post(ann(), { title: "What is due Friday?", type: "QUESTION" });
    expect(question.type).toBe("QUESTION");
    // Ben (another participant) reads it.
    expect((await as(ben()).get(`/posts/${question.id}`)).body.authorId).toBe(ann().memberId);
  });

  test("NOTICE (also the default type), emergency, pin and schedule stay ADMIN-only (403)", async () => {
    const p = (body: Record<string, unknown>) => as(ann()).post("/posts", { spaceId: fx.spaceId, title: "x", ...body });
    forbidden(await p({}));
    forbidden(await p({ type: "NOTICE" }));
    forbidden(await p({ type: "GENERAL", isEmergency: true }));
    forbidden(await p({ type: "GENERAL", isPinned: true }));
    forbidden(await p({ type: "QUESTION", publishAt: new Date(Date.now() + 3_600_000).toISOString() }));
    // The explicit defaults are fine.
    expect((await p({ type: "GENERAL", isEmergency: false, isPinned: false, publishAt: null })).status).toBe(201);
    // An ADMIN keeps every field.
    expect((await as(fx.admin2).post("/posts", { spaceId: fx.spaceId, title: "Notice", isPinned: true, isEmergency: true })).status).toBe(
      201,
    );
  });

  test("without the community menu a participant cannot post (403); an ADMIN still can", async () => {
    const closed = await space(NO_COMMUNITY);
    forbidden(await as(ann()).post("/posts", { spaceId: closed, title: "x", type: "GENERAL" }));
    expect((await as(fx.owner).post("/posts", { spaceId: closed, title: "x" })).status).toBe(201);
  });

  test("an archived space is read-only for participants (409); bad input is 400 first; outsiders 404; 401", async () => {
    const archived = await space({ isActive: false });
    invalidState(await as(ann()).post("/posts", { spaceId: archived, title: "x", type: "GENERAL" }));
    expect(fieldOf(await as(ann()).post("/posts", { spaceId: fx.spaceId, title: "", type: "GENERAL" }))).toBe("title");
    notFound(await as(fx.outsider).post("/posts", { spaceId: fx.spaceId, title: "x", type: "GENERAL" }));
    notFound(await as(fx.other).post("/posts", { spaceId: fx.spaceId, title: "x", type: "GENERAL" }));
    unauth(await anon("POST", "/posts", { spaceId: fx.spaceId, title: "x" }));
  });
});

describe("PATCH/DELETE /api/v1/posts/{postId} — authors and ADMINs", () => {
  test("the author edits their own post within the participant's fields; others get 403", async () => {
    const mine = await post(ann(), { title: "Draft" });
    const edited = await as(ann()).patch(`/posts/${mine.id}`, { title: "Edited", type: "QUESTION", content: "Now a question" });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: "Edited", type: "QUESTION", authorId: ann().memberId });
    for (const bad of [{ type: "NOTICE" }, { isPinned: true }, { isEmergency: true }, { status: "ARCHIVED" }, { publishAt: null }]) {
      forbidden(await as(ann()).patch(`/posts/${mine.id}`, bad));
    }
    forbidden(await as(ben()).patch(`/posts/${mine.id}`, { title: "Hijack" }));
    notFound(await as(fx.outsider).patch(`/posts/${mine.id}`, { title: "x" }));
    notFound(await as(fx.other).patch(`/posts/${mine.id}`, { title: "x" }));
    expect((await as(ann()).get(`/posts/${mine.id}`)).body.title).toBe("Edited");
  });

  test("ADMINs moderate: they edit, archive and delete a participant's post", async () => {
    const p = await post(ben(), { title: "Off topic" });
    expect((await as(fx.admin2).patch(`/posts/${p.id}`, { title: "Moved" })).body.title).toBe("Moved");
    expect((await as(fx.owner).patch(`/posts/${p.id}`, { status: "ARCHIVED" })).body.status).toBe("ARCHIVED");
    notFound(await as(ben()).get(`/posts/${p.id}`)); // an archived post is the ADMINs' only
    expect((await as(fx.owner).del(`/posts/${p.id}`)).status).toBe(204);
    notFound(await as(fx.owner).get(`/posts/${p.id}`));
  });

  test("the author deletes their own post, another participant cannot (403), and an archived space refuses the author (409)", async () => {
    const p = await post(ann());
    forbidden(await as(ben()).del(`/posts/${p.id}`));
    expect((await as(ann()).del(`/posts/${p.id}`)).status).toBe(204);
    notFound(await as(ann()).get(`/posts/${p.id}`));

    const s = await space();
    const kept = await post(ann(), {}, s);
    expect((await as(fx.owner).patch(`/spaces/${s}`, { isActive: false })).status).toBe(200);
    invalidState(await as(ann()).patch(`/posts/${kept.id}`, { title: "x" }));
    invalidState(await as(ann()).del(`/posts/${kept.id}`));
    expect((await as(ann()).get(`/posts/${kept.id}`)).status).toBe(200); // still readable
  });
});

describe("GET/POST /api/v1/posts/{postId}/comments — listPostComments, createPostComment", () => {
  let notice: string;
  beforeAll(async () => {
    notice = (await post(fx.owner, { title: "Field trip", type: "NOTICE" })).id;
  });

  test("a participant comments; the list is oldest first with authors, and the post counts its comments", async () => {
    const first = await comment(ann(), notice, { body: "Do we bring lunch?" });
    expect(first).toMatchObject({
      postId: notice,
      authorId: ann().memberId,
      authorName: "Ann",
      body: "Do we bring lunch?",
      attachments: [],
      isAnswer: false,
    });
    expect(first.createdAt).toBe(first.updatedAt);
    await comment(fx.owner, notice, { body: "Yes." });
    await comment(ben(), notice, { body: "Thanks" });
    const list = await as(ben()).get(`/posts/${notice}/comments`);
    expect(list.status).toBe(200);
    expect(list.body.comments.map((c: any) => c.body)).toEqual(["Do we bring lunch?", "Yes.", "Thanks"]);
    expect(list.body.nextCursor).toBeNull();
    expect((await as(ben()).get(`/posts/${notice}`)).body.commentCount).toBe(3);
    const listed = await as(ben()).get(`/posts?spaceId=${fx.spaceId}&limit=100`);
    expect(listed.body.posts.find((p: any) => p.id === notice).commentCount).toBe(3);
  });

  test("pages with a cursor bound to its post; a bad cursor is 400", async () => {
    const p = await post(fx.owner);
    for (const body of ["1", "2", "3"]) await comment(ann(), p.id, { body });
    const one = await as(ann()).get(`/posts/${p.id}/comments?limit=2`);
    expect(one.body.comments.map((c: any) => c.body)).toEqual(["1", "2"]);
    const two = await as(ann()).get(`/posts/${p.id}/comments?limit=2&cursor=${one.body.nextCursor}`);
    expect(two.body.comments.map((c: any) => c.body)).toEqual(["3"]);
    expect(two.body.nextCursor).toBeNull();
    expect(fieldOf(await as(ann()).get(`/posts/${p.id}/comments?cursor=nope`))).toBe("cursor");
    expect(fieldOf(await as(ann()).get(`/posts/${notice}/comments?cursor=${one.body.nextCursor}`))).toBe("cursor");
    expect(fieldOf(await as(ann()).get(`/posts/${p.id}/comments?limit=101`))).toBe("limit");
  });

  test("returns 400 naming each bound: empty, 5001 characters, NUL, 6 files, a file not one's own", async () => {
    const c = (body: Record<string, unknown>) => as(ann()).post(`/posts/${notice}/comments`, body);
    expect(fieldOf(await c({}))).toBe("body");
    expect(fieldOf(await c({ body: "" }))).toBe("body");
    expect(fieldOf(await c({ body: "x".repeat(5001) }))).toBe("body");
    expect((await c({ body: "🔥".repeat(5000) })).status).toBe(201); // characters, not UTF-16 units
    expect(fieldOf(await c({ body: "a\u0000b" }))).toBe("body");
    expect(fieldOf(await c({ body: "x", fileIds: ["a", "b", "c", "d", "e", "f"] }))).toBe("fileIds");
    const bens = await fx.upload(ben());
    expect(fieldOf(await c({ body: "x", fileIds: [bens] }))).toBe("fileIds[0]");
  });

  test("attaches the commenter's files; readers get download URLs while the post allows downloads", async () => {
    const f = await fx.upload(ann(), { bytes: "my notes" });
    const c = await comment(ann(), notice, { body: "Notes attached", fileIds: [f] });
    expect(c.attachments).toHaveLength(1);
    expect(c.attachments[0]).toMatchObject({ fileId: f, name: "a.txt" });
    const read = await as(ben()).get(`/posts/${notice}/comments?limit=100`);
    const att = read.body.comments.find((x: any) => x.id === c.id).attachments[0];
    const url = new URL(att.url);
    const dl = await api.call("GET", `${url.pathname}${url.search}`);
    expect(dl.status).toBe(200);
    expect(dl.body).toBe("my notes");
    expect((await as(ben()).get(`/files/${f}`)).status).toBe(200);
    notFound(await as(fx.outsider).get(`/files/${f}`));
    // The post's allowFileDownload off: participants lose the URL, ADMINs keep it.
    expect((await as(fx.owner).patch(`/posts/${notice}`, { allowFileDownload: false })).status).toBe(200);
    const hidden = await as(ben()).get(`/posts/${notice}/comments?limit=100`);
    expect(hidden.body.comments.find((x: any) => x.id === c.id).attachments[0].url).toBeNull();
    expect((await api.call("GET", `${url.pathname}${url.search}`)).status).toBe(403);
    const adminView = await as(fx.owner).get(`/posts/${notice}/comments?limit=100`);
    expect(typeof adminView.body.comments.find((x: any) => x.id === c.id).attachments[0].url).toBe("string");
    await as(fx.owner).patch(`/posts/${notice}`, { allowFileDownload: true });
  });

  test("without community only ADMINs comment (403 for a participant)", async () => {
    const s = await space(NO_COMMUNITY);
    const p = await post(fx.owner, { type: "NOTICE" }, s);
    forbidden(await as(ann()).post(`/posts/${p.id}/comments`, { body: "x" }));
    expect((await as(fx.owner).post(`/posts/${p.id}/comments`, { body: "x" })).status).toBe(201);
    expect((await as(ann()).get(`/posts/${p.id}/comments`)).body.comments).toHaveLength(1); // reading stays open
  });

  test("an archived space refuses every comment (409), an ARCHIVED post refuses ADMINs (409) and hides from participants (404)", async () => {
    const s = await space();
    const p = await post(fx.owner, { type: "NOTICE" }, s);
    const c = await comment(ann(), p.id);
    expect((await as(fx.owner).patch(`/spaces/${s}`, { isActive: false })).status).toBe(200);
    invalidState(await as(ann()).post(`/posts/${p.id}/comments`, { body: "x" }));
    invalidState(await as(fx.owner).post(`/posts/${p.id}/comments`, { body: "x" }));
    invalidState(await as(ann()).patch(`/posts/${p.id}/comments/${c.id}`, { body: "x" }));
    invalidState(await as(ann()).del(`/posts/${p.id}/comments/${c.id}`));
    expect((await as(ann()).get(`/posts/${p.id}/comments`)).body.comments).toHaveLength(1);

    const archivedPost = await post(fx.owner, { type: "NOTICE" });
    await as(fx.owner).patch(`/posts/${archivedPost.id}`, { status: "ARCHIVED" });
    invalidState(await as(fx.owner).post(`/posts/${archivedPost.id}/comments`, { body: "x" }));
    notFound(await as(ann()).post(`/posts/${archivedPost.id}/comments`, { body: "x" }));
  });

  test("returns 404 for outsiders, other tenants, scheduled posts and unknown posts; 401 without a token", async () => {
    const scheduled = await post(fx.owner, { type: "NOTICE", publishAt: new Date(Date.now() + 3_600_000).toISOString() });
    notFound(await as(ann()).get(`/posts/${scheduled.id}/comments`));
    notFound(await as(ann()).post(`/posts/${scheduled.id}/comments`, { body: "x" }));
    notFound(await as(fx.outsider).get(`/posts/${notice}/comments`));
    notFound(await as(fx.outsider).post(`/posts/${notice}/comments`, { body: "x" }));
    notFound(await as(fx.other).get(`/posts/${notice}/comments`));
    notFound(await as(fx.other).post(`/posts/${notice}/comments`, { body: "x" }));
    notFound(await as(ann()).get("/posts/nope/comments"));
    unauth(await anon("GET", `/posts/${notice}/comments`));
    unauth(await anon("POST", `/posts/${notice}/comments`, { body: "x" }));
  });
});

describe("PATCH/DELETE /api/v1/posts/{postId}/comments/{commentId} — updatePostComment, deletePostComment", () => {
  test("the author edits (updatedAt moves); nobody else may, ADMINs included (403)", async () => {
    const p = await post(fx.owner, { type: "NOTICE" });
    const c = await comment(ann(), p.id, { body: "Frist" });
    const edited = await as(ann()).patch(`/posts/${p.id}/comments/${c.id}`, { body: "First" });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe("First");
    expect(edited.body.updatedAt >= c.updatedAt).toBe(true);
    expect((await as(ann()).patch(`/posts/${p.id}/comments/${c.id}`, {})).body.body).toBe("First");
    forbidden(await as(ben()).patch(`/posts/${p.id}/comments/${c.id}`, { body: "x" }));
    forbidden(await as(fx.owner).patch(`/posts/${p.id}/comments/${c.id}`, { body: "x" }));
    expect(fieldOf(await as(ann()).patch(`/posts/${p.id}/comments/${c.id}`, { body: "" }))).toBe("body");
    expect(fieldOf(await as(ann()).patch(`/posts/${p.id}/comments/${c.id}`, { body: "x".repeat(5001) }))).toBe("body");
    notFound(await as(fx.other).patch(`/posts/${p.id}/comments/${c.id}`, { body: "x" }));
    unauth(await anon("PATCH", `/posts/${p.id}/comments/${c.id}`, { body: "x" }));
    expect((await as(ben()).get(`/posts/${p.id}/comments`)).body.comments[0].body).toBe("First");
  });

  test("the author or an ADMIN deletes; another participant gets 403; a comment of another post is 404", async () => {
    const p = await post(fx.owner, { type: "NOTICE" });
    const elsewhere = await post(fx.owner, { type: "NOTICE" });
    const a = await comment(ann(), p.id);
    const b = await comment(ben(), p.id);
    forbidden(await as(ben()).del(`/posts/${p.id}/comments/${a.id}`));
    notFound(await as(ann()).del(`/posts/${elsewhere.id}/comments/${a.id}`));
    notFound(await as(fx.other).del(`/posts/${p.id}/comments/${a.id}`));
    unauth(await anon("DELETE", `/posts/${p.id}/comments/${a.id}`));
    expect((await as(ann()).del(`/posts/${p.id}/comments/${a.id}`)).status).toBe(204);
    expect((await as(fx.admin2).del(`/posts/${p.id}/comments/${b.id}`)).status).toBe(204);
    notFound(await as(ann()).del(`/posts/${p.id}/comments/${a.id}`));
    expect((await as(ann()).get(`/posts/${p.id}/comments`)).body.comments).toEqual([]);
    expect((await as(ann()).get(`/posts/${p.id}`)).body.commentCount).toBe(0);
  });
});

describe("PUT /api/v1/posts/{postId}/answer — markPostAnswer, and listPosts?answered", () => {
  test("the asker marks an answer; everyone sees it; the answered filter follows; deleting the answer clears it", async () => {
    const s = await space();
    const q = await post(ann(), { title: "How long is the essay?", type: "QUESTION" }, s);
    const open = await post(ben(), { title: "Unanswered one", type: "QUESTION" }, s);
    const byBen = await comment(ben(), q.id, { body: "I think 2 pages" });
    const byTeacher = await comment(fx.owner, q.id, { body: "3 pages" });

    const marked = await as(ann()).put(`/posts/${q.id}/answer`, { commentId: byBen.id });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ id: q.id, answeredCommentId: byBen.id, commentCount: 2 });
    // An ADMIN corrects it.
    expect((await as(fx.owner).put(`/posts/${q.id}/answer`, { commentId: byTeacher.id })).body.answeredCommentId).toBe(byTeacher.id);
    const comments = (await as(ann()).get(`/posts/${q.id}/comments`)).body.comments;
    expect(comments.map((c: any) => c.isAnswer)).toEqual([false, true]);

    const ids = async (query: string) => (await as(ann()).get(`/posts?spaceId=${s}&${query}`)).body.posts.map((p: any) => p.id);
    expect(await ids("answered=true")).toEqual([q.id]);
    expect(await ids("answered=false")).toEqual([open.id]);
    expect(await ids("type=QUESTION")).toEqual([open.id, q.id]);
    expect(await ids("type=GENERAL&answered=true")).toEqual([]);
    expect(fieldOf(await as(ann()).get("/posts?answered=yes"))).toBe("answered");

    expect((await as(fx.owner).del(`/posts/${q.id}/comments/${byTeacher.id}`)).status).toBe(204);
    expect((await as(ann()).get(`/posts/${q.id}`)).body.answeredCommentId).toBeNull();
    expect(await ids("answered=true")).toEqual([]);

    expect((await as(ann()).put(`/posts/${q.id}/answer`, { commentId: byBen.id })).status).toBe(200);
    const cleared = await as(ann()).put(`/posts/${q.id}/answer`, { commentId: null });
    expect(cleared.body.answeredCommentId).toBeNull();
  });

  test("only the asker or an ADMIN (403); another type is 409; a comment of another post is 400; 404 and 401", async () => {
    const q = await post(ann(), { type: "QUESTION" });
    const c = await comment(ben(), q.id);
    const general = await post(ann(), { type: "GENERAL" });
    const g = await comment(ben(), general.id);
    forbidden(await as(ben()).put(`/posts/${q.id}/answer`, { commentId: c.id }));
    invalidState(await as(ann()).put(`/posts/${general.id}/answer`, { commentId: g.id }));
    expect(fieldOf(await as(ann()).put(`/posts/${q.id}/answer`, { commentId: g.id }))).toBe("commentId");
    expect(fieldOf(await as(ann()).put(`/posts/${q.id}/answer`, { commentId: 5 }))).toBe("commentId");
    notFound(await as(fx.outsider).put(`/posts/${q.id}/answer`, { commentId: c.id }));
    notFound(await as(fx.other).put(`/posts/${q.id}/answer`, { commentId: c.id }));
    unauth(await anon("PUT", `/posts/${q.id}/answer`, { commentId: c.id }));
    // Changing the type away from QUESTION drops the answer.
    expect((await as(fx.admin2).put(`/posts/${q.id}/answer`, { commentId: c.id })).status).toBe(200);
    expect((await as(ann()).patch(`/posts/${q.id}`, { type: "GENERAL" })).body.answeredCommentId).toBeNull();
  });

  test("the answered filter walks an index, with and without a space", async () => {
    const { plans } = await recordQueryPlans(api.server, fx.owner.tenantId, /^select .* from "posts" .*order by/is, async () => {
      expect((await as(ann()).get("/posts?answered=false&limit=2")).status).toBe(200);
      expect((await as(ann()).get(`/posts?spaceId=${fx.spaceId}&answered=true&limit=2`)).status).toBe(200);
    });
    // A statement prepared earlier in this file is not prepared again, so one or both are seen.
    expect(plans.length).toBeGreaterThan(0);
    for (const { sql, plan } of plans) {
      expect(`${sql} => ${plan}`).not.toContain("TEMP B-TREE");
      expect(plan).toMatch(/USING INDEX posts_(space_)?answered_list_idx/);
    }
  });
});

describe("notifications of the community", () => {
  const inboxFor = async (who: { token: string }, recordId: string) =>
    ((await as(who).get("/me/notifications?limit=100")).body.notifications as any[]).filter((n) => n.recordId === recordId);

  test("a participant's QUESTION tells the space's ADMINs; a comment tells the post's author and earlier commenters, not the commenter", async () => {
    const q = await post(ann(), { title: "Is the test open-book?", type: "QUESTION" });
    expect((await inboxFor(fx.owner, q.id)).map((n) => n.kind)).toEqual(["QUESTION"]);
    expect((await inboxFor(fx.admin2, q.id)).map((n) => n.kind)).toEqual(["QUESTION"]);
    expect(await inboxFor(ben(), q.id)).toEqual([]);

    const first = await comment(ben(), q.id, { body: "I think so" });
    const [toAnn] = await inboxFor(ann(), first.id);
    expect(toAnn).toMatchObject({ kind: "COMMENT", recordType: "COMMENT", spaceId: fx.spaceId, bodyPreview: "I think so" });
    expect(toAnn.url).toBe(`/spaces?space=${fx.spaceId}&tab=stream&post=${q.id}`);
    expect(await inboxFor(ben(), first.id)).toEqual([]);
    expect(await inboxFor(fx.owner, first.id)).toEqual([]); // an ADMIN who has not commented

    const answer = await comment(fx.owner, q.id, { body: "No, closed book." });
    expect((await inboxFor(ann(), answer.id)).map((n) => n.kind)).toEqual(["COMMENT"]);
    expect((await inboxFor(ben(), answer.id)).map((n) => n.kind)).toEqual(["COMMENT"]);
    expect(await inboxFor(fx.owner, answer.id)).toEqual([]);
    expect(await inboxFor(fx.admin2, answer.id)).toEqual([]);
  });
});
