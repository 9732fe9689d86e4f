import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

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
