import { beforeAll, describe, expect, test } from "bun:test";
import { canSeeContentFile, contentCounts, contentPopulation } from "../src/modules/library/access";
import { libraryContents } from "../src/schema/library";
import type { Member, Tenant } from "./helpers/fixture";
import { uploadFile } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, fieldOf, forbidden, ISO, notFound, useServer } from "./helpers/server";

const api = useServer();
const { as } = api;

let owner: Tenant; // every permission
let other: Tenant; // another tenant
let plain: Member; // no permissions
let uploader: Member; // library:upload
let uploader2: Member; // library:upload

beforeAll(async () => {
  owner = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  plain = await createMemberFixture(api.server, owner, { displayName: "Plain" });
  uploader = await createMemberFixture(api.server, owner, { displayName: "Uploader", permissions: ["library:upload"] });
  uploader2 = await createMemberFixture(api.server, owner, { displayName: "Second", permissions: ["library:upload"] });
});

const anon = {
  get: (path: string) => api.call("GET", `/api/v1${path}`),
  send: (method: string, path: string, json: unknown = {}) => api.call(method, `/api/v1${path}`, { json }),
};

async function newContent(who: { token: string }, body: Record<string, unknown> = {}) {
  const res = await as(who).post("/library/contents", { type: "QUIZ", title: "Content", ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

/** requestUpload + upload; returns the ready file's id. */
const upload = (who: { token: string }, fileName = "clip.mp4", contentType = "video/mp4", bytes = "hello") =>
  uploadFile(api, who, { fileName, contentType, bytes });

async function newSpace(who: { token: string }, body: Record<string, unknown> = {}) {
  const res = await as(who).post("/spaces", { name: "Space", ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function spaceNode(who: { token: string }, spaceId: string) {
  const res = await as(who).post("/library/nodes", { title: "Space folder", spaceId });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const fetchUrl = (url: string) => fetch(url.replace(api.server.rt.config.publicUrl, api.url));

describe("POST /api/v1/library/contents — createContent", () => {
  test("creates a PRIVATE content authored by the caller's profile, with defaults", async () => {
    const res = await as(uploader).post("/library/contents", { type: "VIDEO", title: "Lecture 1" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      type: "VIDEO",
      title: "Lecture 1",
      description: "",
      visibility: "PRIVATE",
      authorProfileId: uploader.profileId,
      authorName: "Uploader",
      ready: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: res.body.createdAt,
      canManage: true,
      shares: [],
      attachments: [],
    });
    expect((await as(uploader).get(`/library/contents/${res.body.id}`)).body).toEqual(res.body);
  });

  test("attaches the caller's ready uploads in the order sent; non-media types are ready", async () => {
    const a = await upload(uploader, "a.pdf", "application/pdf", "AAA");
    const b = await upload(uploader, "b.txt", "text/plain", "BB");
    const c = await newContent(uploader, {
      type: "ASSIGNMENT",
      title: "Essay",
      description: "Write",
      visibility: "PUBLIC",
      fileIds: [b, a],
    });
    expect(c.ready).toBe(true);
    expect(c.attachments.map((f: any) => [f.fileId, f.name, f.contentType, f.size])).toEqual([
      [b, "b.txt", "text/plain", 2],
      [a, "a.pdf", "application/pdf", 3],
    ]);
    // a reader gets a URL signed for them that downloads the bytes
    const seen = await as(plain).get(`/library/contents/${c.id}`);
    expect(await (await fetchUrl(seen.body.attachments[1].url)).text()).toBe("AAA");
  });

  test("an emitted URL is 404 once the content is made PRIVATE or no longer attaches the file (files.md download rules)", async () => {
    const a = await upload(uploader, "a.txt", "text/plain", "AAA");
    const b = await upload(uploader, "b.txt", "text/plain", "BBB");
    const c = await newContent(uploader, { type: "ASSIGNMENT", visibility: "PUBLIC", fileIds: [a, b] });
    const urls = (await as(plain).get(`/library/contents/${c.id}`)).body.attachments.map((f: any) => f.url);
    expect((await fetchUrl(urls[1])).status).toBe(200);
    expect((await as(uploader).patch(`/library/contents/${c.id}`, { fileIds: [a] })).status).toBe(200);
    expect((await fetchUrl(urls[1])).status).toBe(404);
    expect((await fetchUrl(urls[0])).status).toBe(200);
    expect((await as(uploader).patch(`/library/contents/${c.id}`, { visibility: "PRIVATE" })).status).toBe(200);
    expect((await fetchUrl(urls[0])).status).toBe(404);
    // the author still downloads with a URL signed for them
    const own = (await as(uploader).get(`/library/contents/${c.id}`)).body.attachments[0].url;
    expect((await fetchUrl(own)).status).toBe(200);
  });

  test("returns 400 for each bound", async () => {
    const mine = await upload(uploader);
    const theirs = await upload(uploader2);
    const cases: [unknown, string][] = [
      [{ title: "x" }, "type"],
      [{ type: "BOOK", title: "x" }, "type"],
      [{ type: "QUIZ" }, "title"],
      [{ type: "QUIZ", title: "" }, "title"],
      [{ type: "QUIZ", title: "x".repeat(301) }, "title"],
      [{ type: "QUIZ", title: "x", description: "x".repeat(15001) }, "description"],
      [{ type: "QUIZ", title: "x", visibility: "TEAM" }, "visibility"],
      [{ type: "QUIZ", title: "x", fileIds: Array.from({ length: 21 }, (_, i) => `f${i}`) }, "fileIds"],
      [{ type: "QUIZ", title: "x", fileIds: [mine, theirs] }, "fileIds[1]"],
      [{ type: "QUIZ", title: "x", fileIds: [mine, mine] }, "fileIds[1]"],
      [{ type: "QUIZ", title: "x", nodeId: "no-such-node" }, "nodeId"],
    ];
    for (const [body, field] of cases)
      expect(`${field}: ${fieldOf(await as(uploader).post("/library/contents", body))}`).toBe(`${field}: ${field}`);
    expect(
      (await as(uploader).post("/library/contents", { type: "QUIZ", title: "x".repeat(300), description: "d".repeat(15000) })).status,
    ).toBe(201);
  });

  test("returns 401 without a token and 403 without library:upload", async () => {
    expectProblem(await anon.send("POST", "/library/contents", { type: "QUIZ", title: "x" }), 401, "UNAUTHENTICATED");
    forbidden(await as(plain).post("/library/contents", { type: "QUIZ", title: "x" }));
  });

  test("a nodeId of another tenant is 400; one in a space's tree needs ADMIN of that space (403)", async () => {
    const theirs = await as(other).post("/library/nodes", { title: "Theirs" });
    expect(fieldOf(await as(owner).post("/library/contents", { type: "QUIZ", title: "x", nodeId: theirs.body.id }))).toBe("nodeId");
    const space = await newSpace(owner);
    const node = await spaceNode(owner, space);
    // not enrolled: the space's folder is invisible (400); enrolled as PARTICIPANT: 403
    expect(fieldOf(await as(uploader).post("/library/contents", { type: "QUIZ", title: "x", nodeId: node }))).toBe("nodeId");
    await as(owner).post(`/spaces/${space}/members`, { userIds: [uploader.memberId] });
    forbidden(await as(uploader).post("/library/contents", { type: "QUIZ", title: "x", nodeId: node }));
    await as(owner).post(`/spaces/${space}/members`, { userIds: [uploader2.memberId], role: "ADMIN" });
    const c = await newContent(uploader2, { nodeId: node });
    expect((await as(uploader2).get(`/library/contents?nodeId=${node}`)).body.contents.map((x: any) => x.id)).toEqual([c.id]);
  });
});

describe("GET /api/v1/library/contents/{contentId} — getContent", () => {
  test("PRIVATE is the author's; PUBLIC is everyone's, without canManage or shares", async () => {
    const priv = await newContent(uploader);
    notFound(await as(plain).get(`/library/contents/${priv.id}`));
    notFound(await as(owner).get(`/library/contents/${priv.id}`)); // tenant permissions do not make a manager
    const pub = await newContent(uploader, { visibility: "PUBLIC" });
    await as(uploader).put(`/library/contents/${pub.id}/shares`, {
      shares: [{ targetType: "USER", targetId: plain.memberId, level: "VIEW" }],
    });
    const seen = await as(plain).get(`/library/contents/${pub.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.canManage).toBe(false);
    expect(seen.body.shares).toEqual([]);
    expect((await as(uploader).get(`/library/contents/${pub.id}`)).body.shares).toHaveLength(1);
  });

  test("returns 404 for an unknown id and for a content of another tenant; 401 without a token", async () => {
    const c = await newContent(uploader, { visibility: "PUBLIC" });
    notFound(await as(uploader).get("/library/contents/no-such-content"));
    notFound(await as(other).get(`/library/contents/${c.id}`));
    expectProblem(await anon.get(`/library/contents/${c.id}`), 401, "UNAUTHENTICATED");
  });

  test("space content: SHARED or PUBLIC to its enrolled members, PRIVATE a draft of its managers", async () => {
    const space = await newSpace(owner);
    const participant = await createMemberFixture(api.server, owner);
    const admin = await createMemberFixture(api.server, owner);
    await as(owner).post(`/spaces/${space}/members`, { userIds: [participant.memberId] });
    await as(owner).post(`/spaces/${space}/members`, { userIds: [admin.memberId], role: "ADMIN" });
    const node = await spaceNode(owner, space);
    const draft = await newContent(owner, { nodeId: node });
    notFound(await as(participant).get(`/library/contents/${draft.id}`));
    // another ADMIN of the space manages it
    const asAdmin = await as(admin).get(`/library/contents/${draft.id}`);
    expect(asAdmin.body.canManage).toBe(true);
    // publishing to the space: SHARED without any share
    await as(admin).patch(`/library/contents/${draft.id}`, { visibility: "SHARED" });
    const asParticipant = await as(participant).get(`/library/contents/${draft.id}`);
    expect(asParticipant.status).toBe(200);
    expect(asParticipant.body.canManage).toBe(false);
    notFound(await as(plain).get(`/library/contents/${draft.id}`)); // not enrolled
  });
});

describe("PATCH /api/v1/library/contents/{contentId} — updateContent", () => {
  test("check order as createContent (errors.md check order): an unknown fileId is 400 before the 404 or the 403", async () => {
    const c = await newContent(uploader, { visibility: "PUBLIC" });
    const bad = { fileIds: ["no-such-file"] };
    expect(fieldOf(await as(plain).patch(`/library/contents/${c.id}`, bad))).toBe("fileIds[0]"); // a viewer: would be 403
    expect(fieldOf(await as(plain).patch("/library/contents/nope", bad))).toBe("fileIds[0]"); // would be 404
    forbidden(await as(plain).patch(`/library/contents/${c.id}`, { title: "x" }));
  });

  test("changes only the fields sent and replaces the attachments", async () => {
    const f1 = await upload(uploader, "one.txt", "text/plain", "1");
    const f2 = await upload(uploader, "two.txt", "text/plain", "22");
    const c = await newContent(uploader, { description: "keep", fileIds: [f1] });
    await Bun.sleep(2);
    const res = await as(uploader).patch(`/library/contents/${c.id}`, { title: "Renamed", visibility: "PUBLIC", fileIds: [f2, f1] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "Renamed", description: "keep", visibility: "PUBLIC", type: "QUIZ" });
    expect(res.body.updatedAt > c.updatedAt).toBe(true);
    expect(res.body.attachments.map((a: any) => a.fileId)).toEqual([f2, f1]);
    const read = await as(plain).get(`/library/contents/${c.id}`);
    expect(read.body.title).toBe("Renamed");
    expect((await as(uploader).patch(`/library/contents/${c.id}`, { fileIds: [] })).body.attachments).toEqual([]);
  });

  test("another manager may keep files they did not upload, but not add someone else's", async () => {
    const space = await newSpace(owner);
    const node = await spaceNode(owner, space);
    await as(owner).post(`/spaces/${space}/members`, { userIds: [uploader2.memberId], role: "ADMIN" });
    const ownerFile = await upload(owner);
    const c = await newContent(owner, { nodeId: node, fileIds: [ownerFile] });
    const mine = await upload(uploader2);
    const res = await as(uploader2).patch(`/library/contents/${c.id}`, { fileIds: [ownerFile, mine] });
    expect(res.status).toBe(200);
    const foreign = await upload(uploader);
    expect(fieldOf(await as(uploader2).patch(`/library/contents/${c.id}`, { fileIds: [ownerFile, foreign] }))).toBe("fileIds[1]");
  });

  test("returns 400 for each bound", async () => {
    const c = await newContent(uploader);
    const cases: [unknown, string][] = [
      [{ title: "" }, "title"],
      [{ title: "x".repeat(301) }, "title"],
      [{ description: "x".repeat(15001) }, "description"],
      [{ description: null }, "description"],
      [{ visibility: "HIDDEN" }, "visibility"],
      [{ fileIds: Array.from({ length: 21 }, (_, i) => `f${i}`) }, "fileIds"],
      [{ fileIds: ["no-such-file"] }, "fileIds[0]"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(uploader).patch(`/library/contents/${c.id}`, body))).toBe(field);
  });

  test("403 for a viewer who does not manage it; 404 invisible, unknown or of another tenant; 401", async () => {
    const pub = await newContent(uploader, { visibility: "PUBLIC" });
    forbidden(await as(uploader2).patch(`/library/contents/${pub.id}`, { title: "x" }));
    const priv = await newContent(uploader);
    notFound(await as(uploader2).patch(`/library/contents/${priv.id}`, { title: "x" }));
    notFound(await as(uploader).patch("/library/contents/nope", { title: "x" }));
    notFound(await as(other).patch(`/library/contents/${pub.id}`, { title: "x" }));
    expectProblem(await anon.send("PATCH", `/library/contents/${pub.id}`, { title: "x" }), 401, "UNAUTHENTICATED");
  });
});

describe("DELETE /api/v1/library/contents/{contentId} — deleteContent", () => {
  test("removes the content and its shares", async () => {
    const c = await newContent(uploader, { visibility: "SHARED" });
    await as(uploader).put(`/library/contents/${c.id}/shares`, {
      shares: [{ targetType: "USER", targetId: plain.memberId, level: "VIEW" }],
    });
    const res = await as(uploader).del(`/library/contents/${c.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    notFound(await as(uploader).get(`/library/contents/${c.id}`));
    const left = api.server.rt.tenants.use(owner.tenantId, (h) =>
      h.sqlite.query("SELECT count(*) AS n FROM library_content_shares WHERE content_id = ?").get(c.id),
    ) as {
      n: number;
    };
    expect(left.n).toBe(0);
  });

  test("403 for a viewer; 404 invisible, unknown, of another tenant; 401", async () => {
    const pub = await newContent(uploader, { visibility: "PUBLIC" });
    forbidden(await as(plain).del(`/library/contents/${pub.id}`));
    notFound(await as(plain).del(`/library/contents/${(await newContent(uploader)).id}`));
    notFound(await as(uploader).del("/library/contents/nope"));
    notFound(await as(other).del(`/library/contents/${pub.id}`));
    expectProblem(await anon.send("DELETE", `/library/contents/${pub.id}`), 401, "UNAUTHENTICATED");
  });
});

describe("PUT /api/v1/library/contents/{contentId}/shares — shareContent", () => {
  test("replaces the list; SHARED content becomes visible to the members named, only while SHARED", async () => {
    const c = await newContent(uploader);
    const share = (ids: string[]) => ({ shares: ids.map((targetId) => ({ targetType: "USER", targetId, level: "VIEW" })) });
    const res = await as(uploader).put(`/library/contents/${c.id}/shares`, share([plain.memberId, uploader2.memberId, plain.memberId]));
    expect(res.status).toBe(200);
    expect(res.body.shares).toEqual([
      { targetType: "USER", targetId: plain.memberId, targetName: "Plain", level: "VIEW" },
      { targetType: "USER", targetId: uploader2.memberId, targetName: "Second", level: "VIEW" },
    ]);
    notFound(await as(plain).get(`/library/contents/${c.id}`)); // still PRIVATE
    await as(uploader).patch(`/library/contents/${c.id}`, { visibility: "SHARED" });
    expect((await as(plain).get(`/library/contents/${c.id}`)).status).toBe(200);
    const replaced = await as(uploader).put(`/library/contents/${c.id}/shares`, share([uploader2.memberId]));
    expect(replaced.body.shares.map((s: any) => s.targetId)).toEqual([uploader2.memberId]);
    notFound(await as(plain).get(`/library/contents/${c.id}`));
    expect((await as(uploader2).get(`/library/contents/${c.id}`)).status).toBe(200);
    expect((await as(uploader).put(`/library/contents/${c.id}/shares`, { shares: [] })).body.shares).toEqual([]);
  });

  test("returns 400 for each bound", async () => {
    const c = await newContent(uploader);
    const item = (o: Record<string, unknown> = {}) => ({ targetType: "USER", targetId: plain.memberId, level: "VIEW", ...o });
    const cases: [unknown, string][] = [
      [{}, "shares"],
      [{ shares: Array.from({ length: 501 }, () => item()) }, "shares"],
      [{ shares: [item({ targetType: "GROUP" })] }, "shares[0].targetType"],
      [{ shares: [item({ level: "EDIT" })] }, "shares[0].level"],
      [{ shares: [item(), item({ targetId: "no-such-member" })] }, "shares[1].targetId"],
      [{ shares: [item({ targetId: other.memberId })] }, "shares[0].targetId"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/shares`, body))).toBe(field);
  });

  test("403 for a viewer; 404 invisible or of another tenant; 401", async () => {
    const pub = await newContent(uploader, { visibility: "PUBLIC" });
    forbidden(await as(plain).put(`/library/contents/${pub.id}/shares`, { shares: [] }));
    notFound(await as(plain).put(`/library/contents/${(await newContent(uploader)).id}/shares`, { shares: [] }));
    notFound(await as(other).put(`/library/contents/${pub.id}/shares`, { shares: [] }));
    expectProblem(await anon.send("PUT", `/library/contents/${pub.id}/shares`, { shares: [] }), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/v1/library/contents — listContents", () => {
  test("lists only visible contents, newest first, with the filters", async () => {
    const tenant = await createTenantFixture(api.server);
    const writer = await createMemberFixture(api.server, tenant, { displayName: "Writer", permissions: ["library:upload"] });
    const reader = await createMemberFixture(api.server, tenant);
    const folder = (await as(writer).post("/library/nodes", { title: "Folder" })).body.id;
    const a = await newContent(writer, { type: "VIDEO", title: "Alpha video", visibility: "PUBLIC", nodeId: folder });
    const b = await newContent(writer, { type: "QUIZ", title: "Beta quiz", visibility: "PUBLIC" });
    const hidden = await newContent(writer, { type: "QUIZ", title: "Alpha draft" });
    const shared = await newContent(writer, { type: "SURVEY", title: "alpha survey", visibility: "SHARED" });
    await as(writer).put(`/library/contents/${shared.id}/shares`, {
      shares: [{ targetType: "USER", targetId: reader.memberId, level: "VIEW" }],
    });
    const ids = async (who: { token: string }, qs = "") =>
      (await as(who).get(`/library/contents${qs}`)).body.contents.map((c: any) => c.id);
    expect(await ids(reader)).toEqual([shared.id, b.id, a.id]);
    expect(await ids(writer)).toEqual([shared.id, hidden.id, b.id, a.id]);
    expect(await ids(reader, "?type=QUIZ")).toEqual([b.id]);
    expect(await ids(reader, `?nodeId=${folder}`)).toEqual([a.id]);
    expect(await ids(reader, "?q=ALPHA")).toEqual([shared.id, a.id]);
    expect(await ids(writer, "?q=alpha&type=QUIZ")).toEqual([hidden.id]);
    expect(await ids(reader, "?q=100%25")).toEqual([]);
    const item = (await as(reader).get("/library/contents?type=VIDEO")).body.contents[0];
    expect(item).toEqual({
      id: a.id,
      type: "VIDEO",
      title: "Alpha video",
      description: "",
      visibility: "PUBLIC",
      authorProfileId: writer.profileId,
      authorName: "Writer",
      ready: false,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
      canManage: false,
    });
    expect(await ids(tenant)).toEqual([b.id, a.id]); // the owner's permissions reveal neither drafts nor shares to others
  });

  test("pages with a cursor bound to the filters; a tampered or re-bound cursor is 400", async () => {
    const tenant = await createTenantFixture(api.server);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await newContent(tenant, { title: `Item ${i}` })).id);
    await newContent(tenant, { title: "Other" });
    const seen: string[] = [];
    let cursor: string | null = null;
    let first: string | null = null;
    do {
      const res: any = await as(tenant).get(`/library/contents?limit=2&q=Item${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.contents.map((c: any) => c.id));
      cursor = res.body.nextCursor;
      first ??= cursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    const c = first as string;
    const tampered = `${c.slice(0, -2)}${c.endsWith("AA") ? "BB" : "AA"}`;
    expect(fieldOf(await as(tenant).get(`/library/contents?limit=2&q=Item&cursor=${encodeURIComponent(tampered)}`))).toBe("cursor");
    expect(fieldOf(await as(tenant).get(`/library/contents?limit=2&cursor=${encodeURIComponent(c)}`))).toBe("cursor");
    expect(fieldOf(await as(tenant).get("/library/contents?cursor=garbage"))).toBe("cursor");
    // a deleted row does not break its cursor (keyset)
    await as(tenant).del(`/library/contents/${made[3]}`);
    const after = await as(tenant).get(`/library/contents?limit=2&q=Item&cursor=${encodeURIComponent(c)}`);
    expect(after.body.contents.map((x: any) => x.id)).toEqual([made[2], made[1]]);
  });

  test("returns 400 for bad query values and for a folder the caller cannot see; 401", async () => {
    const space = await newSpace(owner);
    const node = await spaceNode(owner, space);
    for (const [qs, field] of [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?type=BOOK", "type"],
      ["?nodeId=no-such-node", "nodeId"],
      [`?nodeId=${node}`, "nodeId"],
    ]) {
      expect(fieldOf(await as(plain).get(`/library/contents${qs}`))).toBe(field as string);
    }
    expectProblem(await anon.get("/library/contents"), 401, "UNAUTHENTICATED");
    // q has no length bound of its own
    expect((await as(plain).get(`/library/contents?q=${"x".repeat(301)}`)).status).toBe(200);
  });
});

describe("typed info — attachVideo, setLinkedVideo, setLiveSession, setDocument, getContentInfo", () => {
  test("attachVideo stores the caller's ready upload; the original is the one rendition", async () => {
    const c = await newContent(uploader, { type: "VIDEO", visibility: "PUBLIC" });
    expect((await as(plain).get(`/library/contents/${c.id}/info`)).body).toEqual({ type: "VIDEO", info: null });
    const file = await upload(uploader, "clip.mp4", "video/mp4", "VIDEO");
    const res = await as(uploader).put(`/library/contents/${c.id}/video`, { fileId: file });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ready",
      durationSec: null,
      thumbnailUrl: null,
      hlsUrl: null,
      renditions: [{ rendition: "original", url: expect.stringContaining(`/api/v1/files/${file}/content?token=`) }],
    });
    const info = await as(plain).get(`/library/contents/${c.id}/info`);
    expect(info.body.type).toBe("VIDEO");
    expect(await (await fetchUrl(info.body.info.renditions[0].url)).text()).toBe("VIDEO");
    expect((await as(plain).get(`/library/contents/${c.id}`)).body.ready).toBe(true);
    // another manager re-sending the stored file is fine; a foreign file is not
    expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/video`, { fileId: await upload(uploader2) }))).toBe("fileId");
    expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/video`, {}))).toBe("fileId");
  });

  test("setLinkedVideo parses the key of known hosts", async () => {
    const c = await newContent(uploader, { type: "URL_VIDEO" });
    const set = (url: string) => as(uploader).put(`/library/contents/${c.id}/url-video`, { url });
    expect((await set("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10")).body).toEqual({
      provider: "video_host",
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10",
      videoKey: "dQw4w9WgXcQ",
    });
    expect((await set("https://youtu.be/dQw4w9WgXcQ")).body.videoKey).toBe("dQw4w9WgXcQ");
    expect((await set("https://vimeo.com/76979871")).body.videoKey).toBe("76979871");
    expect((await set("https://video.example.com/v/123")).body.videoKey).toBeNull();
    expect((await as(uploader).get(`/library/contents/${c.id}/info`)).body.info.url).toBe("https://video.example.com/v/123");
    for (const url of ["not a url", "ftp://example.com/x", "javascript:alert(1)", `https://example.com/${"x".repeat(990)}`]) {
      expect(fieldOf(await set(url))).toBe("url");
    }
  });

  test("setLiveSession defaults the provider to other; status SCHEDULED", async () => {
    const c = await newContent(uploader, { type: "LIVE" });
    const res = await as(uploader).put(`/library/contents/${c.id}/live`, { joinUrl: "https://meet.example.com/abc" });
    expect(res.body).toEqual({
      provider: "other",
      joinUrl: "https://meet.example.com/abc",
      startAt: null,
      endAt: null,
      status: "SCHEDULED",
    });
    const again = await as(uploader).put(`/library/contents/${c.id}/live`, {
      joinUrl: "https://meet.example.com/x",
      provider: "meeting_b",
    });
    expect(again.body.provider).toBe("meeting_b");
    expect((await as(uploader).get(`/library/contents/${c.id}/info`)).body.info.provider).toBe("meeting_b");
    expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/live`, { joinUrl: "https://x.example", provider: "zoom" }))).toBe(
      "provider",
    );
    expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/live`, { provider: "other" }))).toBe("joinUrl");
  });

  test("setLiveSession takes startAt and endAt; the status follows the clock (SCHEDULED, LIVE, ENDED)", async () => {
    const c = await newContent(uploader, { type: "LIVE", visibility: "PUBLIC" });
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    const live = (startAt: string | null, endAt: string | null) =>
      as(uploader).put(`/library/contents/${c.id}/live`, { joinUrl: "https://meet.example.com/class", startAt, endAt });
    const later = await live(at(60), at(120));
    expect(later.status).toBe(200);
    expect(later.body.status).toBe("SCHEDULED");
    expect(later.body.startAt).toMatch(ISO);
    expect((await live(at(-10), at(50))).body.status).toBe("LIVE");
    expect((await as(plain).get(`/library/contents/${c.id}/info`)).body.info.status).toBe("LIVE");
    expect((await live(at(-10), null)).body.status).toBe("LIVE");
    expect((await live(at(-120), at(-60))).body).toMatchObject({ status: "ENDED", endAt: expect.stringMatching(ISO) });
    expect((await live(null, null)).body).toMatchObject({ status: "SCHEDULED", startAt: null, endAt: null });
    expect(fieldOf(await live(at(60), at(30)))).toBe("endAt");
    expect(fieldOf(await live(at(60), at(60)))).toBe("endAt");
    expect(fieldOf(await live("tomorrow", null))).toBe("startAt");
  });

  test("setDocument: fileId, mimeType, pageCount and a download URL", async () => {
    const c = await newContent(uploader, { type: "DOCUMENT", visibility: "PUBLIC" });
    const file = await upload(uploader, "slides.pdf", "application/pdf", "%PDF");
    const res = await as(uploader).put(`/library/contents/${c.id}/document`, { fileId: file, pageCount: 12 });
    expect(res.body).toEqual({ fileId: file, mimeType: "application/pdf", pageCount: 12, downloadUrl: expect.any(String) });
    const info = (await as(plain).get(`/library/contents/${c.id}/info`)).body.info;
    expect(await (await fetchUrl(info.downloadUrl)).text()).toBe("%PDF");
    expect((await as(uploader).put(`/library/contents/${c.id}/document`, { fileId: file })).body.pageCount).toBeNull();
    expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/document`, { fileId: file, pageCount: 0 }))).toBe("pageCount");
    expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/document`, { fileId: file, pageCount: 1.5 }))).toBe("pageCount");
    expect(fieldOf(await as(uploader).put(`/library/contents/${c.id}/document`, { fileId: "nope" }))).toBe("fileId");
  });

  test("a typed route on content of another type is 404; getContentInfo of other types is 404", async () => {
    const quiz = await newContent(uploader, { type: "QUIZ", visibility: "PUBLIC" });
    const doc = await newContent(uploader, { type: "DOCUMENT" });
    const file = await upload(uploader);
    notFound(await as(uploader).put(`/library/contents/${doc.id}/video`, { fileId: file }));
    notFound(await as(uploader).put(`/library/contents/${quiz.id}/url-video`, { url: "https://example.com" }));
    notFound(await as(uploader).put(`/library/contents/${quiz.id}/live`, { joinUrl: "https://example.com" }));
    notFound(await as(uploader).put(`/library/contents/${quiz.id}/document`, { fileId: file }));
    notFound(await as(plain).get(`/library/contents/${quiz.id}/info`));
  });

  test("403 for a viewer, 404 invisible or of another tenant, 401 without a token", async () => {
    const pub = await newContent(uploader, { type: "LIVE", visibility: "PUBLIC" });
    const body = { joinUrl: "https://example.com" };
    forbidden(await as(plain).put(`/library/contents/${pub.id}/live`, body));
    notFound(await as(other).put(`/library/contents/${pub.id}/live`, body));
    notFound(await as(other).get(`/library/contents/${pub.id}/info`));
    const priv = await newContent(uploader, { type: "LIVE" });
    notFound(await as(plain).put(`/library/contents/${priv.id}/live`, body));
    notFound(await as(plain).get(`/library/contents/${priv.id}/info`));
    for (const [method, path] of [
      ["PUT", "video"],
      ["PUT", "url-video"],
      ["PUT", "live"],
      ["PUT", "document"],
      ["GET", "info"],
    ]) {
      const res = await api.call(method as string, `/api/v1/library/contents/${pub.id}/${path}`, method === "PUT" ? { json: {} } : {});
      expectProblem(res, 401, "UNAUTHENTICATED");
    }
  });
});

describe("exports for other modules", () => {
  test("contentPopulation: a space's PARTICIPANTs, else the shares while SHARED", async () => {
    const tenant = await createTenantFixture(api.server);
    const p1 = await createMemberFixture(api.server, tenant);
    const p2 = await createMemberFixture(api.server, tenant);
    const space = await newSpace(tenant);
    await as(tenant).post(`/spaces/${space}/members`, { userIds: [p1.memberId, p2.memberId] });
    const node = await spaceNode(tenant, space);
    const inSpace = await newContent(tenant, { nodeId: node });
    const loose = await newContent(tenant);
    await as(tenant).put(`/library/contents/${loose.id}/shares`, {
      shares: [{ targetType: "USER", targetId: p1.memberId, level: "VIEW" }],
    });
    const population = (id: string) =>
      api.server.rt.tenants.use(tenant.tenantId, (h) => {
        const row = h.db
          .select()
          .from(libraryContents)
          .all()
          .find((r) => r.id === id);
        return contentPopulation(h.db, row as typeof libraryContents.$inferSelect)
          .map((m) => `${m.memberId}/${m.profileId}`)
          .sort();
      });
    expect(population(inSpace.id)).toEqual([`${p1.memberId}/${p1.profileId}`, `${p2.memberId}/${p2.profileId}`].sort());
    expect(population(loose.id)).toEqual([]); // PRIVATE
    await as(tenant).patch(`/library/contents/${loose.id}`, { visibility: "SHARED" });
    expect(population(loose.id)).toEqual([`${p1.memberId}/${p1.profileId}`]);
    // contentCounts: published contents in the space's folders
    const counts = () => api.server.rt.tenants.use(tenant.tenantId, (h) => Object.fromEntries(contentCounts(h.db, [space, "none"])));
    expect(counts()).toEqual({ [space]: 0, none: 0 });
    await as(tenant).patch(`/library/contents/${inSpace.id}`, { visibility: "SHARED" });
    await newContent(tenant, { nodeId: node, visibility: "PUBLIC" });
    expect(counts()).toEqual({ [space]: 2, none: 0 });
  });

  test("canSeeContentFile: a file attached to, or played by, a content the caller sees", async () => {
    const attached = await upload(uploader, "a.txt", "text/plain", "a");
    const played = await upload(uploader, "v.mp4", "video/mp4", "v");
    const c = await newContent(uploader, { type: "VIDEO", fileIds: [attached] });
    await as(uploader).put(`/library/contents/${c.id}/video`, { fileId: played });
    const sees = (who: { memberId: string; profileId: string }, fileId: string) =>
      api.server.rt.tenants.use(owner.tenantId, (h) => canSeeContentFile(h.db, who, fileId));
    expect([sees(uploader, attached), sees(uploader, played)]).toEqual([true, true]);
    expect([sees(plain, attached), sees(plain, played)]).toEqual([false, false]);
    await as(uploader).patch(`/library/contents/${c.id}`, { visibility: "PUBLIC" });
    expect([sees(plain, attached), sees(plain, played)]).toEqual([true, true]);
  });
});
