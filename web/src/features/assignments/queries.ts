import { useQuery } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";
import { GRADING_PAGE, submissionKeys, submissionQueries } from "../submissions/queries";

/** An assignment's cache keys (by content id): the submission core's, and the rubric. */
export const assignmentKeys = {
  ...submissionKeys("assignment"),
  rubric: (contentId: string) => ["assignment", contentId, "rubric"] as const,
};

const reads = submissionQueries(assignmentKeys, {
  config: (contentId) => ok(api.GET("/api/v1/assignments/{contentId}/config", { params: { path: { contentId } } })),
  mine: (contentId) => ok(api.GET("/api/v1/assignments/{contentId}/my-submission", { params: { path: { contentId } } })),
  submissions: (contentId) =>
    ok(api.GET("/api/v1/assignments/{contentId}/submissions", { params: { path: { contentId }, query: GRADING_PAGE } })),
  history: (contentId, profileId) =>
    ok(api.GET("/api/v1/assignments/{contentId}/submitters/{profileId}/history", { params: { path: { contentId, profileId } } })),
});

export const useAssignmentConfig = (contentId: string) => useQuery(reads.config(contentId));

export function useRubric(contentId: string) {
  return useQuery({
    queryKey: assignmentKeys.rubric(contentId),
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/rubric", { params: { path: { contentId } } })),
  });
}

/** The participant's own submission: the latest revision and the history. */
export const mySubmissionQuery = reads.mine;
/** Every participant's latest submission and extension (the grading list, the roster's deadlines). */
export const submissionsQuery = reads.submissions;
/** One participant's revisions, oldest first. */
export const submitterHistoryQuery = reads.history;

// The area's writes, one function per operation (named by its operationId).
export const gradeSubmission = (init: Init<"/api/v1/assignments/{contentId}/submissions/{submissionId}/grade", "put">) =>
  ok(api.PUT("/api/v1/assignments/{contentId}/submissions/{submissionId}/grade", init));
export const returnSubmission = (init: Init<"/api/v1/assignments/{contentId}/submissions/{submissionId}/return", "post">) =>
  ok(api.POST("/api/v1/assignments/{contentId}/submissions/{submissionId}/return", init));
export const setAssignmentConfig = (init: Init<"/api/v1/assignments/{contentId}/config", "put">) =>
  ok(api.PUT("/api/v1/assignments/{contentId}/config", init));
export const setAssignmentRubric = (init: Init<"/api/v1/assignments/{contentId}/rubric", "put">) =>
  ok(api.PUT("/api/v1/assignments/{contentId}/rubric", init));
export const setSubmissionExtension = (init: Init<"/api/v1/assignments/{contentId}/extensions/{profileId}", "put">) =>
  ok(api.PUT("/api/v1/assignments/{contentId}/extensions/{profileId}", init));
export const submitAssignment = (init: Init<"/api/v1/assignments/{contentId}/submissions", "post">) =>
  ok(api.POST("/api/v1/assignments/{contentId}/submissions", init));
export const returnAllSubmissions = (init: Init<"/api/v1/assignments/{contentId}/return-all", "post">) =>
  ok(api.POST("/api/v1/assignments/{contentId}/return-all", init));
