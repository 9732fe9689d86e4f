import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
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
  return apiModule("module.group-assignments")
    .use(authPlugin(rt))
    .put("/group-assignments/:contentId/config", ({ actor, params, body }) => setGroupAssignmentConfig(actor, params.contentId, body), {
      ...route("setGroupAssignmentConfig", TAG, "contentManager", {
        summary: "Set a group assignment's rules",
        description:
          "Full replace: the linked space group set, score, late rule, submission method (ANY_MEMBER, ALL_MEMBERS), body and file requirements and `dueAt`.",
        errors: [
          "400 `VALIDATION_FAILED` when `spaceGroupSetId` names no set of a space the caller administers",
          "409 `INVALID_STATE` when changing the group set after groups have submitted",
        ],
      }),
      params: GroupAssignmentParams,
      body: GroupAssignmentConfigBody,
      response: { 200: GroupAssignmentConfigResult },
    })
    .get("/group-assignments/:contentId/config", ({ actor, params }) => getGroupAssignmentConfig(actor, params.contentId), {
      ...route("getGroupAssignmentConfig", TAG, "contentManager", {
        summary: "Get a group assignment's rules",
        description: "The rules with the linked group set's name and whether the link is still valid.",
      }),
      params: GroupAssignmentParams,
      response: { 200: GroupAssignmentConfigResult },
    })
    .get(
      "/group-assignments/:contentId/submissions",
      ({ actor, params, query }) => listGroupSubmissions(rt, actor, params.contentId, query),
      {
        ...route("listGroupSubmissions", TAG, "contentManager", {
          summary: "List a group assignment's submissions",
          description:
            "A page of each group's latest revision, newest first, filtered by `status`, with `pendingCount` and `notSubmittedGroupCount`.",
        }),
        params: GroupAssignmentParams,
        query: GroupSubmissionsQuery,
        response: { 200: GroupSubmissionPage },
      },
    )
    .get(
      "/group-assignments/:contentId/groups/:groupId/history",
      ({ actor, params }) => getGroupSubmissionHistory(rt, actor, params.contentId, params.groupId),
      {
        ...route("getGroupSubmissionHistory", TAG, "contentManager", {
          summary: "Get a group's revisions",
          description: "The group's latest revision and the earlier ones, newest first.",
          errors: ["404 `NOT_FOUND` for a group that has not submitted"],
        }),
        params: GroupHistoryParams,
        response: { 200: GroupSubmissionHistory },
      },
    )
    .put(
      "/group-assignments/:contentId/submissions/:submissionId/grade",
      ({ actor, params, body }) => gradeGroupSubmission(rt, actor, params, body),
      {
        ...route("gradeGroupSubmission", TAG, "contentManager", {
          summary: "Grade a group submission",
          description: "Scores the group's latest revision (it becomes GRADED).",
          errors: [
            "400 `VALIDATION_FAILED` for a score above `maxScore`",
            "404 `NOT_FOUND` for an unknown submission",
            "409 `INVALID_STATE` for an older revision, or before every member submitted under ALL_MEMBERS",
          ],
        }),
        params: GroupSubmissionParams,
        body: GradeBody,
        response: { 200: GroupSubmission },
      },
    )
    .put(
      "/group-assignments/:contentId/submissions/:submissionId/feedback",
      ({ actor, params, body }) => saveGroupSubmissionFeedback(rt, actor, params, body),
      {
        ...route("saveGroupSubmissionFeedback", TAG, "contentManager", {
          summary: "Save feedback on a group submission",
          description: "Sets the latest revision's feedback without grading it.",
          errors: ["404 `NOT_FOUND` for an unknown submission", "409 `INVALID_STATE` for an older revision"],
        }),
        params: GroupSubmissionParams,
        body: FeedbackBody,
        response: { 200: GroupSubmission },
      },
    )
    .put(
      "/group-assignments/:contentId/submissions/:submissionId/member-scores",
      ({ actor, params, body }) => overrideGroupMemberScores(actor, params, body),
      {
        ...route("overrideGroupMemberScores", TAG, "contentManager", {
          summary: "Override group members' scores",
          description: "Gives members of the group their own score instead of the group's; answers every member's effective score.",
          errors: [
            "400 `VALIDATION_FAILED` when a profile is not a member of the group",
            "404 `NOT_FOUND` for an unknown submission",
            "409 `INVALID_STATE` before the submission is graded, or for an older revision",
          ],
        }),
        params: GroupSubmissionParams,
        body: MemberScoresBody,
        response: { 200: MemberScoresResult },
      },
    )
    .post(
      "/group-assignments/:contentId/submissions/:submissionId/return",
      ({ actor, params }) => returnGroupSubmission(rt, actor, params),
      {
        ...route("returnGroupSubmission", TAG, "contentManager", {
          summary: "Return a graded group submission",
          description: "GRADED → RETURNED: the group's members now see the grade.",
          errors: ["404 `NOT_FOUND` for an unknown submission", "409 `INVALID_STATE` when it is not GRADED or not the latest revision"],
        }),
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
        ...route("submitGroupAssignment", TAG, "contentViewer", {
          summary: "Submit a group assignment",
          description:
            "Adds a revision for the caller's group. ANY_MEMBER: any member submits for the group; ALL_MEMBERS: the group counts as submitted once every member has. Body, file and deadline rules as `submitAssignment`.",
          errors: [
            "400 `VALIDATION_FAILED` when the body or files required are missing",
            "403 `FORBIDDEN` when the caller is in no group of the set",
            "409 `DEADLINE_PASSED` after the deadline without late submission",
            "409 `INVALID_STATE` when the group-set link is invalid, the group's latest revision is GRADED, or the space is inactive",
          ],
        }),
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
          summary: "Set a group's own deadline",
          description:
            "Gives one group its own `dueAt` for the submits to come, instead of the config's; revisions already submitted keep their `isLate`. `null` removes it.",
          errors: ["400 `VALIDATION_FAILED` when the group is not one of the linked group set's"],
        }),
        params: GroupHistoryParams,
        body: ExtensionBody,
        response: { 200: GroupExtension },
      },
    )
    .get("/group-assignments/:contentId/my-submission", ({ actor, params }) => getMyGroupSubmission(rt, actor, params.contentId), {
      ...route("getMyGroupSubmission", TAG, "contentViewer", {
        summary: "Get your group's submission",
        description:
          "The rules, the caller's group with who submitted, and its latest revision and history (grades only once returned); group null without a group.",
      }),
      params: GroupAssignmentParams,
      response: { 200: MyGroupSubmission },
    });
}
