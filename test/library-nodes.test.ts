import { beforeAll, describe, expect, test } from "bun:test";
import { detachSpaceNodes } from "../src/modules/library/nodes";
import { rankBetween } from "../src/modules/library/rank";
import { write } from "../src/platform/db/types";
import type { Member, Tenant } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, fieldOf, forbidden, notFound, useServer } from "./helpers/server";

const api = useServer();
const { as } = api;

let owner: Tenant;
let other: Tenant;
let plain: Member; // no permissions
let uploader: Member; // library:upload

beforeAll(async () => {
  owner = await createTenantFixture(api.server);
  other = await createTenantFixture(api.server);
  plain = await createMemberFixture(api.server, owner, { displayName: "Plain" });
  uploader = await createMemberFixture(api.server, owner, { displayName: "Uploader", permissions: ["library:upload"] });
});

type NodeRec = { id: string; parentId: string | null; spaceId: string | null; depth: number; rank: string; [k: string]: any };

async function node(who: { token: string }, body: Record<string, unknown>): Promise<NodeRec> {
  const res = await as(who).post("/library/nodes", { title: "Folder", ...body });
  expect(res.status).toBe(201);
  return res.body;
}

async function newSpace(who: { token: string }) {
  const res = await as(who).post("/spaces", { name: "Space" });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** The caller's listNodes, as [title, depth] in list order, for one tenant's fresh tree. */
const titles = async (who: { token: string }) =>
  ((await as(who).get("/library/nodes")).body.nodes as NodeRec[]).map((n) => `${"  ".repeat(n.depth)}${n.title}`);

describe("fractional ranks", () => {
  test("always fit between two neighbours and stay short when appending", () => {
    let last: string | null = null;
    const ranks: string[] = [];
    for (let i = 0; i < 500; i++) {
      last = rankBetween(last, null);
      ranks.push(last);
    }
    expect([...ranks].sort()).toEqual(ranks);
    expect((last as string).length).toBeLessThan(20);
    let lo = "V";
    let hi = "W";
    for (let i = 0; i < 200; i++) {
      const mid = rankBetween(lo, hi);
      expect(lo < mid && mid < hi).toBe(true);
      if (i % 2) lo = mid;
      else hi = mid;
    }
    let first = "V";
    for (let i = 0; i < 100; i++) {
      const before = rankBetween(null, first);
      expect(before < first && !before.endsWith("0")).toBe(true);
      first = before;
    }
  });
});

describe("POST /api/v1/library/nodes — createNode", () => {
  test("check order as createPost (errors.md check order): a bad reference is 400 before the space's 404 or 403", async () => {
    const space = await newSpace(owner);
    expect(fieldOf(await as(uploader).post("/library/nodes", { title: "x", spaceId: space, parentId: "nope" }))).toBe("parentId");
    expect(fieldOf(await as(uploader).post("/library/nodes", { title: "x", spaceId: space, prevNodeId: "nope" }))).toBe("prevNodeId");
    notFound(await as(uploader).post("/library/nodes", { title: "x", spaceId: space }));
    await as(owner).post(`/spaces/${space}/members`, { userIds: [uploader.memberId] });
    expect(fieldOf(await as(uploader).post("/library/nodes", { title: "x", spaceId: space, parentId: "nope" }))).toBe("parentId");
    forbidden(await as(uploader).post("/library/nodes", { title: "x", spaceId: space }));
  });

  test("creates a root folder of the tenant library, and children placed by prev/next", async () => {
    const tenant = await createTenantFixture(api.server);
    const root = await node(tenant, { title: "Root" });
    expect(root).toEqual({
      id: expect.any(String),
      scope: "LIBRARY",
      spaceId: null,
      parentId: null,
      title: "Root",
      rank: expect.any(String),
      depth: 0,
      childCount: 0,
      contentCount: 0,
    });
    const b = await node(tenant, { title: "B", parentId: root.id });
    const d = await node(tenant, { title: "D", parentId: root.id });
    await node(tenant, { title: "C", parentId: root.id, prevNodeId: b.id, nextNodeId: d.id });
    await node(tenant, { title: "A", parentId: root.id, nextNodeId: b.id });
    await node(tenant, { title: "E", parentId: root.id, prevNodeId: d.id });
    await node(tenant, { title: "B2", parentId: root.id, prevNodeId: b.id });
    expect(b.depth).toBe(1);
    expect(await titles(tenant)).toEqual(["Root", "  A", "  B", "  B2", "  C", "  D", "  E"]);
    const list = (await as(tenant).get("/library/nodes")).body.nodes as NodeRec[];
    expect(list[0]?.childCount).toBe(6);
  });

  test("a space's folder: 404 for an unknown or invisible space, 403 unless ADMIN; children take its space", async () => {
    const tenant = await createTenantFixture(api.server);
    const writer = await createMemberFixture(api.server, tenant, { permissions: ["library:upload"] });
    const space = await newSpace(tenant);
    notFound(await as(writer).post("/library/nodes", { title: "x", spaceId: space })); // not enrolled, private space
    notFound(await as(writer).post("/library/nodes", { title: "x", spaceId: "no-such-space" }));
    notFound(await as(other).post("/library/nodes", { title: "x", spaceId: space }));
    await as(tenant).post(`/spaces/${space}/members`, { userIds: [writer.memberId] });
    forbidden(await as(writer).post("/library/nodes", { title: "x", spaceId: space }));
    const top = await node(tenant, { title: "Week 1", spaceId: space });
    expect(top.spaceId).toBe(space);
    const child = await node(tenant, { title: "Day 1", parentId: top.id });
    expect(child).toMatchObject({ spaceId: space, parentId: top.id, depth: 1 });
    forbidden(await as(writer).post("/library/nodes", { title: "x", parentId: top.id })); // PARTICIPANT
    const lib = await node(tenant, { title: "Library" });
    expect(fieldOf(await as(tenant).post("/library/nodes", { title: "x", spaceId: space, parentId: lib.id }))).toBe("spaceId");
    // roots of a space are siblings among themselves only
    expect(fieldOf(await as(tenant).post("/library/nodes", { title: "x", spaceId: space, prevNodeId: lib.id }))).toBe("prevNodeId");
  });

  test("returns 400 for each bound", async () => {
    const root = await node(uploader, { title: "Bounds" });
    const elsewhere = await node(uploader, { title: "Elsewhere" });
    const cases: [unknown, string][] = [
      [{}, "title"],
      [{ title: "" }, "title"],
      [{ title: "x".repeat(201) }, "title"],
      [{ title: "x", parentId: "no-such-node" }, "parentId"],
      [{ title: "x", parentId: root.id, prevNodeId: elsewhere.id }, "prevNodeId"],
      [{ title: "x", parentId: root.id, nextNodeId: "nope" }, "nextNodeId"],
      [{ title: "x", parentId: 5 }, "parentId"],
    ];
    for (const [body, field] of cases) expect(fieldOf(await as(uploader).post("/library/nodes", body))).toBe(field);
    const a = await node(uploader, { title: "a", parentId: root.id });
    const b = await node(uploader, { title: "b", parentId: root.id });
    expect(fieldOf(await as(uploader).post("/library/nodes", { title: "x", parentId: root.id, prevNodeId: b.id, nextNodeId: a.id }))).toBe(
      "nextNodeId",
    );
    expect((await as(uploader).post("/library/nodes", { title: "x".repeat(200) })).status).toBe(201);
  });

  test("returns 401 without a token and 403 without library:upload; another tenant's parent is 400", async () => {
    expectProblem(await api.call("POST", "/api/v1/library/nodes", { json: { title: "x" } }), 401, "UNAUTHENTICATED");
    forbidden(await as(plain).post("/library/nodes", { title: "x" }));
    const theirs = await node(other, { title: "Theirs" });
    expect(fieldOf(await as(owner).post("/library/nodes", { title: "x", parentId: theirs.id }))).toBe("parentId");
  });
});

describe("GET /api/v1/library/nodes — listNodes", () => {
  test("the tenant library to every member, a space's folders to its enrolled members; counts of children and visible contents", async () => {
    const tenant = await createTenantFixture(api.server);
    const participant = await createMemberFixture(api.server, tenant);
    const outsider = await createMemberFixture(api.server, tenant);
    const lib = await node(tenant, { title: "Library" });
    const space = await newSpace(tenant);
    await as(tenant).post(`/spaces/${space}/members`, { userIds: [participant.memberId] });
    const sroot = await node(tenant, { title: "Space root", spaceId: space });
    await node(tenant, { title: "Space child", parentId: sroot.id });
    await node(tenant, { title: "Lib child", parentId: lib.id });
    await as(tenant).post("/library/contents", { type: "QUIZ", title: "draft", nodeId: sroot.id });
    await as(tenant).post("/library/contents", { type: "QUIZ", title: "pub", nodeId: sroot.id, visibility: "SHARED" });
    expect(await titles(tenant)).toEqual(["Library", "  Lib child", "Space root", "  Space child"]);
    expect(await titles(participant)).toEqual(["Library", "  Lib child", "Space root", "  Space child"]);
    expect(await titles(outsider)).toEqual(["Library", "  Lib child"]);
    const countsOf = async (who: { token: string }) =>
      ((await as(who).get("/library/nodes")).body.nodes as NodeRec[]).find((n) => n.id === sroot.id);
    expect(await countsOf(tenant)).toMatchObject({ childCount: 1, contentCount: 2 });
    expect(await countsOf(participant)).toMatchObject({ childCount: 1, contentCount: 1 }); // the draft is not theirs to see
    expect((await as(other).get("/library/nodes")).body.nodes.map((n: NodeRec) => n.id)).not.toContain(lib.id);
    expectProblem(await api.call("GET", "/api/v1/library/nodes"), 401, "UNAUTHENTICATED");
  });
});

describe("PATCH /api/v1/library/nodes/{nodeId} — renameNode", () => {
  test("renames and returns the full node", async () => {
    const n = await node(uploader, { title: "Old" });
    const res = await as(uploader).patch(`/library/nodes/${n.id}`, { title: "New" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...n, title: "New" });
    expect(((await as(plain).get("/library/nodes")).body.nodes as NodeRec[]).find((x) => x.id === n.id)?.title).toBe("New");
  });

  test("400 bounds; 401; 403 without library:upload or as a PARTICIPANT of its space; 404 unknown, invisible, other tenant", async () => {
    const n = await node(uploader, { title: "Keep" });
    expect(fieldOf(await as(uploader).patch(`/library/nodes/${n.id}`, { title: "" }))).toBe("title");
    expect(fieldOf(await as(uploader).patch(`/library/nodes/${n.id}`, { title: "x".repeat(201) }))).toBe("title");
    expect(fieldOf(await as(uploader).patch(`/library/nodes/${n.id}`, {}))).toBe("title");
    expectProblem(await api.call("PATCH", `/api/v1/library/nodes/${n.id}`, { json: { title: "x" } }), 401, "UNAUTHENTICATED");
    forbidden(await as(plain).patch(`/library/nodes/${n.id}`, { title: "x" }));
    notFound(await as(uploader).patch("/library/nodes/nope", { title: "x" }));
    notFound(await as(other).patch(`/library/nodes/${n.id}`, { title: "x" }));
    const space = await newSpace(owner);
    const sn = await node(owner, { spaceId: space });
    notFound(await as(uploader).patch(`/library/nodes/${sn.id}`, { title: "x" }));
    await as(owner).post(`/spaces/${space}/members`, { userIds: [uploader.memberId] });
    forbidden(await as(uploader).patch(`/library/nodes/${sn.id}`, { title: "x" }));
  });
});

describe("POST /api/v1/library/nodes/{nodeId}/move — moveNode", () => {
  test("reorders among siblings and moves a subtree, recomputing its depths", async () => {
    const tenant = await createTenantFixture(api.server);
    const a = await node(tenant, { title: "A" });
    const b = await node(tenant, { title: "B" });
    const c = await node(tenant, { title: "C" });
    const a1 = await node(tenant, { title: "A1", parentId: a.id });
    await node(tenant, { title: "A1x", parentId: a1.id });
    const move = (id: string, body: unknown) => as(tenant).post(`/library/nodes/${id}/move`, body);
    // C between A and B at the root
    const moved = await move(c.id, { parentId: null, prevNodeId: a.id, nextNodeId: b.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: c.id, parentId: null, depth: 0 });
    expect(await titles(tenant)).toEqual(["A", "  A1", "    A1x", "C", "B"]);
    // A1 (with its child) into B, first
    await node(tenant, { title: "B1", parentId: b.id });
    const down = await move(a1.id, { parentId: b.id, nextNodeId: (await titlesIds(tenant)).B1 });
    expect(down.body).toMatchObject({ parentId: b.id, depth: 1, childCount: 1 });
    expect(await titles(tenant)).toEqual(["A", "C", "B", "  A1", "    A1x", "  B1"]);
    // A into A1x (deeper): A's subtree is now empty of A1, so this is legal; depths follow
    const deep = await move(a.id, { parentId: (await titlesIds(tenant)).A1x });
    expect(deep.body.depth).toBe(3);
    expect(await titles(tenant)).toEqual(["C", "B", "  A1", "    A1x", "      A", "  B1"]);
    // back to the root with an explicit null, last
    expect((await move(a1.id, { parentId: null })).body).toMatchObject({ parentId: null, depth: 0 });
    expect(await titles(tenant)).toEqual(["C", "B", "  B1", "A1", "  A1x", "    A"]);
    // no-op move keeps a valid place
    expect((await move(a1.id, { prevNodeId: b.id })).status).toBe(200);
    expect(await titles(tenant)).toEqual(["C", "B", "  B1", "A1", "  A1x", "    A"]);
  });

  test("without parentId the node stays under its parent: a reorder among siblings with only nextNodeId", async () => {
    const tenant = await createTenantFixture(api.server);
    const p = await node(tenant, { title: "P" });
    const x = await node(tenant, { title: "X", parentId: p.id });
    const y = await node(tenant, { title: "Y", parentId: p.id });
    const move = (id: string, body: unknown) => as(tenant).post(`/library/nodes/${id}/move`, body);
    const res = await move(y.id, { nextNodeId: x.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ parentId: p.id, depth: 1 });
    expect(await titles(tenant)).toEqual(["P", "  Y", "  X"]);
    // neither neighbour: last among the same siblings
    expect((await move(y.id, {})).body).toMatchObject({ parentId: p.id, depth: 1 });
    expect(await titles(tenant)).toEqual(["P", "  X", "  Y"]);
  });

  test("400 into itself or a descendant, into another space, or with neighbours of another parent", async () => {
    const tenant = await createTenantFixture(api.server);
    const a = await node(tenant, { title: "A" });
    const a1 = await node(tenant, { title: "A1", parentId: a.id });
    const b = await node(tenant, { title: "B" });
    const space = await newSpace(tenant);
    const s = await node(tenant, { title: "S", spaceId: space });
    const move = (id: string, body: unknown) => as(tenant).post(`/library/nodes/${id}/move`, body);
    expect(fieldOf(await move(a.id, { parentId: a.id }))).toBe("parentId");
    expect(fieldOf(await move(a.id, { parentId: a1.id }))).toBe("parentId");
    expect(fieldOf(await move(a.id, { parentId: s.id }))).toBe("parentId");
    expect(fieldOf(await move(s.id, { parentId: b.id }))).toBe("parentId");
    expect(fieldOf(await move(s.id, { prevNodeId: b.id }))).toBe("prevNodeId"); // roots of its own space only
    expect(fieldOf(await move(a.id, { parentId: b.id, prevNodeId: a1.id }))).toBe("prevNodeId");
    expect(fieldOf(await move(a.id, { prevNodeId: a.id }))).toBe("prevNodeId");
    expect(fieldOf(await move(a.id, { parentId: "no-such-node" }))).toBe("parentId");
    expect(fieldOf(await move(a.id, { parentId: 3 }))).toBe("parentId");
    // a space's root stays in its space
    expect((await move(s.id, { parentId: null })).body).toMatchObject({ spaceId: space, parentId: null });
  });

  test("401; 403 without library:upload or as a PARTICIPANT; 404 unknown, invisible, other tenant", async () => {
    const n = await node(uploader, { title: "M" });
    expectProblem(await api.call("POST", `/api/v1/library/nodes/${n.id}/move`, { json: {} }), 401, "UNAUTHENTICATED");
    forbidden(await as(plain).post(`/library/nodes/${n.id}/move`, {}));
    notFound(await as(uploader).post("/library/nodes/nope/move", {}));
    notFound(await as(other).post(`/library/nodes/${n.id}/move`, {}));
    const space = await newSpace(owner);
    const sn = await node(owner, { spaceId: space });
    const member = await createMemberFixture(api.server, owner, { permissions: ["library:upload"] });
    notFound(await as(member).post(`/library/nodes/${sn.id}/move`, {}));
    await as(owner).post(`/spaces/${space}/members`, { userIds: [member.memberId] });
    forbidden(await as(member).post(`/library/nodes/${sn.id}/move`, {}));
  });
});

describe("DELETE /api/v1/library/nodes/{nodeId} — deleteNode", () => {
  test("409 IN_USE while it has children or contents; then 204 and gone", async () => {
    const tenant = await createTenantFixture(api.server);
    const a = await node(tenant, { title: "A" });
    const child = await node(tenant, { title: "A1", parentId: a.id });
    expectProblem(await as(tenant).del(`/library/nodes/${a.id}`), 409, "IN_USE");
    const content = await as(tenant).post("/library/contents", { type: "QUIZ", title: "q", nodeId: child.id });
    expectProblem(await as(tenant).del(`/library/nodes/${child.id}`), 409, "IN_USE");
    await as(tenant).del(`/library/contents/${content.body.id}`);
    const res = await as(tenant).del(`/library/nodes/${child.id}`);
    expect(res.status).toBe(204);
    expect((await as(tenant).del(`/library/nodes/${a.id}`)).status).toBe(204);
    expect((await as(tenant).get("/library/nodes")).body.nodes).toEqual([]);
  });

  test("401; 403 without library:upload or as a PARTICIPANT; 404 unknown, invisible, other tenant", async () => {
    const n = await node(uploader, { title: "D" });
    expectProblem(await api.call("DELETE", `/api/v1/library/nodes/${n.id}`), 401, "UNAUTHENTICATED");
    forbidden(await as(plain).del(`/library/nodes/${n.id}`));
    notFound(await as(uploader).del("/library/nodes/nope"));
    notFound(await as(other).del(`/library/nodes/${n.id}`));
    const space = await newSpace(owner);
    const sn = await node(owner, { spaceId: space });
    const member = await createMemberFixture(api.server, owner, { permissions: ["library:upload"] });
    notFound(await as(member).del(`/library/nodes/${sn.id}`));
    await as(owner).post(`/spaces/${space}/members`, { userIds: [member.memberId] });
    forbidden(await as(member).del(`/library/nodes/${sn.id}`));
  });
});

describe("detachSpaceNodes — deleteSpace's hook", () => {
  test("moves the space's folders and contents to the end of the tenant library, keeping the tree", async () => {
    const tenant = await createTenantFixture(api.server);
    const participant = await createMemberFixture(api.server, tenant);
    const lib = await node(tenant, { title: "Library" });
    const space = await newSpace(tenant);
    await as(tenant).post(`/spaces/${space}/members`, { userIds: [participant.memberId] });
    const s1 = await node(tenant, { title: "S1", spaceId: space });
    await node(tenant, { title: "S2", spaceId: space });
    const s11 = await node(tenant, { title: "S1.1", parentId: s1.id });
    const c = await as(tenant).post("/library/contents", { type: "QUIZ", title: "q", nodeId: s11.id, visibility: "SHARED" });
    expect((await as(participant).get(`/library/contents/${c.body.id}`)).status).toBe(200);
    api.server.rt.tenants.use(tenant.tenantId, (h) => write(h.db, (tx) => detachSpaceNodes(tx, space)));
    const nodes = (await as(tenant).get("/library/nodes")).body.nodes as NodeRec[];
    expect(nodes.map((n) => [n.title, n.spaceId, n.depth])).toEqual([
      ["Library", null, 0],
      ["S1", null, 0],
      ["S1.1", null, 1],
      ["S2", null, 0],
    ]);
    expect(nodes[0]?.id).toBe(lib.id);
    // the content left the space: SHARED without shares is no longer the participant's
    notFound(await as(participant).get(`/library/contents/${c.body.id}`));
    expect((await as(tenant).get(`/library/contents/${c.body.id}`)).body.canManage).toBe(true);
  });
});

async function titlesIds(who: { token: string }): Promise<Record<string, string>> {
  const nodes = (await as(who).get("/library/nodes")).body.nodes as NodeRec[];
  return Object.fromEntries(nodes.map((n) => [n.title, n.id]));
}
