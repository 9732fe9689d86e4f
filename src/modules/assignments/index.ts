import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { getAssignmentConfig, getAssignmentRubric, setAssignmentConfig, setAssignmentRubric } from "./config";
import { setSubmissionExtension } from "./extensions";
import { gradeSubmission, returnAllSubmissions, returnSubmission, saveSubmissionFeedback } from "./grading";
import {
  AssignmentConfig,
  AssignmentConfigBody,
  AssignmentParams,
  Extension,
  ExtensionBody,
  FeedbackBody,
  GradeBody,
  MySubmission,
  ReturnAllResult,
  Rubric,
  RubricBody,
  Submission,
  SubmissionPage,
  SubmissionParams,
  SubmissionsQuery,
  SubmitBody,
  SubmitterHistory,
  SubmitterParams,
} from "./model";
import { getMySubmission, getSubmitterHistory, listAssignmentSubmissions, submitAssignment } from "./submissions";

const TAG = "assignments";

/** Assignments: the manager's config, rubric and grading, and the participant's own submissions. */
export function assignmentsModule(rt: Runtime) {
  return apiModule("module.assignments")
    .use(authPlugin(rt))
    .put("/assignments/:contentId/config", ({ actor, params, body }) => setAssignmentConfig(actor, params.contentId, body), {
      ...route("setAssignmentConfig", TAG, "contentManager", {
        summary: "Set an assignment's rules",
        description: "Full replace of the assignment's score, late and resubmit rules, body and file requirements and `dueAt`.",
      }),
      params: AssignmentParams,
      body: AssignmentConfigBody,
      response: { 200: AssignmentConfig },
    })
    .get("/assignments/:contentId/config", ({ actor, params }) => getAssignmentConfig(actor, params.contentId), {
      ...route("getAssignmentConfig", TAG, "contentViewer", {
        summary: "Get an assignment's rules",
        description: "The assignment's rules and `dueAt`, for its managers and participants.",
      }),
      params: AssignmentParams,
      response: { 200: AssignmentConfig },
    })
    .put("/assignments/:contentId/rubric", ({ actor, params, body }) => setAssignmentRubric(actor, params.contentId, body), {
      ...route("setAssignmentRubric", TAG, "contentManager", {
        summary: "Set an assignment's rubric",
        description: "Full replace of the rubric: up to 20 criteria, with levels when `useLevel`, and who may see it.",
      }),
      params: AssignmentParams,
      body: RubricBody,
      response: { 200: Rubric },
    })
    .get("/assignments/:contentId/rubric", ({ actor, params }) => getAssignmentRubric(actor, params.contentId), {
      ...route("getAssignmentRubric", TAG, "contentViewer", {
        summary: "Get an assignment's rubric",
        description: "The rubric: for managers always, for participants only while its visibility is VISIBLE_ALL.",
        errors: ["404 `NOT_FOUND` for a participant while the rubric is hidden"],
      }),
      params: AssignmentParams,
      response: { 200: Rubric },
    })
    .get(
      "/assignments/:contentId/submissions",
      ({ actor, params, query }) => listAssignmentSubmissions(rt, actor, params.contentId, query),
      {
        ...route("listAssignmentSubmissions", TAG, "contentManager", {
          summary: "List an assignment's submissions",
          description:
            "A page of submitters' latest revisions, newest first, filtered by `status`; `pendingCount` counts those still SUBMITTED. Managers see `similarity`. `extensions` lists every participant's own deadline (setSubmissionExtension), including those who have not submitted, so a roster can show them.",
        }),
        params: AssignmentParams,
        query: SubmissionsQuery,
        response: { 200: SubmissionPage },
      },
    )
    .get(
      "/assignments/:contentId/submitters/:profileId/history",
      ({ actor, params }) => getSubmitterHistory(rt, actor, params.contentId, params.profileId),
      {
        ...route("getSubmitterHistory", TAG, "contentManager", {
          summary: "Get a submitter's revisions",
          description: "The submitter's latest revision and the earlier ones, newest first.",
          errors: ["404 `NOT_FOUND` when that profile has not submitted"],
        }),
        params: SubmitterParams,
        response: { 200: SubmitterHistory },
      },
    )
    .put("/assignments/:contentId/submissions/:submissionId/grade", ({ actor, params, body }) => gradeSubmission(rt, actor, params, body), {
      ...route("gradeSubmission", TAG, "contentManager", {
        summary: "Grade a submission",
        description:
          "Scores the latest revision (score or rubric evaluation, feedback): it becomes GRADED, not yet visible to the participant until returned.",
        errors: [
          "400 `VALIDATION_FAILED` for a score above `maxScore` or a rubric entry that does not fit",
          "404 `NOT_FOUND` for an unknown submission",
          "409 `INVALID_STATE` for an older revision",
        ],
      }),
      params: SubmissionParams,
      body: GradeBody,
      response: { 200: Submission },
    })
    .put(
      "/assignments/:contentId/submissions/:submissionId/feedback",
      ({ actor, params, body }) => saveSubmissionFeedback(rt, actor, params, body),
      {
        ...route("saveSubmissionFeedback", TAG, "contentManager", {
          summary: "Save feedback on a submission",
          description: "Sets the latest revision's feedback without grading it.",
          errors: ["404 `NOT_FOUND` for an unknown submission", "409 `INVALID_STATE` for an older revision"],
        }),
        params: SubmissionParams,
        body: FeedbackBody,
        response: { 200: Submission },
      },
    )
    .post("/assignments/:contentId/submissions/:submissionId/return", ({ actor, params }) => returnSubmission(rt, actor, params), {
      ...route("returnSubmission", TAG, "contentManager", {
        summary: "Return a graded submission",
        description: "GRADED → RETURNED: the participant now sees the score, feedback and rubric evaluation.",
        errors: ["404 `NOT_FOUND` for an unknown submission", "409 `INVALID_STATE` when it is not GRADED or not the latest revision"],
      }),
      params: SubmissionParams,
      response: { 200: Submission },
    })
    .post("/assignments/:contentId/return-all", ({ actor, params }) => returnAllSubmissions(actor, params.contentId), {
      ...route("returnAllSubmissions", TAG, "contentManager", {
        summary: "Return every graded submission",
        description:
          "Every submitter's latest revision that is GRADED becomes RETURNED (its grade is released), as returnSubmission would do for each; SUBMITTED and RETURNED ones are left as they are. Answers how many were returned.",
      }),
      params: AssignmentParams,
      response: { 200: ReturnAllResult },
    })
    .post(
      "/assignments/:contentId/submissions",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return submitAssignment(rt, actor, params.contentId, body);
      },
      {
        ...route("submitAssignment", TAG, "contentViewer", {
          summary: "Submit an assignment",
          description:
            "Stores a new revision of the caller's submission (SUBMITTED, ungraded; the first is revision 1); `similarity` starts PENDING. After `dueAt` it is accepted as late only when `allowLateSubmit`.",
          errors: [
            "400 `VALIDATION_FAILED` when the body or files required are missing or a file id names no ready upload of the caller",
            "409 `DEADLINE_PASSED` after the deadline without late submission",
            "409 `RESUBMIT_NOT_ALLOWED` for a second submission without `allowResubmit`",
            "409 `INVALID_STATE` when the space is inactive",
          ],
        }),
        params: AssignmentParams,
        body: SubmitBody,
        response: { 201: Submission },
      },
    )
    .put(
      "/assignments/:contentId/extensions/:profileId",
      ({ actor, params, body }) => setSubmissionExtension(actor, params.contentId, params.profileId, body),
      {
        ...route("setSubmissionExtension", TAG, "contentManager", {
          summary: "Set a participant's own deadline",
          description:
            "Gives one participant their own `dueAt` for the submits to come; revisions already submitted keep their `isLate`. `null` removes it.",
          errors: ["400 `VALIDATION_FAILED` when the profile is not a participant of the content's space"],
        }),
        params: SubmitterParams,
        body: ExtensionBody,
        response: { 200: Extension },
      },
    )
    .get("/assignments/:contentId/my-submission", ({ actor, params }) => getMySubmission(rt, actor, params.contentId), {
      ...route("getMySubmission", TAG, "contentViewer", {
        summary: "Get your submission",
        description:
          "The caller's latest revision (null before the first) and earlier ones; score, feedback and rubric stay null until returned.",
      }),
      params: AssignmentParams,
      response: { 200: MySubmission },
    });
}
