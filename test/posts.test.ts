import { beforeAll, describe, expect, test } from "bun:test";
import { postCounts } from "../src/modules/posts/access";
import type { Member, Tenant } from "./helpers/fixture";
import { uploadFile } from "./helpers/fixture";
import { recordQueryPlans } from "./helpers/query-plans";
import {
  createMemberFixture,
  createTenantFixture,
  expectProblem,
  fieldOf,
  forbidden,
  notFound,
  type Res,
  useServer,
} from "./helpers/server";

const api = useServer();
const { as, anon } = api;

let owner: Tenant; // creates the spaces: their owner ADMIN
let other: Tenant; // another tenant
let admin: Member; // second ADMIN of the main space
let participant: Member; // PARTICIPANT of the main space
let outsider: Member; // tenant member enrolled nowhere
let space: string; // owner, admin (ADMIN), participant
let publicSpace: string; // public; participant is PARTICIPANT only
let privateSpace: string; // owner only

async function newSpace(who: { token: string }, body: Record<string, unknown> = {}) {
  const res = await as(who).post("/spaces", { name: "Space", ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function enrol(spaceId: string, userIds: string[], role: "ADMIN" | "PARTICIPANT") {
  const res = await as(owner).post(`/spaces/${spaceId}/members`, { userIds, role });
  expect(res.status).toBe(200);
}

async function newPost(who: { token: string }, body: Record<string, unknown> = {}) {
  const res = await as(who).post("/posts", { spaceId: space, title: "Post", ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

/** requestUpload + upload; returns the ready file's id. */
const upload = (who: { token: string }, bytes = "hello") => uploadFile(api, who, { fileName: "notes.txt", bytes });

const inFuture = (ms = 3_600_000) => new Date(Date.now() + ms).toISOString();

beforeAll(async () => {
  owner = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  admin = await createMemberFixture(api.server, owner, { displayName: "Second Admin" });
  participant = await createMemberFixture(api.server, owner, { displayName: "Participant" });
  outsider = await createMemberFixture(api.server, owner, { displayName: "Outsider" });
  space = await newSpace(owner, { name: "Main" });
  publicSpace = await newSpace(owner, { name: "Open", isPublic: true });
  privateSpace = await newSpace(owner, { name: "Closed" });
  await enrol(space, [admin.memberId], "ADMIN");
  await enrol(space, [participant.memberId], "PARTICIPANT");
  await enrol(publicSpace, [participant.memberId], "PARTICIPANT");
});

describe("POST /api/v1/posts — createPost", () => {
  test("creates a published post with the API's defaults and the next index of its space", async () => {
    const first = await newPost(owner, { title: "Welcome" });
    expect(first).toMatchObject({
      spaceId: space,
      spaceName: "Main",
      title: "Welcome",
      content: "",
      type: "NOTICE",
      tags: [],
      isEmergency: false,
      isPinned: false,
      allowFileDownload: true,
      status: "PUBLISHED",
      authorName: "Owner",
      attachments: [],
    });
    expect(first.publishAt).toBe(first.createdAt);
    const second = await newPost(admin, { title: "Next", type: "QUESTION", tags: ["a", "b"], isEmergency: true, isPinned: true });
    expect(second.index).toBe(first.index + 1);
    expect(second).toMatchObject({ type: "QUESTION", tags: ["a", "b"], isEmergency: true, isPinned: true, authorName: "Second Admin" });
    const read = await as(participant).get(`/posts/${second.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: second.id, title: "Next", tags: ["a", "b"] });
  });

  test("a future publishAt schedules the post; a past one publishes it at creation time", async () => {
    const at = inFuture();
    const scheduled = await newPost(owner, { publishAt: at });
    expect(scheduled.status).toBe("SCHEDULED");
    expect(scheduled.publishAt).toBe(at);
    const past = await newPost(owner, { publishAt: "2020-01-01T00:00:00Z" });
    expect(past.status).toBe("PUBLISHED");
    expect(past.publishAt).toBe(past.createdAt);
  });

  test("a scheduled post turns PUBLISHED at its time without a call", async () => {
    const post = await newPost(owner, { publishAt: inFuture(1200) });
    expect(post.status).toBe("SCHEDULED");
    notFound(await as(participant).get(`/posts/${post.id}`));
    // The server's clock moves past publishAt (docs/rules/posts.md#status-at-creation) instead of a sleep.
    api.server.rt.now = () => Date.now() + 1500;
    try {
      const read = await as(participant).get(`/posts/${post.id}`);
      expect(read.status).toBe(200);
      expect(read.body.status).toBe("PUBLISHED");
      const listed = await as(participant).get(`/posts?spaceId=${space}`);
      expect(listed.body.posts.map((p: { id: string }) => p.id)).toContain(post.id);
    } finally {
      api.server.rt.now = () => Date.now();
    }
  });

  test("attaches the caller's ready files in the order sent", async () => {
    const a = await upload(owner, "aaa");
    const b = await upload(owner, "bb");
    const post = await newPost(owner, { fileIds: [b, a] });
    expect(post.attachments.map((x: any) => x.fileId)).toEqual([b, a]);
    expect(post.attachments[0]).toMatchObject({ name: "notes.txt", contentType: "text/plain", size: 2, preview: { status: "none" } });
    expect(typeof post.attachments[0].url).toBe("string");
  });

  test("returns 400 naming each bound", async () => {
    const big = "x".repeat(200001);
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space }))).toBe("title");
    expect(fieldOf(await as(owner).post("/posts", { title: "x" }))).toBe("spaceId");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: "", title: "x" }))).toBe("spaceId");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "" }))).toBe("title");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x".repeat(301) }))).toBe("title");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", content: big }))).toBe("content");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", type: "NEWS" }))).toBe("type");
    const tags = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", tags }))).toBe("tags");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", tags: ["y".repeat(51)] }))).toMatch(/^tags/);
    // the API bounds a tag's length only (max 50): an empty tag is taken
    expect((await as(owner).post("/posts", { spaceId: space, title: "x", tags: [""] })).body.tags).toEqual([""]);
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", publishAt: "tomorrow" }))).toBe("publishAt");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", isPinned: "yes" }))).toBe("isPinned");
    const files = Array.from({ length: 21 }, (_, i) => `f${i}`);
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", fileIds: files }))).toBe("fileIds");
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", fileIds: ["nope"] }))).toBe("fileIds[0]");
    const mine = await upload(owner);
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", fileIds: [mine, mine] }))).toBe("fileIds[1]");
    // Another member's upload is not the caller's to attach.
    const theirs = await upload(admin);
    expect(fieldOf(await as(owner).post("/posts", { spaceId: space, title: "x", fileIds: [theirs] }))).toBe("fileIds[0]");
  });

  test("values at the upper bounds are accepted", async () => {
    const tags = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(50, "t"));
    const post = await newPost(owner, { title: "x".repeat(300), content: "x".repeat(200000), tags });
    expect(post.content.length).toBe(200000);
    expect(post.tags).toEqual(tags);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await anon("POST", "/posts", { spaceId: space, title: "x" }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 for a participant and for a non-enrolled viewer of a public space", async () => {
    forbidden(await as(participant).post("/posts", { spaceId: space, title: "x" }));
    forbidden(await as(outsider).post("/posts", { spaceId: publicSpace, title: "x" }));
  });

  test("returns 404 for an unknown, invisible or other tenant's space", async () => {
    notFound(await as(owner).post("/posts", { spaceId: "nope", title: "x" }));
    notFound(await as(outsider).post("/posts", { spaceId: privateSpace, title: "x" }));
    notFound(await as(other).post("/posts", { spaceId: space, title: "x" }));
  });
});

describe("POST /api/v1/posts/bulk-create — createPostsInSpaces", () => {
  test("creates one post per ADMIN space and skips the others with a reason", async () => {
    // space:create lets the caller see every space: the ones it does not administer are FORBIDDEN.
    const creator = await createMemberFixture(api.server, owner, { displayName: "Creator", permissions: ["space:create"] });
    await enrol(space, [creator.memberId], "ADMIN");
    const second = await newSpace(creator, { name: "Creator's" });
    const f = await upload(creator);
    const res = await as(creator).post("/posts/bulk-create", {
      spaceIds: [space, second, publicSpace, privateSpace, "nope", second],
      title: "Everywhere",
      fileIds: [f],
    });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(2);
    expect(res.body.skipped).toEqual([
      { spaceId: publicSpace, reason: "FORBIDDEN" },
      { spaceId: privateSpace, reason: "FORBIDDEN" },
      { spaceId: "nope", reason: "NOT_FOUND" },
    ]);
    expect(res.body.posts.map((p: any) => p.spaceId)).toEqual([space, second]);
    expect(res.body.posts[1]).toMatchObject({
      spaceName: "Creator's",
      index: 1,
      title: "Everywhere",
      status: "PUBLISHED",
      authorName: "Creator",
    });
    expect(res.body.posts.every((p: any) => p.attachments.length === 1 && p.attachments[0].fileId === f)).toBe(true);
    const list = await as(creator).get(`/posts?spaceId=${second}`);
    expect(list.body.posts.map((p: any) => p.id)).toEqual([res.body.posts[1].id]);
  });

  test("a visible space where the caller is not ADMIN is FORBIDDEN; a result with nothing created is still 201", async () => {
    const res = await as(participant).post("/posts/bulk-create", { spaceIds: [space, publicSpace, privateSpace], title: "x" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: 0,
      skipped: [
        { spaceId: space, reason: "FORBIDDEN" },
        { spaceId: publicSpace, reason: "FORBIDDEN" },
        { spaceId: privateSpace, reason: "NOT_FOUND" },
      ],
      posts: [],
    });
  });

  test("takes 500 space ids", async () => {
    const spaceIds = [space, ...Array.from({ length: 499 }, (_, i) => `missing-${i}`)];
    const res = await as(owner).post("/posts/bulk-create", { spaceIds, title: "Wide" });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(1);
    expect(res.body.skipped.length).toBe(499);
  });

  test("another tenant's spaces are NOT_FOUND", async () => {
    const res = await as(other).post("/posts/bulk-create", { spaceIds: [space], title: "x" });
    expect(res.status).toBe(201);
    expect(res.body.skipped).toEqual([{ spaceId: space, reason: "NOT_FOUND" }]);
  });

  test("returns 400 naming each bound", async () => {
    expect(fieldOf(await as(owner).post("/posts/bulk-create", { title: "x" }))).toBe("spaceIds");
    expect(fieldOf(await as(owner).post("/posts/bulk-create", { spaceIds: [], title: "x" }))).toBe("spaceIds");
    const many = Array.from({ length: 501 }, (_, i) => `s${i}`);
    expect(fieldOf(await as(owner).post("/posts/bulk-create", { spaceIds: many, title: "x" }))).toBe("spaceIds");
    expect(fieldOf(await as(owner).post("/posts/bulk-create", { spaceIds: [""], title: "x" }))).toMatch(/^spaceIds/);
    expect(fieldOf(await as(owner).post("/posts/bulk-create", { spaceIds: [space] }))).toBe("title");
    expect(fieldOf(await as(owner).post("/posts/bulk-create", { spaceIds: [space], title: "x", fileIds: ["nope"] }))).toBe("fileIds[0]");
  });

  test("returns 401 without a token", async () => {
    expectProblem(await anon("POST", "/posts/bulk-create", { spaceIds: [space], title: "x" }), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/v1/posts — listPosts", () => {
  test("without spaceId the page walks posts_list_idx in order: no temp B-tree, the enrolment is probed per post", async () => {
    await newPost(owner, { title: "Plan check" });
    const { count, plans } = await recordQueryPlans(api.server, owner.tenantId, /^select .* from "posts" .*order by/is, async () => {
      const res = await as(participant).get("/posts?limit=2");
      expect(res.status).toBe(200);
      expect(res.body.posts.length).toBeGreaterThan(0);
      expect((await as(participant).get("/posts?type=NOTICE&limit=2")).status).toBe(200);
    });
    expect(count).toBe(2);
    for (const { sql, plan } of plans) {
      expect(`${sql} => ${plan}`).not.toContain("TEMP B-TREE");
      expect(plan).toMatch(/^(SCAN|SEARCH) posts USING INDEX posts_(type_)?list_idx/);
    }
  });

  let listSpace: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    listSpace = await newSpace(owner, { name: "Listing" });
    await enrol(listSpace, [participant.memberId], "PARTICIPANT");
    const mk = async (key: string, body: Record<string, unknown>) => {
      const res = await as(owner).post("/posts", { spaceId: listSpace, title: key, ...body });
      expect(res.status).toBe(201);
      ids[key] = res.body.id;
    };
    await mk("old notice", { type: "NOTICE" });
    await mk("general chat", { type: "GENERAL", content: "about the Banana exam" });
    await mk("pinned rules", { type: "NOTICE", isPinned: true });
    await mk("scheduled", { type: "QUESTION", publishAt: inFuture() });
    await mk("archived", { type: "GENERAL" });
    expect((await as(owner).patch(`/posts/${ids.archived}`, { status: "ARCHIVED" })).status).toBe(200);
  });
  const titles = (res: Res) => res.body.posts.map((p: any) => p.title);

  test("an ADMIN sees every post, pinned first then newest publishAt", async () => {
    const res = await as(owner).get(`/posts?spaceId=${listSpace}`);
    expect(res.status).toBe(200);
    expect(titles(res)).toEqual(["pinned rules", "scheduled", "archived", "general chat", "old notice"]);
    expect(res.body.total).toBe(5);
    expect(res.body.nextCursor).toBeNull();
  });

  test("a participant sees only published posts", async () => {
    const res = await as(participant).get(`/posts?spaceId=${listSpace}`);
    expect(titles(res)).toEqual(["pinned rules", "general chat", "old notice"]);
    expect(res.body.total).toBe(3);
  });

  test("without spaceId lists the posts of every space the caller is enrolled in, and no others", async () => {
    const mine = await as(participant).get("/posts?limit=100");
    expect(mine.body.posts.every((p: any) => p.status === "PUBLISHED")).toBe(true);
    expect(new Set(mine.body.posts.map((p: any) => p.spaceId))).toEqual(new Set([space, listSpace]));
    const none = await as(outsider).get("/posts");
    expect(none.body).toEqual({ posts: [], total: 0, nextCursor: null });
    const otherTenant = await as(other).get("/posts");
    expect(otherTenant.body.total).toBe(0);
  });

  test("filters by status, type and search (title or content, case-insensitive)", async () => {
    const q = (s: string) => as(owner).get(`/posts?spaceId=${listSpace}&${s}`);
    expect(titles(await q("status=SCHEDULED"))).toEqual(["scheduled"]);
    expect(titles(await q("status=ARCHIVED"))).toEqual(["archived"]);
    expect(titles(await q("status=PUBLISHED"))).toEqual(["pinned rules", "general chat", "old notice"]);
    expect(titles(await q("type=GENERAL"))).toEqual(["archived", "general chat"]);
    expect(titles(await q("search=banana"))).toEqual(["general chat"]);
    expect(titles(await q("search=RULES"))).toEqual(["pinned rules"]);
    expect(titles(await q("search=100%25"))).toEqual([]);
    expect((await as(participant).get(`/posts?spaceId=${listSpace}&status=SCHEDULED`)).body.total).toBe(0);
  });

  test("pages with a cursor bound to the filters", async () => {
    const p1 = await as(owner).get(`/posts?spaceId=${listSpace}&limit=2`);
    expect(titles(p1)).toEqual(["pinned rules", "scheduled"]);
    expect(p1.body.total).toBe(5);
    const p2 = await as(owner).get(`/posts?spaceId=${listSpace}&limit=2&cursor=${p1.body.nextCursor}`);
    expect(titles(p2)).toEqual(["archived", "general chat"]);
    const p3 = await as(owner).get(`/posts?spaceId=${listSpace}&limit=2&cursor=${p2.body.nextCursor}`);
    expect(titles(p3)).toEqual(["old notice"]);
    expect(p3.body.nextCursor).toBeNull();
    expect(fieldOf(await as(owner).get(`/posts?spaceId=${listSpace}&type=NOTICE&cursor=${p1.body.nextCursor}`))).toBe("cursor");
    expect(fieldOf(await as(owner).get("/posts?cursor=forged.value"))).toBe("cursor");
  });

  test("returns 400 naming each bound", async () => {
    expect(fieldOf(await as(owner).get("/posts?limit=0"))).toBe("limit");
    expect(fieldOf(await as(owner).get("/posts?limit=101"))).toBe("limit");
    expect(fieldOf(await as(owner).get("/posts?status=DRAFT"))).toBe("status");
    expect(fieldOf(await as(owner).get("/posts?type=NEWS"))).toBe("type");
    expect(fieldOf(await as(owner).get("/posts?search="))).toBe("search");
    expect(fieldOf(await as(owner).get(`/posts?search=${"x".repeat(256)}`))).toBe("search");
  });

  test("returns 404 for a spaceId the caller cannot see, and 401 without a token", async () => {
    notFound(await as(outsider).get(`/posts?spaceId=${privateSpace}`));
    notFound(await as(other).get(`/posts?spaceId=${space}`));
    expectProblem(await anon("GET", "/posts"), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/v1/posts/{postId} — getPost", () => {
  test("an enrolled member reads a published post", async () => {
    const post = await newPost(owner, { title: "Readable" });
    const res = await as(participant).get(`/posts/${post.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(post);
  });

  test("a scheduled or archived post is 404 to a participant and readable by an ADMIN", async () => {
    const scheduled = await newPost(owner, { publishAt: inFuture() });
    const archived = await newPost(owner);
    await as(owner).patch(`/posts/${archived.id}`, { status: "ARCHIVED" });
    for (const id of [scheduled.id, archived.id]) {
      notFound(await as(participant).get(`/posts/${id}`));
      expect((await as(admin).get(`/posts/${id}`)).status).toBe(200);
    }
  });

  test("returns 404 (never 403) to a viewer of a public space who is not enrolled, for published and scheduled posts alike", async () => {
    const res = await as(owner).post("/posts", { spaceId: publicSpace, title: "Open post" });
    notFound(await as(outsider).get(`/posts/${res.body.id}`));
    const later = await as(owner).post("/posts", {
      spaceId: publicSpace,
      title: "Later",
      publishAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    notFound(await as(outsider).get(`/posts/${later.body.id}`));
    notFound(await as(outsider).patch(`/posts/${res.body.id}`, { title: "x" }));
  });

  test("returns 404 for an unknown post, a private space's post and another tenant's post", async () => {
    const post = await newPost(owner);
    notFound(await as(owner).get("/posts/nope"));
    notFound(await as(outsider).get(`/posts/${post.id}`));
    notFound(await as(other).get(`/posts/${post.id}`));
  });

  test("returns 401 without a token", async () => {
    const post = await newPost(owner);
    expectProblem(await anon("GET", `/posts/${post.id}`), 401, "UNAUTHENTICATED");
  });
});

describe("PATCH /api/v1/posts/{postId} — updatePost", () => {
  test("check order as createPost (errors.md check order): an unknown fileId is 400 before the post's 404 or the role's 403", async () => {
    const post = await newPost(owner);
    const bad = { fileIds: ["no-such-file"] };
    expect(fieldOf(await as(participant).patch(`/posts/${post.id}`, bad))).toBe("fileIds[0]"); // would be 403
    expect(fieldOf(await as(outsider).patch(`/posts/${post.id}`, bad))).toBe("fileIds[0]"); // would be 404
    expect(fieldOf(await as(owner).patch("/posts/nope", bad))).toBe("fileIds[0]");
    expect(fieldOf(await as(participant).post("/posts", { spaceId: space, title: "x", ...bad }))).toBe("fileIds[0]"); // createPost alike
    forbidden(await as(participant).patch(`/posts/${post.id}`, { title: "x" }));
    notFound(await as(outsider).patch(`/posts/${post.id}`, { title: "x" }));
  });

  test("changes only the fields sent, visible through a later read", async () => {
    const post = await newPost(owner, { title: "Before", content: "body", tags: ["x"] });
    const res = await as(admin).patch(`/posts/${post.id}`, { title: "After", isPinned: true, type: "GENERAL" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "After", isPinned: true, type: "GENERAL", content: "body", tags: ["x"], authorName: "Owner" });
    const read = await as(participant).get(`/posts/${post.id}`);
    expect(read.body).toMatchObject({ title: "After", isPinned: true, type: "GENERAL", content: "body" });
  });

  test("status moves to the value sent", async () => {
    const post = await newPost(owner);
    expect((await as(owner).patch(`/posts/${post.id}`, { status: "ARCHIVED" })).body.status).toBe("ARCHIVED");
    expect((await as(owner).patch(`/posts/${post.id}`, { status: "PUBLISHED" })).body.status).toBe("PUBLISHED");
    const at = inFuture();
    const res = await as(owner).patch(`/posts/${post.id}`, { status: "SCHEDULED", publishAt: at });
    expect(res.body).toMatchObject({ status: "SCHEDULED", publishAt: at });
    // Publishing a scheduled post now moves its publish time to now.
    const now = await as(owner).patch(`/posts/${post.id}`, { status: "PUBLISHED" });
    expect(now.body.status).toBe("PUBLISHED");
    expect(Date.parse(now.body.publishAt)).toBeLessThanOrEqual(Date.now());
  });

  test("a publishAt sent alone reschedules; null publishes now", async () => {
    const post = await newPost(owner);
    const later = await as(owner).patch(`/posts/${post.id}`, { publishAt: inFuture() });
    expect(later.body.status).toBe("SCHEDULED");
    const now = await as(owner).patch(`/posts/${post.id}`, { publishAt: null });
    expect(now.body.status).toBe("PUBLISHED");
  });

  test("fileIds replaces the attachments; files another ADMIN attached may be kept", async () => {
    const a = await upload(owner);
    const post = await newPost(owner, { fileIds: [a] });
    const b = await upload(admin);
    const res = await as(admin).patch(`/posts/${post.id}`, { fileIds: [b, a] });
    expect(res.status).toBe(200);
    expect(res.body.attachments.map((x: any) => x.fileId)).toEqual([b, a]);
    const cleared = await as(admin).patch(`/posts/${post.id}`, { fileIds: [] });
    expect(cleared.body.attachments).toEqual([]);
    expect((await as(participant).get(`/posts/${post.id}`)).body.attachments).toEqual([]);
  });

  test("returns 400 naming each bound", async () => {
    const post = await newPost(owner);
    const patch = (json: unknown) => as(owner).patch(`/posts/${post.id}`, json);
    expect(fieldOf(await patch({ title: "" }))).toBe("title");
    expect(fieldOf(await patch({ title: "x".repeat(301) }))).toBe("title");
    expect(fieldOf(await patch({ content: "x".repeat(200001) }))).toBe("content");
    expect(fieldOf(await patch({ status: "DRAFT" }))).toBe("status");
    expect(fieldOf(await patch({ type: "NEWS" }))).toBe("type");
    expect(fieldOf(await patch({ tags: Array.from({ length: 51 }, () => "t") }))).toBe("tags");
    expect(fieldOf(await patch({ fileIds: ["nope"] }))).toBe("fileIds[0]");
    expect(fieldOf(await patch({ publishAt: "soon" }))).toBe("publishAt");
    expect(fieldOf(await patch({ status: "SCHEDULED" }))).toBe("publishAt");
    expect(fieldOf(await patch({ status: "SCHEDULED", publishAt: "2020-01-01T00:00:00Z" }))).toBe("publishAt");
    expect(fieldOf(await patch({ status: "PUBLISHED", publishAt: inFuture() }))).toBe("publishAt");
    expect((await as(owner).get(`/posts/${post.id}`)).body.title).toBe("Post");
  });

  test("returns 403 for a participant, 404 for outsiders and other tenants, 401 without a token", async () => {
    const post = await newPost(owner);
    forbidden(await as(participant).patch(`/posts/${post.id}`, { title: "x" }));
    notFound(await as(outsider).patch(`/posts/${post.id}`, { title: "x" }));
    notFound(await as(other).patch(`/posts/${post.id}`, { title: "x" }));
    expectProblem(await anon("PATCH", `/posts/${post.id}`, { title: "x" }), 401, "UNAUTHENTICATED");
    const scheduled = await newPost(owner, { publishAt: inFuture() });
    notFound(await as(participant).patch(`/posts/${scheduled.id}`, { title: "x" }));
  });
});

describe("DELETE /api/v1/posts/{postId} — deletePost", () => {
  test("removes the post for good", async () => {
    const post = await newPost(owner);
    const res = await as(admin).del(`/posts/${post.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    notFound(await as(owner).get(`/posts/${post.id}`));
    notFound(await as(owner).del(`/posts/${post.id}`));
  });

  test("returns 403 for a participant, 404 for outsiders and other tenants, 401 without a token", async () => {
    const post = await newPost(owner);
    forbidden(await as(participant).del(`/posts/${post.id}`));
    notFound(await as(outsider).del(`/posts/${post.id}`));
    notFound(await as(other).del(`/posts/${post.id}`));
    expectProblem(await anon("DELETE", `/posts/${post.id}`), 401, "UNAUTHENTICATED");
    expect((await as(owner).get(`/posts/${post.id}`)).status).toBe(200);
  });
});

describe("Space.postCount and space deletion", () => {
  test("postCount counts the space's published posts", async () => {
    const s = await newSpace(owner, { name: "Counted" });
    const count = async () => (await as(owner).get(`/spaces/${s}`)).body.postCount;
    expect(await count()).toBe(0);
    const a = await as(owner).post("/posts", { spaceId: s, title: "one" });
    await as(owner).post("/posts", { spaceId: s, title: "two" });
    await as(owner).post("/posts", { spaceId: s, title: "later", publishAt: inFuture() });
    expect(await count()).toBe(2);
    await as(owner).patch(`/posts/${a.body.id}`, { status: "ARCHIVED" });
    expect(await count()).toBe(1);
    const listed = await as(owner).get("/spaces?limit=100");
    expect(listed.body.spaces.find((x: any) => x.id === s).postCount).toBe(1);
    const counts = api.server.rt.tenants.use(owner.tenantId, (h) => postCounts(h.db, [s, "nope"]));
    expect(counts.get(s)).toBe(1);
    expect(counts.has("nope")).toBe(false);
  });

  test("deleting a space deletes its posts", async () => {
    const s = await newSpace(owner, { name: "Doomed" });
    const post = await as(owner).post("/posts", { spaceId: s, title: "gone soon" });
    expect((await as(owner).del(`/spaces/${s}`)).status).toBe(200);
    notFound(await as(owner).get(`/posts/${post.body.id}`));
    const left = api.server.rt.tenants.use(owner.tenantId, (h) =>
      h.sqlite.query("SELECT count(*) AS n FROM posts WHERE space_id = ?").get(s),
    ) as { n: number };
    expect(left.n).toBe(0);
  });
});

describe("Post attachments — downloads and file reads", () => {
  test("allowFileDownload false hides the URL from non-ADMINs and refuses their download", async () => {
    const f = await upload(owner, "secret");
    const post = await newPost(owner, { fileIds: [f] });
    // While downloads are allowed, the participant's URL works.
    const read = await as(participant).get(`/posts/${post.id}`);
    const url = new URL(read.body.attachments[0].url);
    const ok = await api.call("GET", `${url.pathname}${url.search}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toBe("secret");
    await as(owner).patch(`/posts/${post.id}`, { allowFileDownload: false });
    // The URL signed earlier is refused at download time, and new reads carry no URL.
    forbidden(await api.call("GET", `${url.pathname}${url.search}`));
    expect((await as(participant).get(`/posts/${post.id}`)).body.attachments[0].url).toBeNull();
    const adminView = await as(admin).get(`/posts/${post.id}`);
    const adminUrl = new URL(adminView.body.attachments[0].url);
    expect((await api.call("GET", `${adminUrl.pathname}${adminUrl.search}`)).status).toBe(200);
  });

  test("a space's allowFileDownload false applies to its posts", async () => {
    const s = await newSpace(owner, { name: "No downloads" });
    await enrol(s, [participant.memberId], "PARTICIPANT");
    const f = await upload(owner);
    const post = await as(owner).post("/posts", { spaceId: s, title: "x", fileIds: [f] });
    expect(typeof post.body.attachments[0].url).toBe("string");
    await as(owner).patch(`/spaces/${s}`, { allowFileDownload: false });
    expect((await as(participant).get(`/posts/${post.body.id}`)).body.attachments[0].url).toBeNull();
  });

  test("space-defaults enforceFileDownloadDisabled turned on later applies to posts of existing spaces", async () => {
    const tenant = await createTenantFixture(api.server);
    const pupil = await createMemberFixture(api.server, tenant);
    const s = await newSpace(tenant, { name: "Existing" });
    expect((await as(tenant).post(`/spaces/${s}/members`, { userIds: [pupil.memberId], role: "PARTICIPANT" })).status).toBe(200);
    const f = await upload(tenant, "held");
    const post = await as(tenant).post("/posts", { spaceId: s, title: "x", fileIds: [f] });
    const read = await as(pupil).get(`/posts/${post.body.id}`);
    const url = new URL(read.body.attachments[0].url);
    expect((await api.call("GET", `${url.pathname}${url.search}`)).status).toBe(200);
    await as(tenant).patch("/space-defaults", { enforceFileDownloadDisabled: true });
    forbidden(await api.call("GET", `${url.pathname}${url.search}`));
    expect((await as(pupil).get(`/posts/${post.body.id}`)).body.attachments[0].url).toBeNull();
    expect((await as(pupil).get(`/posts?spaceId=${s}`)).body.posts[0].attachments[0].url).toBeNull();
    // ADMINs keep their URLs; turning the flag off gives the participant its URL back.
    const adminUrl = new URL((await as(tenant).get(`/posts/${post.body.id}`)).body.attachments[0].url);
    expect((await api.call("GET", `${adminUrl.pathname}${adminUrl.search}`)).status).toBe(200);
    await as(tenant).patch("/space-defaults", { enforceFileDownloadDisabled: false });
    expect((await api.call("GET", `${url.pathname}${url.search}`)).status).toBe(200);
    expect(typeof (await as(pupil).get(`/posts/${post.body.id}`)).body.attachments[0].url).toBe("string");
  });

  test("a deleted post's URLs stop working; a reader of the post may read the file record", async () => {
    const f = await upload(owner);
    const post = await newPost(owner, { fileIds: [f] });
    expect((await as(participant).get(`/files/${f}`)).status).toBe(200);
    notFound(await as(outsider).get(`/files/${f}`));
    const read = await as(participant).get(`/posts/${post.id}`);
    const url = new URL(read.body.attachments[0].url);
    await as(owner).del(`/posts/${post.id}`);
    notFound(await api.call("GET", `${url.pathname}${url.search}`));
    notFound(await as(participant).get(`/files/${f}`));
    expect((await as(owner).get(`/files/${f}`)).status).toBe(200);
  });
});
