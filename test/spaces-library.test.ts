import { describe, expect, test } from "bun:test";
import { createMemberFixture, createTenantFixture, useServer } from "./helpers/server";

// How spaces and the library meet: the space's content count and what deleteSpace does to its folders.
const api = useServer();

const call = (token: string) => ({
  get: (path: string) => api.call("GET", `/api/v1${path}`, { token }),
  post: (path: string, json: unknown) => api.call("POST", `/api/v1${path}`, { token, json }),
  patch: (path: string, json: unknown) => api.call("PATCH", `/api/v1${path}`, { token, json }),
  del: (path: string) => api.call("DELETE", `/api/v1${path}`, { token }),
});

describe("spaces and their library folders", () => {
  test("contentCount counts the published (SHARED or PUBLIC) contents in the space's folders, not drafts", async () => {
    const owner = await createTenantFixture(api.server);
    const as = call(owner.token);
    const space = (await as.post("/spaces", { name: "Biology" })).body;
    expect(space.contentCount).toBe(0);
    const folder = (await as.post("/library/nodes", { title: "Week 1", spaceId: space.id })).body;
    await as.post("/library/contents", { type: "DOCUMENT", title: "Draft", nodeId: folder.id });
    await as.post("/library/contents", { type: "DOCUMENT", title: "Shared", nodeId: folder.id, visibility: "SHARED" });
    await as.post("/library/contents", { type: "SURVEY", title: "Public", nodeId: folder.id, visibility: "PUBLIC" });
    expect((await as.get(`/spaces/${space.id}`)).body.contentCount).toBe(2);
    const listed = (await as.get("/spaces")).body.spaces.find((s: { id: string }) => s.id === space.id);
    expect(listed.contentCount).toBe(2);
  });

  test("deleteSpace moves the space's folders and their contents to the tenant library root", async () => {
    const owner = await createTenantFixture(api.server);
    const as = call(owner.token);
    const space = (await as.post("/spaces", { name: "History" })).body;
    const folder = (await as.post("/library/nodes", { title: "Sources", spaceId: space.id })).body;
    const child = (await as.post("/library/nodes", { title: "Letters", parentId: folder.id })).body;
    const content = (await as.post("/library/contents", { type: "DOCUMENT", title: "Letter 1", nodeId: child.id })).body;
    expect((await as.del(`/spaces/${space.id}`)).status).toBe(200);
    const nodes = (await as.get("/library/nodes")).body.nodes as { id: string; spaceId: string | null; parentId: string | null }[];
    expect(nodes.find((n) => n.id === folder.id)).toMatchObject({ spaceId: null, parentId: null });
    expect(nodes.find((n) => n.id === child.id)).toMatchObject({ spaceId: null, parentId: folder.id });
    expect((await as.get(`/library/contents/${content.id}`)).status).toBe(200);
    // Now in the tenant library, the folder is visible to every member of the tenant.
    const member = await createMemberFixture(api.server, owner);
    const seen = (await call(member.token).get("/library/nodes")).body.nodes as { id: string }[];
    expect(seen.some((n) => n.id === folder.id)).toBe(true);
  });
});
