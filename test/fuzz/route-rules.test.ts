// Every route's declared record rule is the check its service makes (docs/rules/access.md#route-rules).
// For each route declaring `spaceAdmin`, `contentManager`, `spaceMember` or `contentViewer`, the same
// generated request is sent by a caller the rule refuses and by one it lets through:
// - spaceAdmin / contentManager: a PARTICIPANT of the space (sees the space and its SHARED contents,
//   manages nothing) must get 403 whenever the owner (ADMIN and author) gets through (2xx or 409);
// - spaceMember / contentViewer: a member enrolled nowhere (sees neither the private space nor its
//   contents) must get 404 whenever the PARTICIPANT gets through.
// A route where the caller who passes the rule never got through in any sample is a failure too:
// a service checking a stricter rule than its route declares refuses that caller every time.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { createMemberFixture, useServer } from "../helpers/server";
import { idName, PoolRef, valid } from "./arbitraries";
import { buildFixture, type Fixture, fixtureIntact, harvest } from "./fixture";
import { type Input, type Op, operations, requestOf } from "./requests";

const SAMPLES = Number(process.env.RULE_SAMPLES ?? 12);
const RULES = ["spaceAdmin", "contentManager", "spaceMember", "contentViewer"];

/** Documented exceptions: the route declares one rule and a participant case widens it, by design. */
const EXCEPTIONS: Record<string, string> = {
  createPost: "participants post while `community` is on (docs/rules/community.md#participant-posts)",
  updatePost: "the author edits their own post (docs/rules/community.md#participant-posts)",
  deletePost: "the author deletes their own post (docs/rules/community.md#participant-posts)",
};

const api = useServer();

/** Bodies whose valid values must name the fixture's records to get past their references. */
const BODIES: Record<string, (fx: Fixture) => unknown> = {
  addChallengeMembers: (fx) => ({ userIds: [fx.member.memberId] }),
  createSpaceGroupSet: () => ({ name: "Another set", groups: [{ name: "G", memberIds: [] }] }),
  submitGroupAssignment: () => ({ body: "our work" }),
  addChallengeMembersFromCandidates: (fx) => ({ userIds: [fx.owner.memberId] }),
};

/**
 * Records below the fuzz fixture that the rules guard: a join code, a group set and its group, a
 * grade column, a blocked member, the participant's submission, group submission, quiz answer,
 * survey response, challenge membership and QUESTION post, and a quiz override. Best effort, as the
 * fixture's own deeper records.
 */
async function deepen(fx: Fixture, outsider: { memberId: string }) {
  const { spaceId, contents, owner, member } = fx;
  const call = async (who: { token: string }, method: string, path: string, json: unknown, item?: string) => {
    const res = await api.call(method, `/api/v1${path}`, { token: who.token, json });
    if (res.status < 300) harvest(fx.add, res.body, item);
    else if (process.env.RULES_DEBUG) console.log(`deepen: ${method} ${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
  await call(owner, "POST", `/spaces/${spaceId}/join-codes`, {}, "joinCodeId");
  const set = await call(
    owner,
    "POST",
    `/spaces/${spaceId}/group-sets`,
    { name: "Set", groups: [{ name: "G1", memberIds: [member.memberId] }] },
    "groupSetId",
  );
  await call(owner, "POST", `/spaces/${spaceId}/grade-columns`, { title: "Col", maxScore: 10 }, "columnId");
  await call(owner, "POST", `/spaces/${spaceId}/blocks`, { userId: outsider.memberId });
  fx.add("userPkId", outsider.memberId);
  await call(member, "POST", `/assignments/${contents.ASSIGNMENT}/submissions`, { body: "hello" }, "submissionId");
  await call(owner, "PUT", `/group-assignments/${contents.GROUP_ASSIGNMENT}/config`, { spaceGroupSetId: set?.id });
  await call(member, "POST", `/group-assignments/${contents.GROUP_ASSIGNMENT}/submissions`, { body: "hello" }, "submissionId");
  type Question = { id: string; type: string };
  const questionsOf = async (path: string) => ((await call(owner, "GET", path, undefined))?.questions ?? []) as Question[];
  const essay = (await questionsOf(`/quizzes/${contents.QUIZ}/config`)).find((q) => q.type === "ESSAY");
  const attempt = fx.pools.get("attemptId")?.[0];
  if (attempt && essay)
    await call(member, "POST", `/quizzes/${contents.QUIZ}/my-attempts/${attempt}/submit`, {
      answers: [{ questionId: essay.id, textAnswer: "because" }],
    });
  if (attempt) await call(owner, "GET", `/quizzes/${contents.QUIZ}/attempts/${attempt}`, undefined);
  await call(owner, "PUT", `/quizzes/${contents.QUIZ}/overrides/${member.profileId}`, {});
  const text = (await questionsOf(`/surveys/${contents.SURVEY}/config`)).find((q) => q.type === "SHORT_TEXT");
  if (text)
    await call(member, "POST", `/surveys/${contents.SURVEY}/my-response/submit`, { answers: [{ questionId: text.id, text: "Apple" }] });
  for (const challengeId of fx.pools.get("challengeId") ?? [])
    await call(member, "POST", `/spaces/${spaceId}/challenges/${challengeId}/members`, { userIds: [member.memberId] });
  await call(member, "POST", "/posts", { spaceId, title: "A question", content: "why?", type: "QUESTION" }, "postId");
}

function inputOf(op: Op): fc.Arbitrary<Input> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, fc.nat(5).map((n) => new PoolRef(p.name, n) as unknown)])));
  // Query parameters that name records (listSurveyRespondents' spaceId) get a real one.
  const required = op.params.filter((p) => p.in === "query" && idName(p.name) && p.name !== "cursor");
  const query = fc.constant(Object.fromEntries(required.map((p) => [p.name, new PoolRef(p.name, 0)])));
  const body =
    op.method === "get" || !op.body
      ? fc.constant({ kind: "none" as const })
      : valid(op.body.schema).map((value) => ({ kind: "json" as const, value }));
  return fc.record({ path, query, rawQuery: fc.constant(""), anonAuth: fc.constant(null), body });
}

test(
  "each route's declared record rule is what refuses an outsider",
  async () => {
    const doc = (await api.call("GET", "/openapi.json")).body;
    const only = process.env.RULES_OPS ? new Set(process.env.RULES_OPS.split(",")) : null;
    const ops = operations(doc, only).filter((o) => RULES.includes(o.auth));
    let fx: Fixture = await buildFixture(api);
    let outsider = await createMemberFixture(api.server, fx.owner, { displayName: "Enrolled Nowhere" });
    await deepen(fx, outsider);
    const send = async (op: Op, token: string, input: Input) => {
      const req = requestOf(fx, op, input);
      const res = await api.call(op.method.toUpperCase(), req.url, { token, headers: req.headers, body: req.body });
      return { status: res.status, code: res.body?.code as string | undefined, url: req.url, body: req.body };
    };
    /** The situation the test relies on: the participant still a PARTICIPANT seeing every content, the outsider enrolled nowhere. */
    const stands = async () => {
      const roster = await api.as(fx.owner).get(`/spaces/${fx.spaceId}/members?limit=100`);
      const roles = new Map<string, string>((roster.body?.members ?? []).map((m: { id: string; role: string }) => [m.id, m.role]));
      if (roles.get(fx.member.memberId) !== "PARTICIPANT" || roles.has(outsider.memberId)) return false;
      const seen = await Promise.all(Object.values(fx.contents).map((id) => api.as(fx.member).get(`/library/contents/${id}`)));
      return seen.every((r) => r.status === 200) && (await fixtureIntact(api, fx));
    };
    const rebuild = async () => {
      fx = await buildFixture(api);
      outsider = await createMemberFixture(api.server, fx.owner, { displayName: "Enrolled Nowhere" });
      await deepen(fx, outsider);
    };
    const wrong: string[] = [];
    /** Whether some sample got the caller who passes the rule through; a wrong refusal is recorded. */
    const prove = async (op: Op) => {
      const strict = op.auth === "spaceAdmin" || op.auth === "contentManager";
      const seed = 20261127 ^ Number(Bun.hash(op.id) % 0x7fffffffn);
      for (const sample of fc.sample(inputOf(op), { seed, numRuns: SAMPLES })) {
        const [refused, passer, expected] = strict ? [fx.member, fx.owner, 403] : [outsider, fx.member, 404];
        const fixed = BODIES[op.id];
        const input: Input = fixed ? { ...sample, body: { kind: "json", value: fixed(fx) } } : sample;
        const no = await send(op, refused.token, input);
        const yes = await send(op, passer.token, input);
        if (yes.status < 300 && !(await stands())) await rebuild();
        if (process.env.RULES_DEBUG)
          console.log(`${op.id}: refused ${no.status} ${no.code ?? ""}, passer ${yes.status} ${yes.code ?? ""} ${yes.url}`);
        // A body reference only the refused caller cannot see is 400 before the rule (docs/rules/errors.md#check-order).
        if ((yes.status >= 400 && yes.status !== 409) || no.status === 400) continue;
        if (no.status !== expected)
          wrong.push(
            `${op.id} (${op.auth}): ${strict ? "a PARTICIPANT" : "a member enrolled nowhere"} got ${no.status} ${no.code ?? ""}, expected ${expected}, while ${strict ? "the owner" : "a PARTICIPANT"} got ${yes.status}: ${op.method.toUpperCase()} ${no.url} ${(no.body ?? "").slice(0, 200)}`,
          );
        return true;
      }
      return false;
    };
    let unproven: Op[] = [];
    for (const op of ops.filter((o) => !EXCEPTIONS[o.id])) {
      if (!(await prove(op))) unproven.push(op);
      if (!(await stands())) await rebuild();
    }
    // Earlier routes may have used up a record a later one needs (a task replaced, a membership left): once more, each on a fresh fixture.
    const again = unproven;
    unproven = [];
    for (const op of again) {
      await rebuild();
      if (!(await prove(op))) unproven.push(op);
    }
    const never = unproven.map((o) => `${o.id} (${o.auth})`);
    console.log(`route rules: ${ops.length} routes, ${wrong.length} wrong, ${never.length} never let through`);
    expect(wrong).toEqual([]);
    expect(never).toEqual([]);
  },
  30 * 60 * 1000,
);
