import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
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
  return apiModule("module.challenges")
    .use(authPlugin(rt))
    .post(
      `${ONE}/email-count`,
      ({ actor, params, body }) => checkChallengeEmailCount(actor, params.spaceId, params.challengeId, body.email),
      {
        ...route("checkChallengeEmailCount", TAG, "spaceAdmin", {
          summary: "Count a member's challenge memberships by e-mail",
          description: "How many memberships of this challenge the member with this e-mail has (0 when there is none).",
        }),
        params: ChallengeParams,
        body: EmailCountBody,
        response: { 200: EmailCountResult },
      },
    )
    .get(BASE, ({ actor, params, query }) => listChallenges(actor, params.spaceId, query), {
      ...route("listChallenges", TAG, "spaceMember", {
        summary: "List a space's challenges",
        description: "The space's challenges, filtered by `joined` and `state`, with the caller's progress.",
      }),
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
      {
        ...route("createChallenge", TAG, "spaceMember", {
          summary: "Create a challenge",
          description:
            "A challenge of 1..100 tasks in the space; its dates follow the tasks. With `includeAuthor` the author also takes part.",
          errors: ["400 `VALIDATION_FAILED` naming e.g. `tasks[0].startedAt` when a task has no start or a deadline before it"],
        }),
        params: SpaceParams,
        body: ChallengeBody,
        response: { 201: ChallengeDetail },
      },
    )
    .put(ONE, ({ actor, params, body }) => updateChallenge(rt, actor, params.spaceId, params.challengeId, body), {
      ...route("updateChallenge", TAG, "spaceAdmin", {
        summary: "Replace a challenge",
        description: "Full replace: a task with an existing id is updated, one without is created, an absent one removed.",
        errors: ["400 `VALIDATION_FAILED` naming the task field"],
      }),
      params: ChallengeParams,
      body: ChallengeBody,
      response: { 200: ChallengeDetail },
    })
    .get(ONE, ({ actor, params }) => getChallenge(rt, actor, params.spaceId, params.challengeId), {
      ...route("getChallenge", TAG, "spaceMember", {
        summary: "Get a challenge",
        description: "One challenge with its tasks; `joined`, `done` and `progress` are the caller's.",
        errors: ["404 `NOT_FOUND` for an unknown challenge of this space"],
      }),
      params: ChallengeParams,
      response: { 200: ChallengeDetail },
    })
    .delete(
      ONE,
      ({ actor, params, set }) => {
        deleteChallenge(actor, params.spaceId, params.challengeId);
        set.status = 204;
      },
      {
        ...route("deleteChallenge", TAG, "spaceAdmin", {
          summary: "Delete a challenge",
          description: "Deletes the challenge with its members and completions.",
        }),
        params: ChallengeParams,
        response: { 204: t.Void() },
      },
    )
    .get(`${ONE}/members`, ({ actor, params, query }) => listChallengeMembers(rt, actor, params.spaceId, params.challengeId, query), {
      ...route("listChallengeMembers", TAG, "spaceMember", {
        summary: "List a challenge's members",
        description: "The challenge's members with their progress, a cursor page at a time.",
      }),
      params: ChallengeParams,
      query: MembersQuery,
      response: { 200: ChallengeMemberPage },
    })
    .post(`${ONE}/members`, ({ actor, params, body }) => addChallengeMembers(rt, actor, params.spaceId, params.challengeId, body.userIds), {
      ...route("addChallengeMembers", TAG, "spaceMember", {
        summary: "Add members to a challenge",
        description:
          "Any space member may add themself (join); the author or an ADMIN may add any space member. Answers the first page of members.",
        errors: ["400 `VALIDATION_FAILED` when an id is not a space member", "403 `FORBIDDEN` when a participant adds someone else"],
      }),
      params: ChallengeParams,
      body: AddMembersBody,
      response: { 200: ChallengeMemberPage },
    })
    .post(
      `${ONE}/members/from-candidates`,
      ({ actor, params, body }) => addChallengeMembersFromCandidates(rt, actor, params.spaceId, params.challengeId, body.userIds),
      {
        ...route("addChallengeMembersFromCandidates", TAG, "spaceAdmin", {
          summary: "Add candidates to a challenge",
          description: "Adds up to 500 current candidates (space members not yet in the challenge) and answers the first page of members.",
          errors: ["400 `VALIDATION_FAILED` when an id is not a current candidate"],
        }),
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
      {
        ...route("addChallengeTask", TAG, "spaceAdmin", {
          summary: "Add a task to a challenge",
          description: "Appends one task; the challenge's dates are recomputed. Answers the challenge.",
        }),
        params: ChallengeParams,
        body: AddTaskBody,
        response: { 201: ChallengeDetail },
      },
    )
    .get(`${ONE}/candidates`, ({ actor, params, query }) => listChallengeCandidates(rt, actor, params.spaceId, params.challengeId, query), {
      ...route("listChallengeCandidates", TAG, "spaceAdmin", {
        summary: "List a challenge's candidates",
        description: "Space members not yet in the challenge, filtered by `keyword` (display name), a cursor page at a time.",
      }),
      params: ChallengeParams,
      query: CandidatesQuery,
      response: { 200: CandidatePage },
    })
    .get(
      `${ONE}/members/:userPkId/progress`,
      ({ actor, params }) => getChallengeMemberProgress(actor, params.spaceId, params.challengeId, params.userPkId),
      {
        ...route("getChallengeMemberProgress", TAG, "spaceMember", {
          summary: "Get a member's challenge progress",
          description: "One challenge member's tasks, done or not, and progress.",
          errors: ["404 `NOT_FOUND` when the member is not in the challenge"],
        }),
        params: MemberParams,
        response: { 200: MemberProgress },
      },
    )
    .get(
      `${ONE}/tasks/:taskId/status`,
      ({ actor, params, query }) => getChallengeTaskStatus(rt, actor, params.spaceId, params.challengeId, params.taskId, query),
      {
        ...route("getChallengeTaskStatus", TAG, "spaceAdmin", {
          summary: "Get a task's completion status",
          description:
            "Counts of members who did and did not complete the task, and the members filtered by `status`, a cursor page at a time.",
          errors: ["404 `NOT_FOUND` for an unknown task"],
        }),
        params: TaskParams,
        query: TaskStatusQuery,
        response: { 200: TaskStatus },
      },
    )
    .put(
      `${ONE}/tasks/:taskId/completion`,
      ({ actor, params }) => completeChallengeTask(actor, params.spaceId, params.challengeId, params.taskId),
      {
        ...route("completeChallengeTask", TAG, "spaceMember", {
          summary: "Complete a task",
          description: "Marks the task done for the caller (idempotent) and answers the caller's progress.",
          errors: [
            "403 `FORBIDDEN` when the caller is not a challenge member",
            "404 `NOT_FOUND` for an unknown task",
            "409 `INVALID_STATE` when the task is not open (before its start, after its deadline, or the challenge not ONGOING) or the space is inactive",
          ],
        }),
        params: TaskParams,
        response: { 200: MemberProgress },
      },
    )
    .delete(
      `${ONE}/tasks/:taskId/completion`,
      ({ actor, params }) => uncompleteChallengeTask(actor, params.spaceId, params.challengeId, params.taskId),
      {
        ...route("uncompleteChallengeTask", TAG, "spaceMember", {
          summary: "Undo a task completion",
          description: "Marks the task not done for the caller (idempotent) and answers the caller's progress.",
          errors: [
            "403 `FORBIDDEN` when the caller is not a challenge member",
            "404 `NOT_FOUND` for an unknown task",
            "409 `INVALID_STATE` when the task is not open",
          ],
        }),
        params: TaskParams,
        response: { 200: MemberProgress },
      },
    )
    .post(
      `${ONE}/leave`,
      ({ actor, params, set }) => {
        leaveChallenge(actor, params.spaceId, params.challengeId);
        set.status = 204;
      },
      {
        ...route("leaveChallenge", TAG, "spaceMember", {
          summary: "Leave a challenge",
          description: "Removes the caller's membership and completions.",
          errors: ["404 `NOT_FOUND` when the caller is not a member"],
        }),
        params: ChallengeParams,
        response: { 204: t.Void() },
      },
    );
}
