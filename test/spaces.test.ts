import { beforeAll, describe, expect, test } from "bun:test";
import { MENUS } from "../src/modules/spaces/model";
import { FREE_TEXT_MAX } from "../src/platform/http/schemas";
import type { Member, Tenant } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, fieldOf, useServer } from "./helpers/server";

const api = useServer();
const { as } = api;

let owner: Tenant;
let other: Tenant;
let plain: Member; // no permissions
let creator: Member; // space:create only
let reader: Member; // member:read only

beforeAll(async () => {
  owner = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  plain = await createMemberFixture(api.server, owner, { displayName: "Plain" });
  creator = await createMemberFixture(api.server, owner, { displayName: "Creator", permissions: ["space:create"] });
  reader = await createMemberFixture(api.server, owner, { displayName: "Reader", permissions: ["member:read"] });
});

async function newSpace(who: { token: string }, body: Record<string, unknown> = {}) {
  const res = await as(who).post("/spaces", { name: "Space", ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

describe("POST /api/v1/spaces — createSpace", () => {
  test("creates a space whose creator is its owning ADMIN, with defaults and menus", async () => {
    const res = await as(creator).post("/spaces", { name: "Algebra", semester: "2025-1", representativeName: "Kim" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "Algebra",
      representativeName: "Kim",
      description: null,
      thumbnailUrl: null,
      semester: "2025-1",
      isActive: true,
      isPublic: false,
      autoJoin: false,
      exitRestricted: false,
      allowFileDownload: true,
      vodConcurrentLimit: false,
      retainEnrollmentHistory: false,
      startMenu: "announcement",
      enabledMenus: ["announcement", "content", "community", "team", "challenge", "grade"],
      messageEnabled: false,
      adminCount: 1,
      participantCount: 0,
      postCount: 0,
      contentCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      fieldValues: [],
    });
    const members = await as(creator).get(`/spaces/${res.body.id}/members`);
    expect(members.body.members).toEqual([
      { id: creator.memberId, userId: null, displayName: "Creator", email: creator.email, role: "ADMIN", isOwner: true },
    ]);
  });

  test("takes absent flags from space-defaults; enforce* flags override sent values; menus come from space-categories", async () => {
    const tenant = await createTenantFixture(api.server);
    await as(tenant).patch("/space-defaults", {
      defaultAutoJoin: true,
      defaultExitRestricted: true,
      enforceFileDownloadDisabled: true,
      enforceVodConcurrentLimit: true,
    });
    await as(tenant).put("/space-categories", { startMenu: "content", enabledMenus: ["content", "grade"] });
    const a = await newSpace(tenant, { allowFileDownload: true, vodConcurrentLimit: false });
    expect(a).toMatchObject({
      autoJoin: true,
      exitRestricted: true,
      allowFileDownload: false,
      vodConcurrentLimit: true,
      startMenu: "content",
      enabledMenus: ["content", "grade"],
    });
    const b = await newSpace(tenant, { autoJoin: false, exitRestricted: false, isPublic: true, retainEnrollmentHistory: true });
    expect(b).toMatchObject({ autoJoin: false, exitRestricted: false, isPublic: true, retainEnrollmentHistory: true });
    // updates obey the enforce* flags too
    const u = await as(tenant).patch(`/spaces/${b.id}`, { allowFileDownload: true, vodConcurrentLimit: false });
    expect(u.body).toMatchObject({ allowFileDownload: false, vodConcurrentLimit: true });
  });

  test("enforce* flags turned on later hold for existing spaces too (reads and lists); off again, the stored values return", async () => {
    const tenant = await createTenantFixture(api.server);
    const a = await newSpace(tenant, { allowFileDownload: true, vodConcurrentLimit: false });
    expect(a).toMatchObject({ allowFileDownload: true, vodConcurrentLimit: false });
    const flags = async () => {
      const one = (await as(tenant).get(`/spaces/${a.id}`)).body;
      const listed = (await as(tenant).get("/spaces")).body.spaces.find((x: { id: string }) => x.id === a.id);
      expect(listed.allowFileDownload).toBe(one.allowFileDownload);
      expect(listed.vodConcurrentLimit).toBe(one.vodConcurrentLimit);
      return { allowFileDownload: one.allowFileDownload, vodConcurrentLimit: one.vodConcurrentLimit };
    };
    await as(tenant).patch("/space-defaults", { enforceFileDownloadDisabled: true });
    expect(await flags()).toEqual({ allowFileDownload: false, vodConcurrentLimit: false });
    await as(tenant).patch("/space-defaults", { enforceVodConcurrentLimit: true });
    expect(await flags()).toEqual({ allowFileDownload: false, vodConcurrentLimit: true });
    // an update that sends nothing of them still shows the enforced values
    expect((await as(tenant).patch(`/spaces/${a.id}`, { name: "Renamed" })).body).toMatchObject({
      allowFileDownload: false,
      vodConcurrentLimit: true,
    });
    await as(tenant).patch("/space-defaults", { enforceFileDownloadDisabled: false, enforceVodConcurrentLimit: false });
    expect(await flags()).toEqual({ allowFileDownload: true, vodConcurrentLimit: false });
  });

  test("takes the caller's own ready upload as thumbnail and emits a signed thumbnailUrl", async () => {
    const t = await as(owner).post("/files", { fileName: "thumb.png", contentType: "image/png", size: 3 });
    expect(t.status).toBe(201);
    const pending = await as(owner).post("/spaces", { name: "x", thumbnailFileId: t.body.fileId });
    expect(fieldOf(pending)).toBe("thumbnailFileId"); // not uploaded yet
    const url = new URL(t.body.uploadUrl);
    const up = await api.call("PUT", `${url.pathname}${url.search}`, { body: "abc", headers: { "content-type": "image/png" } });
    expect(up.status).toBe(200);
    const space = await newSpace(owner, { thumbnailFileId: t.body.fileId });
    expect(space.thumbnailUrl).toStartWith(`${api.server.rt.config.publicUrl}/api/v1/files/${t.body.fileId}/content?token=`);
    const got = await fetch(space.thumbnailUrl.replace(api.server.rt.config.publicUrl, api.url));
    expect(await got.text()).toBe("abc");
    // another member's upload is not theirs to use
    expect(fieldOf(await as(creator).post("/spaces", { name: "x", thumbnailFileId: t.body.fileId }))).toBe("thumbnailFileId");
    expect((await as(owner).patch(`/spaces/${space.id}`, { thumbnailFileId: null })).body.thumbnailUrl).toBeNull();
  });

  test("a thumbnail is readable (getFile, its URL) by whoever sees the space, and only while they do", async () => {
    const t = await as(owner).post("/files", { fileName: "thumb.png", contentType: "image/png", size: 3 });
    const url = new URL(t.body.uploadUrl);
    expect((await api.call("PUT", `${url.pathname}${url.search}`, { body: "abc", headers: { "content-type": "image/png" } })).status).toBe(
      200,
    );
    const space = await newSpace(owner, { thumbnailFileId: t.body.fileId, isPublic: true });
    const seen = await as(plain).get(`/spaces/${space.id}`);
    const fetchThumb = () => fetch(seen.body.thumbnailUrl.replace(api.server.rt.config.publicUrl, api.url));
    expect((await as(plain).get(`/files/${t.body.fileId}`)).body.fileName).toBe("thumb.png");
    expect((await fetchThumb()).status).toBe(200);
    expect((await as(owner).patch(`/spaces/${space.id}`, { isPublic: false })).status).toBe(200);
    expectProblem(await as(plain).get(`/files/${t.body.fileId}`), 404, "NOT_FOUND");
    expect((await fetchThumb()).status).toBe(404);
    expect((await as(creator).get(`/files/${t.body.fileId}`)).status).toBe(200); // space:create sees every space
  });

  test("returns 400 for each bound", async () => {
    const cases: [unknown, string][] = [
      [{}, "name"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(256) }, "name"],
      [{ name: "x", isPublic: "yes" }, "isPublic"],
      [{ name: "x", autoJoin: 1 }, "autoJoin"],
      [{ name: "x", thumbnailFileId: "no-such-file" }, "thumbnailFileId"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(owner).post("/spaces", body))).toBe(field);
  });

  test("representativeName, semester and description have no bound in the API: long values up to the free-text bound are kept", async () => {
    const long = { representativeName: "r".repeat(300), semester: "s".repeat(300), description: "d".repeat(FREE_TEXT_MAX) };
    const space = await newSpace(owner, long);
    expect(space).toMatchObject(long);
    const listed = await as(owner).get(`/spaces?semester=${"s".repeat(300)}`);
    expect(listed.status).toBe(200);
    expect(listed.body.spaces.map((s: { id: string }) => s.id)).toEqual([space.id]);
  });

  test("returns 401 without a token and 403 without space:create", async () => {
    expectProblem(await api.call("POST", "/api/v1/spaces", { json: { name: "x" } }), 401, "UNAUTHENTICATED");
    expectProblem(await as(plain).post("/spaces", { name: "x" }), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/spaces/{spaceId} — getSpace", () => {
  test("is visible to enrolled members, for public spaces, and to holders of space:create", async () => {
    const priv = await newSpace(owner, { name: "Private" });
    const pub = await newSpace(owner, { name: "Public", isPublic: true });
    expect((await as(owner).get(`/spaces/${priv.id}`)).body).toEqual(priv);
    expect((await as(creator).get(`/spaces/${priv.id}`)).status).toBe(200);
    expect((await as(plain).get(`/spaces/${pub.id}`)).status).toBe(200);
    expectProblem(await as(plain).get(`/spaces/${priv.id}`), 404, "NOT_FOUND");
    await as(owner).post(`/spaces/${priv.id}/members`, { userIds: [plain.memberId] });
    expect((await as(plain).get(`/spaces/${priv.id}`)).body.participantCount).toBe(1);
  });

  test("returns 404 for an unknown space and a space of another tenant; 401", async () => {
    const theirs = await newSpace(other, { isPublic: true });
    expectProblem(await as(owner).get(`/spaces/${theirs.id}`), 404, "NOT_FOUND");
    expectProblem(await as(owner).get("/spaces/nope"), 404, "NOT_FOUND");
    expectProblem(await api.call("GET", `/api/v1/spaces/${theirs.id}`), 401, "UNAUTHENTICATED");
  });
});

describe("PATCH /api/v1/spaces/{spaceId} — updateSpace", () => {
  test("changes sent fields; null clears; absent fields stay; later reads show it", async () => {
    const s = await newSpace(owner, { name: "Before", description: "d", semester: "S1" });
    const res = await as(owner).patch(`/spaces/${s.id}`, {
      name: "After",
      description: null,
      isActive: false,
      isPublic: true,
      startMenu: "team",
      enabledMenus: ["team"],
      messageEnabled: true,
      exitRestricted: true,
      retainEnrollmentHistory: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "After",
      description: null,
      semester: "S1",
      isActive: false,
      isPublic: true,
      startMenu: "team",
      enabledMenus: ["team"],
      messageEnabled: true,
      exitRestricted: true,
      retainEnrollmentHistory: true,
    });
    expect((await as(owner).get(`/spaces/${s.id}`)).body).toEqual(res.body);
  });

  test("returns 400 for each bound", async () => {
    const s = await newSpace(owner);
    const cases: [unknown, string][] = [
      [{ name: "" }, "name"],
      [{ startMenu: "x".repeat(21) }, "startMenu"],
      [{ startMenu: "home" }, "startMenu"],
      [{ enabledMenus: Array.from({ length: 11 }, (_, i) => `m${i}`) }, "enabledMenus"],
      [{ enabledMenus: ["x".repeat(21)] }, "enabledMenus[0]"],
      [{ enabledMenus: ["content", "nope"] }, "enabledMenus[1]"],
      [{ enabledMenus: ["content", "grade", "content"] }, "enabledMenus"],
      [{ isActive: "false" }, "isActive"],
      [{ thumbnailFileId: "nope" }, "thumbnailFileId"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(owner).patch(`/spaces/${s.id}`, body))).toBe(field);
    expect((await as(owner).get(`/spaces/${s.id}`)).body).toMatchObject({ startMenu: "announcement", enabledMenus: [...MENUS] });
  });

  test("returns 403 for a participant, 404 when invisible or of another tenant, 401", async () => {
    const s = await newSpace(owner);
    expectProblem(await as(plain).patch(`/spaces/${s.id}`, { name: "x" }), 404, "NOT_FOUND");
    // space:create makes it visible, but tenant permissions never grant space roles
    expectProblem(await as(creator).patch(`/spaces/${s.id}`, { name: "x" }), 403, "FORBIDDEN");
    await as(owner).post(`/spaces/${s.id}/members`, { userIds: [plain.memberId] });
    expectProblem(await as(plain).patch(`/spaces/${s.id}`, { name: "x" }), 403, "FORBIDDEN");
    const theirs = await newSpace(other);
    expectProblem(await as(owner).patch(`/spaces/${theirs.id}`, { name: "x" }), 404, "NOT_FOUND");
    expectProblem(await api.call("PATCH", `/api/v1/spaces/${s.id}`, { json: { name: "x" } }), 401, "UNAUTHENTICATED");
  });
});

describe("DELETE /api/v1/spaces/{spaceId} — deleteSpace", () => {
  test("returns the removed space and cascades to members, codes, blocks and group sets", async () => {
    const s = await newSpace(owner, { name: "Doomed" });
    await as(owner).post(`/spaces/${s.id}/members`, { userIds: [plain.memberId] });
    const code = (await as(owner).post(`/spaces/${s.id}/join-codes`, {})).body.code;
    await as(owner).post(`/spaces/${s.id}/blocks`, { userId: reader.memberId });
    await as(owner).post(`/spaces/${s.id}/group-sets`, { name: "G", groups: [{ name: "A", memberIds: [plain.memberId] }] });
    const res = await as(owner).del(`/spaces/${s.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, name: "Doomed", adminCount: 1, participantCount: 1 });
    expectProblem(await as(owner).get(`/spaces/${s.id}`), 404, "NOT_FOUND");
    expect(expectProblem(await as(plain).post("/spaces/join", { code }), 400, "INVALID_CODE").errors[0].field).toBe("code");
    const rows = api.server.rt.tenants.use(owner.tenantId, (h) =>
      ["space_members", "space_join_codes", "space_blocks", "space_group_sets"].map(
        (table) => (h.sqlite.query(`SELECT count(*) AS n FROM ${table} WHERE space_id = ?`).get(s.id) as { n: number }).n,
      ),
    );
    expect(rows).toEqual([0, 0, 0, 0]);
  });

  test("returns 403 for a participant, 404 invisible or of another tenant, 401", async () => {
    const s = await newSpace(owner);
    expectProblem(await as(plain).del(`/spaces/${s.id}`), 404, "NOT_FOUND");
    await as(owner).post(`/spaces/${s.id}/members`, { userIds: [plain.memberId] });
    expectProblem(await as(plain).del(`/spaces/${s.id}`), 403, "FORBIDDEN");
    const theirs = await newSpace(other);
    expectProblem(await as(owner).del(`/spaces/${theirs.id}`), 404, "NOT_FOUND");
    expectProblem(await api.call("DELETE", `/api/v1/spaces/${s.id}`), 401, "UNAUTHENTICATED");
    expect((await as(owner).get(`/spaces/${s.id}`)).status).toBe(200);
  });
});

describe("GET /api/v1/spaces — listSpaces", () => {
  test("lists only visible spaces, newest first, with total", async () => {
    const tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    const a = await newSpace(tenant, { name: "A private" });
    const b = await newSpace(tenant, { name: "B public", isPublic: true });
    const c = await newSpace(tenant, { name: "C enrolled" });
    await as(tenant).post(`/spaces/${c.id}/members`, { userIds: [m.memberId] });
    const all = await as(tenant).get("/spaces");
    expect(all.body.spaces.map((s: any) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body).toMatchObject({ total: 3, nextCursor: null });
    const mine = await as(m).get("/spaces");
    expect(mine.body.spaces.map((s: any) => s.id)).toEqual([c.id, b.id]);
    expect(mine.body.total).toBe(2);
    expect(mine.body.spaces[0]).toMatchObject({ adminCount: 1, participantCount: 1 });
  });

  test("filters by search, isActive, semester, autoJoin and exitRestricted", async () => {
    const tenant = await createTenantFixture(api.server);
    const a = await newSpace(tenant, { name: "Math 101", semester: "2025-1", autoJoin: true });
    const b = await newSpace(tenant, { name: "Physics", semester: "2025-2", exitRestricted: true });
    const c = await newSpace(tenant, { name: "math_lab" });
    await as(tenant).patch(`/spaces/${c.id}`, { isActive: false });
    const ids = async (q: string) => (await as(tenant).get(`/spaces?${q}`)).body.spaces.map((s: any) => s.id);
    expect(await ids("search=MATH")).toEqual([c.id, a.id]);
    expect(await ids("search=_")).toEqual([c.id]);
    expect(await ids("isActive=false")).toEqual([c.id]);
    expect(await ids("isActive=true")).toEqual([b.id, a.id]);
    expect(await ids("semester=2025-2")).toEqual([b.id]);
    expect(await ids("autoJoin=true")).toEqual([a.id]);
    expect(await ids("exitRestricted=true")).toEqual([b.id]);
    expect(await ids("exitRestricted=false&search=math")).toEqual([c.id, a.id]);
    expect((await as(tenant).get("/spaces?search=math")).body.total).toBe(2);
  });

  test("myRole keeps the spaces the caller is enrolled in with that role (a teacher's own classes); a bad value is 400", async () => {
    const tenant = await createTenantFixture(api.server);
    const teacher = await createMemberFixture(api.server, tenant, { displayName: "Teacher", permissions: ["space:create"] });
    const mine = await newSpace(teacher, { name: "Mine" });
    const theirs = await newSpace(tenant, { name: "Theirs" });
    const taught = await newSpace(tenant, { name: "Co-taught" });
    await as(tenant).post(`/spaces/${taught.id}/members`, { userIds: [teacher.memberId], role: "ADMIN" });
    const joined = await newSpace(tenant, { name: "Joined" });
    await as(tenant).post(`/spaces/${joined.id}/members`, { userIds: [teacher.memberId] });
    const ids = async (q: string) => (await as(teacher).get(`/spaces?${q}`)).body.spaces.map((s: any) => s.id);
    // space:create sees every space; myRole narrows it to the caller's own
    expect(await ids("")).toEqual([joined.id, taught.id, theirs.id, mine.id]);
    expect(await ids("myRole=ADMIN")).toEqual([taught.id, mine.id]);
    expect(await ids("myRole=PARTICIPANT")).toEqual([joined.id]);
    expect((await as(teacher).get("/spaces?myRole=ADMIN")).body.total).toBe(2);
    expect(await ids("myRole=ADMIN&search=Co")).toEqual([taught.id]);
    expect(fieldOf(await as(teacher).get("/spaces?myRole=OWNER"))).toBe("myRole");
  });

  test("pages with a cursor bound to the filters; a tampered or re-bound cursor is 400", async () => {
    const tenant = await createTenantFixture(api.server);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await newSpace(tenant, { name: `S${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await as(tenant).get(`/spaces?limit=2&search=S${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(5);
      seen.push(...res.body.spaces.map((s: any) => s.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].reverse());
    const first = (await as(tenant).get("/spaces?limit=2&search=S")).body.nextCursor as string;
    const tampered = `${first.slice(0, -2)}${first.endsWith("AA") ? "BB" : "AA"}`;
    expect(fieldOf(await as(tenant).get(`/spaces?limit=2&search=S&cursor=${encodeURIComponent(tampered)}`))).toBe("cursor");
    expect(fieldOf(await as(tenant).get(`/spaces?limit=2&cursor=${encodeURIComponent(first)}`))).toBe("cursor");
    expect(fieldOf(await as(tenant).get("/spaces?cursor=garbage"))).toBe("cursor");
    // another operation's cursor
    const sp = made[0] as string;
    for (let i = 0; i < 2; i++)
      await as(tenant).post(`/spaces/${sp}/members`, { userIds: [(await createMemberFixture(api.server, tenant)).memberId] });
    const memberCursor = (await as(tenant).get(`/spaces/${sp}/members?limit=1`)).body.nextCursor as string;
    expect(fieldOf(await as(tenant).get(`/spaces?cursor=${encodeURIComponent(memberCursor)}`))).toBe("cursor");
  });

  test("returns 400 for each bound and 401", async () => {
    for (const [q, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["isActive=yes", "isActive"],
      ["autoJoin=1", "autoJoin"],
      ["exitRestricted=TRUE", "exitRestricted"],
      [`search=${"x".repeat(256)}`, "search"],
      ["search=", "search"],
    ]) {
      expect(fieldOf(await as(owner).get(`/spaces?${q}`))).toBe(field as string);
    }
    expectProblem(await api.call("GET", "/api/v1/spaces"), 401, "UNAUTHENTICATED");
  });

  test("never lists another tenant's spaces", async () => {
    const theirs = await newSpace(other, { name: "Theirs", isPublic: true });
    const res = await as(owner).get("/spaces?limit=100");
    expect(res.body.spaces.some((s: any) => s.id === theirs.id)).toBe(false);
  });
});

describe("POST /api/v1/spaces/email-count — checkSpaceEmailCount", () => {
  test("counts the spaces the member with that e-mail is enrolled in (case-insensitive); 0 for none", async () => {
    const tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    for (let i = 0; i < 2; i++) {
      const s = await newSpace(tenant);
      await as(tenant).post(`/spaces/${s.id}/members`, { userIds: [m.memberId] });
    }
    const res = await as(tenant).post("/spaces/email-count", { email: m.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: m.email.toUpperCase(), count: 2 });
    expect((await as(tenant).post("/spaces/email-count", { email: "nobody@example.com" })).body.count).toBe(0);
    expect((await as(tenant).post("/spaces/email-count", { email: tenant.email })).body.count).toBe(2);
  });

  test("returns 400 for a bad e-mail, 401, and 403 without member:read", async () => {
    expect(fieldOf(await as(owner).post("/spaces/email-count", { email: "not-an-email" }))).toBe("email");
    expect(fieldOf(await as(owner).post("/spaces/email-count", {}))).toBe("email");
    expect((await as(reader).post("/spaces/email-count", { email: "a@example.com" })).status).toBe(200);
    expectProblem(await as(plain).post("/spaces/email-count", { email: "a@example.com" }), 403, "FORBIDDEN");
    expectProblem(await api.call("POST", "/api/v1/spaces/email-count", { json: { email: "a@example.com" } }), 401, "UNAUTHENTICATED");
  });
});

describe("GET/PATCH /api/v1/space-defaults — getSpaceDefaults, updateSpaceDefaults", () => {
  test("reads the built-in defaults, patches the sent flags, and any member reads the result", async () => {
    const tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    const initial = {
      defaultAutoJoin: false,
      defaultExitRestricted: false,
      defaultAllowFileDownload: true,
      defaultVodConcurrentLimit: false,
      enforceFileDownloadDisabled: false,
      enforceVodConcurrentLimit: false,
    };
    expect((await as(m).get("/space-defaults")).body).toEqual(initial);
    const res = await as(tenant).patch("/space-defaults", { defaultAllowFileDownload: false, defaultVodConcurrentLimit: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...initial, defaultAllowFileDownload: false, defaultVodConcurrentLimit: true });
    const again = await as(tenant).patch("/space-defaults", { defaultAutoJoin: true });
    expect(again.body).toEqual({ ...initial, defaultAllowFileDownload: false, defaultVodConcurrentLimit: true, defaultAutoJoin: true });
    expect((await as(m).get("/space-defaults")).body).toEqual(again.body);
    expect(await newSpace(tenant)).toMatchObject({ autoJoin: true, allowFileDownload: false, vodConcurrentLimit: true });
  });

  test("returns 400 for non-boolean flags, 401, and 403 without tenant-settings:manage", async () => {
    expect(fieldOf(await as(owner).patch("/space-defaults", { defaultAutoJoin: "yes" }))).toBe("defaultAutoJoin");
    expect(fieldOf(await as(owner).patch("/space-defaults", { enforceVodConcurrentLimit: null }))).toBe("enforceVodConcurrentLimit");
    expectProblem(await as(plain).patch("/space-defaults", { defaultAutoJoin: true }), 403, "FORBIDDEN");
    expectProblem(await api.call("PATCH", "/api/v1/space-defaults", { json: {} }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", "/api/v1/space-defaults"), 401, "UNAUTHENTICATED");
  });
});

describe("GET/PUT /api/v1/space-categories, PATCH /api/v1/space-categories/{categoryId}", () => {
  test("PUT replaces everything: ids are kept, new items created, missing ones deleted; absent fields take defaults", async () => {
    const tenant = await createTenantFixture(api.server);
    const m = await createMemberFixture(api.server, tenant);
    expect((await as(m).get("/space-categories")).body).toEqual({
      semesterEnabled: false,
      semesterWithYear: false,
      tags: [],
      roles: [],
      startMenu: "announcement",
      enabledMenus: ["announcement", "content", "community", "team", "challenge", "grade"],
      categories: [],
    });
    const first = await as(tenant).put("/space-categories", {
      semesterEnabled: true,
      tags: ["a", "b"],
      roles: ["TA"],
      startMenu: "challenge",
      enabledMenus: ["challenge", "content"],
      categories: [{ name: "One" }, { name: "Two" }, { name: "Three", order: 10 }],
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      semesterEnabled: true,
      semesterWithYear: false,
      tags: ["a", "b"],
      roles: ["TA"],
      startMenu: "challenge",
    });
    expect(first.body.categories.map((c: any) => [c.name, c.order])).toEqual([
      ["One", 0],
      ["Two", 1],
      ["Three", 10],
    ]);
    const [one, , three] = first.body.categories;
    const second = await as(tenant).put("/space-categories", {
      categories: [
        { id: three.id, name: "Three!", order: 0 },
        { id: one.id, name: "One", order: 1 },
        { name: "Four", order: 2 },
      ],
    });
    expect(second.body).toMatchObject({ semesterEnabled: false, tags: [], startMenu: "announcement" });
    expect(second.body.categories.map((c: any) => [c.id === three.id || c.id === one.id ? c.id : "new", c.name])).toEqual([
      [three.id, "Three!"],
      [one.id, "One"],
      ["new", "Four"],
    ]);
    expect((await as(m).get("/space-categories")).body).toEqual(second.body);
  });

  test("PUT returns 400 for each bound and an unknown category id", async () => {
    const cases: [unknown, string][] = [
      [{ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, "tags"],
      [{ tags: ["x".repeat(51)] }, "tags[0]"],
      [{ roles: ["x".repeat(51)] }, "roles[0]"],
      [{ startMenu: "home" }, "startMenu"],
      [{ enabledMenus: ["nope"] }, "enabledMenus[0]"],
      [{ enabledMenus: Array.from({ length: 11 }, () => "content") }, "enabledMenus"],
      [{ enabledMenus: ["team", "team"] }, "enabledMenus"],
      [{ categories: Array.from({ length: 21 }, (_, i) => ({ name: `c${i}` })) }, "categories"],
      [{ categories: [{ name: "" }] }, "categories[0].name"],
      [{ categories: [{ name: "x".repeat(101) }] }, "categories[0].name"],
      [{ categories: [{ name: "x", order: 1.5 }] }, "categories[0].order"],
      [{ categories: [{ id: "nope", name: "x" }] }, "categories[0].id"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(owner).put("/space-categories", body))).toBe(field);
  });

  test("PATCH renames or reorders one category; 400 bounds; 404 unknown or of another tenant", async () => {
    const tenant = await createTenantFixture(api.server);
    const [cat] = (await as(tenant).put("/space-categories", { categories: [{ name: "A" }] })).body.categories;
    const res = await as(tenant).patch(`/space-categories/${cat.id}`, { name: "B" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: cat.id, name: "B", order: 0 });
    expect((await as(tenant).patch(`/space-categories/${cat.id}`, { order: 5 })).body).toEqual({ id: cat.id, name: "B", order: 5 });
    expect((await as(tenant).get("/space-categories")).body.categories).toEqual([{ id: cat.id, name: "B", order: 5 }]);
    expect(fieldOf(await as(tenant).patch(`/space-categories/${cat.id}`, { name: "" }))).toBe("name");
    expect(fieldOf(await as(tenant).patch(`/space-categories/${cat.id}`, { name: "x".repeat(101) }))).toBe("name");
    expect(fieldOf(await as(tenant).patch(`/space-categories/${cat.id}`, { order: 1.5 }))).toBe("order");
    expectProblem(await as(owner).patch(`/space-categories/${cat.id}`, { name: "x" }), 404, "NOT_FOUND");
    expectProblem(await as(tenant).patch("/space-categories/nope", { name: "x" }), 404, "NOT_FOUND");
  });

  test("401 and 403 without tenant-settings:manage", async () => {
    expectProblem(await as(plain).put("/space-categories", {}), 403, "FORBIDDEN");
    expectProblem(await as(plain).patch("/space-categories/x", { name: "x" }), 403, "FORBIDDEN");
    expect((await as(plain).get("/space-categories")).status).toBe(200);
    expectProblem(await api.call("GET", "/api/v1/space-categories"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PUT", "/api/v1/space-categories", { json: {} }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PATCH", "/api/v1/space-categories/x", { json: {} }), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/v1/members — space counts", () => {
  test("activeSpaceCount/inactiveSpaceCount are real enrolment counts; filters and sorts use them", async () => {
    const tenant = await createTenantFixture(api.server);
    const a = await createMemberFixture(api.server, tenant, { displayName: "A" });
    const b = await createMemberFixture(api.server, tenant, { displayName: "B" });
    const s1 = await newSpace(tenant);
    const s2 = await newSpace(tenant);
    const s3 = await newSpace(tenant);
    await as(tenant).post(`/spaces/${s1.id}/members`, { userIds: [a.memberId, b.memberId] });
    await as(tenant).post(`/spaces/${s2.id}/members`, { userIds: [a.memberId] });
    await as(tenant).post(`/spaces/${s3.id}/members`, { userIds: [a.memberId], role: "ADMIN" });
    await as(tenant).patch(`/spaces/${s3.id}`, { isActive: false });
    const one = await as(tenant).get(`/members/${a.memberId}?include=spaceCounts`);
    expect(one.body).toMatchObject({ activeSpaceCount: 2, inactiveSpaceCount: 1 });
    const list = await as(tenant).get("/members?include=spaceCounts&sortBy=activeSpaceCount&sortDir=desc");
    // ties by id in the sort direction: A was created after Owner
    expect(list.body.members.map((m: any) => [m.displayName, m.activeSpaceCount, m.inactiveSpaceCount])).toEqual([
      ["A", 2, 1],
      ["Owner", 2, 1],
      ["B", 1, 0],
    ]);
    const min2 = await as(tenant).get("/members?activeSpaceCountMin=2&inactiveSpaceCountMax=1");
    expect(min2.body.total).toBe(2);
    expect(min2.body.members.map((m: any) => m.displayName).sort()).toEqual(["A", "Owner"]);
    expect(min2.body.members[0].activeSpaceCount).toBeUndefined();
    expect((await as(tenant).get("/members?activeSpaceCountMax=1")).body.members.map((m: any) => m.displayName)).toEqual(["B"]);
    expect((await as(tenant).get("/members?inactiveSpaceCountMin=1")).body.total).toBe(2);
    await as(tenant).del(`/spaces/${s1.id}/members/${b.memberId}`);
    expect((await as(tenant).get(`/members/${b.memberId}?include=spaceCounts`)).body.activeSpaceCount).toBe(0);
  });
});
