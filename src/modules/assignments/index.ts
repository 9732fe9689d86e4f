import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.assignments" })
    .use(authPlugin(rt))
    .put("/assignments/:contentId/config", ({ actor, params, body }) => setAssignmentConfig(actor, params.contentId, body), {
      ...route("setAssignmentConfig", TAG, "contentManager"),
      params: AssignmentParams,
      body: AssignmentConfigBody,
      response: { 200: AssignmentConfig },
    })
    .get("/assignments/:contentId/config", ({ actor, params }) => getAssignmentConfig(actor, params.contentId), {
      ...route("getAssignmentConfig", TAG, "contentViewer"),
      params: AssignmentParams,
      response: { 200: AssignmentConfig },
    })
    .put("/assignments/:contentId/rubric", ({ actor, params, body }) => setAssignmentRubric(actor, params.contentId, body), {
      ...route("setAssignmentRubric", TAG, "contentManager"),
      params: AssignmentParams,
      body: RubricBody,
      response: { 200: Rubric },
    })
    .get("/assignments/:contentId/rubric", ({ actor, params }) => getAssignmentRubric(actor, params.contentId), {
      ...route("getAssignmentRubric", TAG, "contentViewer"),
      params: AssignmentParams,
      response: { 200: Rubric },
    })
    .get(
      "/assignments/:contentId/submissions",
      ({ actor, params, query }) => listAssignmentSubmissions(rt, actor, params.contentId, query),
      {
        ...route("listAssignmentSubmissions", TAG, "contentManager"),
        params: AssignmentParams,
        query: SubmissionsQuery,
        response: { 200: SubmissionPage },
      },
    )
    .get(
      "/assignments/:contentId/submitters/:profileId/history",
      ({ actor, params }) => getSubmitterHistory(rt, actor, params.contentId, params.profileId),
      {
        ...route("getSubmitterHistory", TAG, "contentManager"),
        params: SubmitterParams,
        response: { 200: SubmitterHistory },
      },
    )
    .put("/assignments/:contentId/submissions/:submissionId/grade", ({ actor, params, body }) => gradeSubmission(rt, actor, params, body), {
      ...route("gradeSubmission", TAG, "contentManager"),
      params: SubmissionParams,
      body: GradeBody,
      response: { 200: Submission },
    })
    .put(
      "/assignments/:contentId/submissions/:submissionId/feedback",
      ({ actor, params, body }) => saveSubmissionFeedback(rt, actor, params, body),
      {
        ...route("saveSubmissionFeedback", TAG, "contentManager"),
        params: SubmissionParams,
        body: FeedbackBody,
        response: { 200: Submission },
      },
    )
    .post("/assignments/:contentId/submissions/:submissionId/return", ({ actor, params }) => returnSubmission(rt, actor, params), {
      ...route("returnSubmission", TAG, "contentManager"),
      params: SubmissionParams,
      response: { 200: Submission },
    })
    .post("/assignments/:contentId/return-all", ({ actor, params }) => returnAllSubmissions(actor, params.contentId), {
      ...route("returnAllSubmissions", TAG, "contentManager", {
        summary: "Returns every graded submission of the assignment at once",
        description:
          "Every submitter's latest revision that is GRADED becomes RETURNED (its grade is released), as returnSubmission would do for each; SUBMITTED and RETURNED ones are left as they are.",
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
        ...route("submitAssignment", TAG, "contentViewer"),
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
          summary: "Sets or removes one participant's own deadline",
          description:
            "The participant (of the content's space, else 400) submits against this deadline instead of the config's dueAt; revisions already submitted keep their isLate. `dueAt` null removes it.",
        }),
        params: SubmitterParams,
        body: ExtensionBody,
        response: { 200: Extension },
      },
    )
    .get("/assignments/:contentId/my-submission", ({ actor, params }) => getMySubmission(rt, actor, params.contentId), {
      ...route("getMySubmission", TAG, "contentViewer"),
      params: AssignmentParams,
      response: { 200: MySubmission },
    });
}
