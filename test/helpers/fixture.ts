// The fixture builder: tenant → members → space → content of any kind. A new module's test starts with
//   const api = useServer();
//   const fx = useContentSpace(api, { spaceName: "Poll space", participants: ["Alice", "Bob"] });
//   test("…", async () => { const id = await fx.content("SURVEY", { config: { questions } }); … });
import { beforeAll, expect } from "bun:test";
import { createContentSpace, createMemberFixture, createTenantFixture, type useServer } from "./server";

export type Api = ReturnType<typeof useServer>;
export type Tenant = Awaited<ReturnType<typeof createTenantFixture>>;
export type Member = Awaited<ReturnType<typeof createMemberFixture>>;
type Who = { token: string };

type MemberOpts = NonNullable<Parameters<typeof createMemberFixture>[2]>;

/**
 * A tenant (owner signed in) with the members given, in order, and another tenant with its own
 * members (for the cross-tenant 404s).
 */
export async function tenantWithMembers<const M extends readonly MemberOpts[], const O extends readonly MemberOpts[] = []>(
  api: Api,
  members: M,
  otherMembers: O = [] as unknown as O,
) {
  const owner = await createTenantFixture(api.server);
  const other = await createTenantFixture(api.server);
  const made: Member[] = [];
  for (const m of members) made.push(await createMemberFixture(api.server, owner, m));
  const otherMade: Member[] = [];
  for (const m of otherMembers) otherMade.push(await createMemberFixture(api.server, other, m));
  return { owner, other, members: made as { [K in keyof M]: Member }, otherMembers: otherMade as { [K in keyof O]: Member } };
}

/** Where each content type keeps its config (PUT /<area>/{contentId}/config). */
const CONFIG_AREA: Record<string, string> = {
  ASSIGNMENT: "assignments",
  GROUP_ASSIGNMENT: "group-assignments",
  QUIZ: "quizzes",
  SURVEY: "surveys",
  GROUP_PEER_ASSESSMENT: "peer-assessments",
};

/**
 * Content of `type` published to the fixture's folder (SHARED), created by `by` (default the owner);
 * with `config`, its config is saved too. `body` adds or overrides fields of the create request.
 */
export async function createContent(
  api: Api,
  by: Who,
  nodeId: string,
  type: string,
  opts: { title?: string; config?: Record<string, unknown>; body?: Record<string, unknown> } = {},
): Promise<string> {
  const res = await api.as(by).post("/library/contents", { type, title: opts.title ?? type, nodeId, visibility: "SHARED", ...opts.body });
  expect(res.status).toBe(201);
  const id = res.body.id as string;
  if (opts.config) expect((await api.as(by).put(`/${CONFIG_AREA[type]}/${id}/config`, opts.config)).status).toBe(200);
  return id;
}

/** A ready upload of `who` (POST /files, then PUT of the bytes to the signed URL); returns its fileId. */
export async function uploadFile(api: Api, who: Who, opts: { fileName?: string; contentType?: string; bytes?: string } = {}) {
  const { fileName = "a.txt", contentType = "text/plain", bytes = "hello" } = opts;
  const r = await api.as(who).post("/files", { fileName, contentType, size: bytes.length });
  expect(r.status).toBe(201);
  const url = new URL(r.body.uploadUrl);
  const up = await api.call("PUT", `${url.pathname}${url.search}`, { body: bytes, headers: { "content-type": contentType } });
  expect(up.status).toBe(200);
  return r.body.fileId as string;
}

/** A group set of a space with the groups given; returns the set's id and its groups (in order). */
export async function createGroupSet(api: Api, by: Who, spaceId: string, name: string, groups: { name: string; memberIds: string[] }[]) {
  const res = await api.as(by).post(`/spaces/${spaceId}/group-sets`, { name, groups });
  expect(res.status).toBe(201);
  return { setId: res.body.id as string, groups: res.body.groups };
}

/** createContentSpace (owner, other tenant, second ADMIN, participants, outsider, space, folder) with the builders bound to it. */
export async function contentSpace<const N extends readonly string[]>(api: Api, opts: { spaceName: string; participants: N }) {
  const base = await createContentSpace(api, opts);
  return {
    ...base,
    /** Content of any kind in the space's folder, by the owner unless `by` is given. */
    content: (type: string, o: Parameters<typeof createContent>[4] & { by?: Who } = {}) =>
      createContent(api, o.by ?? base.owner, base.nodeId, type, o),
    upload: (who: Who, o?: Parameters<typeof uploadFile>[2]) => uploadFile(api, who, o),
    groupSet: (name: string, groups: { name: string; memberIds: string[] }[], spaceId = base.spaceId) =>
      createGroupSet(api, base.owner, spaceId, name, groups),
  };
}

export type ContentSpace<N extends readonly string[] = string[]> = Awaited<ReturnType<typeof contentSpace<N>>>;

/** contentSpace built in this file's beforeAll; read its fields inside tests (they are filled by then). */
export function useContentSpace<const N extends readonly string[]>(api: Api, opts: { spaceName: string; participants: N }) {
  const fx = {} as ContentSpace<N>;
  beforeAll(async () => {
    Object.assign(fx, await contentSpace(api, opts));
  });
  return fx;
}
