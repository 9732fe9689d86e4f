import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { getGroupAssignmentConfig, setGroupAssignmentConfig } from "./config";
import { setGroupSubmissionExtension } from "./extensions";
import {
  ExtensionBody,
  FeedbackBody,
  GradeBody,
  GroupAssignmentConfigBody,
  GroupAssignmentConfigResult,
  GroupAssignmentParams,
  GroupExtension,
  GroupHistoryParams,
  GroupSubmission,
  GroupSubmissionHistory,
  GroupSubmissionPage,
  GroupSubmissionParams,
  GroupSubmissionsQuery,
  MemberScoresBody,
  MemberScoresResult,
  MyGroupSubmission,
  SubmitGroupBody,
} from "./model";
import { getMyGroupSubmission, submitGroupAssignment } from "./participant";
import {
  getGroupSubmissionHistory,
  gradeGroupSubmission,
  listGroupSubmissions,
  overrideGroupMemberScores,
  returnGroupSubmission,
  saveGroupSubmissionFeedback,
} from "./submissions";

const TAG = "group-assignments";

/** Group assignments: the manager's config and grading, and a group member's submissions. */
export function groupAssignmentsModule(rt: Runtime) {
  return new Elysia({ name: "module.group-assignments" })
    .use(authPlugin(rt))
    .put("/group-assignments/:contentId/config", ({ actor, params, body }) => setGroupAssignmentConfig(actor, params.contentId, body), {
      ...route("setGroupAssignmentConfig", TAG, "contentManager"),
      params: GroupAssignmentParams,
      body: GroupAssignmentConfigBody,
      response: { 200: GroupAssignmentConfigResult },
    })
    .get("/group-assignments/:contentId/config", ({ actor, params }) => getGroupAssignmentConfig(actor, params.contentId), {
      ...route("getGroupAssignmentConfig", TAG, "contentManager"),
      params: GroupAssignmentParams,
      response: { 200: GroupAssignmentConfigResult },
    })
    .get(
      "/group-assignments/:contentId/submissions",
      ({ actor, params, query }) => listGroupSubmissions(rt, actor, params.contentId, query),
      {
        ...route("listGroupSubmissions", TAG, "contentManager"),
        params: GroupAssignmentParams,
        query: GroupSubmissionsQuery,
        response: { 200: GroupSubmissionPage },
      },
    )
    .get(
      "/group-assignments/:contentId/groups/:groupId/history",
      ({ actor, params }) => getGroupSubmissionHistory(rt, actor, params.contentId, params.groupId),
      {
        ...route("getGroupSubmissionHistory", TAG, "contentManager"),
        params: GroupHistoryParams,
        response: { 200: GroupSubmissionHistory },
      },
    )
    .put(
      "/group-assignments/:contentId/submissions/:submissionId/grade",
      ({ actor, params, body }) => gradeGroupSubmission(rt, actor, params, body),
      {
        ...route("gradeGroupSubmission", TAG, "contentManager"),
        params: GroupSubmissionParams,
        body: GradeBody,
        response: { 200: GroupSubmission },
      },
    )
    .put(
      "/group-assignments/:contentId/submissions/:submissionId/feedback",
      ({ actor, params, body }) => saveGroupSubmissionFeedback(rt, actor, params, body),
      {
        ...route("saveGroupSubmissionFeedback", TAG, "contentManager"),
        params: GroupSubmissionParams,
        body: FeedbackBody,
        response: { 200: GroupSubmission },
      },
    )
    .put(
      "/group-assignments/:contentId/submissions/:submissionId/member-scores",
      ({ actor, params, body }) => overrideGroupMemberScores(actor, params, body),
      {
        ...route("overrideGroupMemberScores", TAG, "contentManager"),
        params: GroupSubmissionParams,
        body: MemberScoresBody,
        response: { 200: MemberScoresResult },
      },
    )
    .post(
      "/group-assignments/:contentId/submissions/:submissionId/return",
      ({ actor, params }) => returnGroupSubmission(rt, actor, params),
      {
        ...route("returnGroupSubmission", TAG, "contentManager"),
        params: GroupSubmissionParams,
        response: { 200: GroupSubmission },
      },
    )
    .post(
      "/group-assignments/:contentId/submissions",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return submitGroupAssignment(rt, actor, params.contentId, body);
      },
      {
        ...route("submitGroupAssignment", TAG, "contentViewer"),
        params: GroupAssignmentParams,
        body: SubmitGroupBody,
        response: { 201: GroupSubmission },
      },
    )
    .put(
      "/group-assignments/:contentId/extensions/:groupId",
      ({ actor, params, body }) => setGroupSubmissionExtension(actor, params.contentId, params.groupId, body),
      {
        ...route("setGroupSubmissionExtension", TAG, "contentManager", {
          summary: "Sets or removes one group's own deadline",
          description:
            "The group (of the linked group set, else 400) submits against this deadline instead of the config's dueAt; revisions already submitted keep their isLate. `dueAt` null removes it.",
        }),
        params: GroupHistoryParams,
        body: ExtensionBody,
        response: { 200: GroupExtension },
      },
    )
    .get("/group-assignments/:contentId/my-submission", ({ actor, params }) => getMyGroupSubmission(rt, actor, params.contentId), {
      ...route("getMyGroupSubmission", TAG, "contentViewer"),
      params: GroupAssignmentParams,
      response: { 200: MyGroupSubmission },
    });
}
