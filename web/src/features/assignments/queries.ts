import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** An assignment's cache keys (by content id). */
export const assignmentKeys = {
  config: (contentId: string) => ["assignment-config", contentId] as const,
  rubric: (contentId: string) => ["assignment-rubric", contentId] as const,
  mine: (contentId: string) => ["my-submission", contentId] as const,
  submissions: (contentId: string) => ["submissions", contentId] as const,
  history: (contentId: string, profileId: string) => ["submitter-history", contentId, profileId] as const,
};

export function useAssignmentConfig(contentId: string) {
  return useQuery({
    queryKey: assignmentKeys.config(contentId),
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/config", { params: { path: { contentId } } })),
  });
}

export function useRubric(contentId: string) {
  return useQuery({
    queryKey: assignmentKeys.rubric(contentId),
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/rubric", { params: { path: { contentId } } })),
  });
}

/** The participant's own submission: the latest revision and the history. */
export const mySubmissionQuery = (contentId: string) =>
  queryOptions({
    queryKey: assignmentKeys.mine(contentId),
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/my-submission", { params: { path: { contentId } } })),
  });

/** Every participant's latest submission (the grading list). */
export const submissionsQuery = (contentId: string) =>
  queryOptions({
    queryKey: assignmentKeys.submissions(contentId),
    queryFn: () =>
      ok(api.GET("/api/v1/assignments/{contentId}/submissions", { params: { path: { contentId }, query: { pageSize: 100 } } })),
  });

/** One submitter's revisions, oldest first. */
export const submitterHistoryQuery = (contentId: string, profileId: string) =>
  queryOptions({
    queryKey: assignmentKeys.history(contentId, profileId),
    queryFn: () =>
      ok(
        api.GET("/api/v1/assignments/{contentId}/submitters/{profileId}/history", {
          params: { path: { contentId, profileId } },
        }),
      ),
  });

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
