import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import {
  addChallengeMembers,
  addChallengeMembersFromCandidates,
  completeChallengeTask,
  getChallengeMemberProgress,
  getChallengeTaskStatus,
  leaveChallenge,
  listChallengeCandidates,
  listChallengeMembers,
  uncompleteChallengeTask,
} from "./members";
import {
  AddCandidatesBody,
  AddMembersBody,
  AddTaskBody,
  CandidatePage,
  CandidatesQuery,
  ChallengeBody,
  ChallengeDetail,
  ChallengeList,
  ChallengeMemberPage,
  ChallengeParams,
  EmailCountBody,
  EmailCountResult,
  ListChallengesQuery,
  MemberParams,
  MemberProgress,
  MembersQuery,
  SpaceParams,
  TaskParams,
  TaskStatus,
  TaskStatusQuery,
} from "./model";
import {
  addChallengeTask,
  checkChallengeEmailCount,
  createChallenge,
  deleteChallenge,
  getChallenge,
  listChallenges,
  updateChallenge,
} from "./service";

const TAG = "challenges";
const BASE = "/spaces/:spaceId/challenges";
const ONE = `${BASE}/:challengeId`;

/** Challenges of a space: the managers' CRUD, members and task status, and the participants' own progress. */
export function challengesModule(rt: Runtime) {
  return new Elysia({ name: "module.challenges" })
    .use(authPlugin(rt))
    .post(
      `${ONE}/email-count`,
      ({ actor, params, body }) => checkChallengeEmailCount(actor, params.spaceId, params.challengeId, body.email),
      {
        ...route("checkChallengeEmailCount", TAG, "spaceAdmin"),
        params: ChallengeParams,
        body: EmailCountBody,
        response: { 200: EmailCountResult },
      },
    )
    .get(BASE, ({ actor, params, query }) => listChallenges(actor, params.spaceId, query), {
      ...route("listChallenges", TAG, "spaceMember"),
      params: SpaceParams,
      query: ListChallengesQuery,
      response: { 200: ChallengeList },
    })
    .post(
      BASE,
      ({ actor, params, body, set }) => {
        set.status = 201;
        return createChallenge(rt, actor, params.spaceId, body);
      },
      { ...route("createChallenge", TAG, "spaceMember"), params: SpaceParams, body: ChallengeBody, response: { 201: ChallengeDetail } },
    )
    .put(ONE, ({ actor, params, body }) => updateChallenge(rt, actor, params.spaceId, params.challengeId, body), {
      ...route("updateChallenge", TAG, "spaceAdmin"),
      params: ChallengeParams,
      body: ChallengeBody,
      response: { 200: ChallengeDetail },
    })
    .get(ONE, ({ actor, params }) => getChallenge(rt, actor, params.spaceId, params.challengeId), {
      ...route("getChallenge", TAG, "spaceMember"),
      params: ChallengeParams,
      response: { 200: ChallengeDetail },
    })
    .delete(
      ONE,
      ({ actor, params, set }) => {
        deleteChallenge(actor, params.spaceId, params.challengeId);
        set.status = 204;
      },
      { ...route("deleteChallenge", TAG, "spaceAdmin"), params: ChallengeParams, response: { 204: t.Void() } },
    )
    .get(`${ONE}/members`, ({ actor, params, query }) => listChallengeMembers(rt, actor, params.spaceId, params.challengeId, query), {
      ...route("listChallengeMembers", TAG, "spaceMember"),
      params: ChallengeParams,
      query: MembersQuery,
      response: { 200: ChallengeMemberPage },
    })
    .post(`${ONE}/members`, ({ actor, params, body }) => addChallengeMembers(rt, actor, params.spaceId, params.challengeId, body.userIds), {
      ...route("addChallengeMembers", TAG, "spaceMember"),
      params: ChallengeParams,
      body: AddMembersBody,
      response: { 200: ChallengeMemberPage },
    })
    .post(
      `${ONE}/members/from-candidates`,
      ({ actor, params, body }) => addChallengeMembersFromCandidates(rt, actor, params.spaceId, params.challengeId, body.userIds),
      {
        ...route("addChallengeMembersFromCandidates", TAG, "spaceAdmin"),
        params: ChallengeParams,
        body: AddCandidatesBody,
        response: { 200: ChallengeMemberPage },
      },
    )
    .post(
      `${ONE}/tasks`,
      ({ actor, params, body, set }) => {
        set.status = 201;
        return addChallengeTask(rt, actor, params.spaceId, params.challengeId, body);
      },
      { ...route("addChallengeTask", TAG, "spaceAdmin"), params: ChallengeParams, body: AddTaskBody, response: { 201: ChallengeDetail } },
    )
    .get(`${ONE}/candidates`, ({ actor, params, query }) => listChallengeCandidates(rt, actor, params.spaceId, params.challengeId, query), {
      ...route("listChallengeCandidates", TAG, "spaceAdmin"),
      params: ChallengeParams,
      query: CandidatesQuery,
      response: { 200: CandidatePage },
    })
    .get(
      `${ONE}/members/:userPkId/progress`,
      ({ actor, params }) => getChallengeMemberProgress(actor, params.spaceId, params.challengeId, params.userPkId),
      { ...route("getChallengeMemberProgress", TAG, "spaceMember"), params: MemberParams, response: { 200: MemberProgress } },
    )
    .get(
      `${ONE}/tasks/:taskId/status`,
      ({ actor, params, query }) => getChallengeTaskStatus(rt, actor, params.spaceId, params.challengeId, params.taskId, query),
      { ...route("getChallengeTaskStatus", TAG, "spaceAdmin"), params: TaskParams, query: TaskStatusQuery, response: { 200: TaskStatus } },
    )
    .put(
      `${ONE}/tasks/:taskId/completion`,
      ({ actor, params }) => completeChallengeTask(actor, params.spaceId, params.challengeId, params.taskId),
      { ...route("completeChallengeTask", TAG, "spaceMember"), params: TaskParams, response: { 200: MemberProgress } },
    )
    .delete(
      `${ONE}/tasks/:taskId/completion`,
      ({ actor, params }) => uncompleteChallengeTask(actor, params.spaceId, params.challengeId, params.taskId),
      { ...route("uncompleteChallengeTask", TAG, "spaceMember"), params: TaskParams, response: { 200: MemberProgress } },
    )
    .post(
      `${ONE}/leave`,
      ({ actor, params, set }) => {
        leaveChallenge(actor, params.spaceId, params.challengeId);
        set.status = 204;
      },
      { ...route("leaveChallenge", TAG, "spaceMember"), params: ChallengeParams, response: { 204: t.Void() } },
    );
}
