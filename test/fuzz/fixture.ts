import { createMemberFixture, createTenantFixture, type useServer } from "../helpers/server";
import { idName } from "./arbitraries";

type Api = ReturnType<typeof useServer>;

const QUIZ = [
  { type: "SINGLE", body: "Pick A", point: 2, options: [{ body: "A", isCorrect: true }, { body: "B" }] },
  { type: "ESSAY", body: "Explain", point: 5 },
];
const SURVEY = [
  { type: "SHORT_TEXT", title: "Name a fruit", isRequired: true },
  { type: "SINGLE_CHOICE", title: "Pick one", options: [{ label: "Red" }, { label: "Other", isEtc: true }] },
];

/** Body fields that name a record of another parameter's pool (`userIds` are members). */
const ALIASES: Record<string, string> = { userId: "userPkId", memberId: "userPkId", subjectId: "userPkId", targetContentId: "contentId" };

/** The content type each typed route takes (docs/rules/access.md#contentmanager: the type must match). */
const typedRoutes: Record<string, string> = {
  quizzes: "QUIZ",
  surveys: "SURVEY",
  assignments: "ASSIGNMENT",
  "group-assignments": "GROUP_ASSIGNMENT",
  "peer-assessments": "GROUP_PEER_ASSESSMENT",
  video: "VIDEO",
  "url-video": "URL_VIDEO",
  live: "LIVE",
  document: "DOCUMENT",
};

/**
 * The fuzzed tenant: owner, a plain member enrolled as PARTICIPANT, a space with a folder, one
 * content of each type (SHARED in the space), a post; and another tenant whose ids must stay
 * invisible. `pools` holds real ids by path-parameter name, grown from every 2xx response.
 */
export async function buildFixture(api: Api) {
  const owner = await createTenantFixture(api.server);
  const member = await createMemberFixture(api.server, owner, { displayName: "Plain Member" });
  const other = await createTenantFixture(api.server);
  const pools = new Map<string, string[]>();
  const add = (name: string, id: unknown) => {
    if (typeof id !== "string" || !id) return;
    const list = pools.get(name) ?? [];
    if (!list.includes(id)) list.push(id);
    if (list.length > 40) list.shift();
    pools.set(name, list);
  };
  const ok = (res: { status: number; body: any }, what: string) => {
    if (res.status >= 300) throw new Error(`fuzz fixture: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const as = api.as(owner);
  const spaceId = ok(await as.post("/spaces", { name: "Fuzz space" }), "createSpace").id;
  ok(await as.post(`/spaces/${spaceId}/members`, { userIds: [member.memberId], role: "PARTICIPANT" }), "addSpaceMembers");
  const nodeId = ok(await as.post("/library/nodes", { title: "Fuzz folder", spaceId }), "createNode").id;
  const contents: Record<string, string> = {};
  for (const type of new Set(Object.values(typedRoutes))) {
    contents[type] = ok(await as.post("/library/contents", { type, title: `Fuzz ${type}`, nodeId, visibility: "SHARED" }), type).id;
  }
  const postId = ok(await as.post("/posts", { spaceId, title: "Fuzz post", content: "hello" }), "createPost").id;
  const otherSpace = ok(await api.as(other).post("/spaces", { name: "Other space" }), "other createSpace").id;
  // Deeper records, best effort: a change elsewhere in their rules only costs the fuzz some reach.
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
  const deeper: [string, string, string, unknown, { token: string }, string | undefined][] = [
    ["PUT", `/quizzes/${contents.QUIZ}/config`, "", { questions: QUIZ }, owner, "questionId"],
    ["PUT", `/surveys/${contents.SURVEY}/config`, "", { questions: SURVEY }, owner, "questionId"],
    ["POST", `/quizzes/${contents.QUIZ}/my-attempts`, "", {}, member, "attemptId"],
    [
      "POST",
      `/spaces/${spaceId}/challenges`,
      "",
      { title: "Fuzz", emoji: "📚", tasks: [{ title: "Day 1", startedAt: day(-1), deadline: day(2) }] },
      owner,
      "challengeId",
    ],
    ["POST", "/files", "", { fileName: "a.txt", contentType: "text/plain", size: 5 }, owner, "fileId"],
    ["POST", `/posts/${postId}/comments`, "", { body: "Fuzz comment" }, member, "commentId"],
    ["POST", "/groups", "", { name: "Fuzz group" }, owner, "groupId"],
    ["POST", "/roles", "", { key: "fuzz-role", name: "Fuzz role", permissions: [] }, owner, "roleId"],
  ];
  for (const [method, path, , json, who, item] of deeper) {
    const res = await api.call(method, `/api/v1${path}`, { token: who.token, json });
    if (res.status < 300) harvest(add, res.body, item);
    if (res.status < 300 && res.body?.uploadUrl)
      await api.call("PUT", new URL(res.body.uploadUrl).pathname + new URL(res.body.uploadUrl).search, {
        body: "hello",
        headers: { "content-type": "text/plain" },
      });
  }

  add("spaceId", spaceId);
  add("nodeId", nodeId);
  add("postId", postId);
  add("userPkId", member.memberId);
  add("userPkId", owner.memberId);
  add("memberId", member.memberId);
  add("profileId", member.profileId);
  add("tenantKey", owner.tenantKey);
  for (const [route, type] of Object.entries(typedRoutes)) add(`contentId:${route}`, contents[type]);
  for (const id of Object.values(contents)) add("contentId", id);
  const otherIds = { spaceId: otherSpace, userPkId: other.memberId, tenantKey: other.tenantKey, contentId: otherSpace };

  return {
    owner,
    member,
    other,
    spaceId,
    contents,
    pools,
    add,
    /** A real id for a parameter (typed content routes get content of their type), or a fresh-looking one. */
    resolve(name: string, pick: number, path = ""): string {
      const route =
        name === "contentId" ? /\/(quizzes|surveys|assignments|group-assignments|peer-assessments)\//.exec(path)?.[1] : undefined;
      const sub = name === "contentId" ? /\/library\/contents\/\{contentId\}\/(video|url-video|live|document)$/.exec(path)?.[1] : undefined;
      const list = pools.get(`contentId:${route ?? sub}`) ?? pools.get(name) ?? pools.get(ALIASES[name] ?? "") ?? [];
      return list.length ? (list[pick % list.length] as string) : "01900000-0000-7000-8000-000000000000";
    },
    otherId(name: string): string {
      return (otherIds as Record<string, string>)[name] ?? otherSpace;
    },
  };
}

export type Fixture = Awaited<ReturnType<typeof buildFixture>>;

/** Ids a 2xx response shows: `xId` fields and path-parameter names by name, `id` of a record by the route's item parameter. */
export function harvest(
  add: (name: string, id: unknown) => void,
  body: unknown,
  itemParam: string | undefined,
  paramNames = new Set<string>(),
) {
  const walk = (v: unknown, owner: string | undefined, depth: number) => {
    if (depth > 6 || !v || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v.slice(0, 20)) walk(x, owner, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === "id" && owner) add(owner, x);
      const id = idName(k);
      if (id && id !== "id" && typeof x === "string") add(id, x);
      // A field named like a path parameter (`topic` of a term, `code` of a grant) is one of its values.
      if (paramNames.has(k) && typeof x === "string") add(k, x);
      // items of a list are records of the route's item; a nested list `questions` holds questionIds.
      const nested = k === "items" ? owner : k.endsWith("s") ? `${k.slice(0, -1)}Id` : undefined;
      walk(x, nested, depth + 1);
    }
  };
  walk(body, itemParam, 0);
}

/** Whether the fixture still stands: both sessions valid, the owner still an owner, the space there. */
export async function fixtureIntact(api: Api, fx: Fixture) {
  const checks = await Promise.all([
    api.as(fx.owner).get("/roles"),
    api.as(fx.member).get("/me"),
    api.as(fx.owner).get(`/spaces/${fx.spaceId}`),
    api.as(fx.member).get(`/spaces/${fx.spaceId}`),
    ...Object.values(fx.contents).map((id) => api.as(fx.owner).get(`/library/contents/${id}`)),
  ]);
  return checks.every((r) => r.status === 200);
}
