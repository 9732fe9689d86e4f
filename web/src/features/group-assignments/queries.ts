import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** A group assignment's cache keys (by content id). */
export const groupAssignmentKeys = {
  config: (contentId: string) => ["group-assignment-config", contentId] as const,
  mine: (contentId: string) => ["my-group-submission", contentId] as const,
  submissions: (contentId: string) => ["group-submissions", contentId] as const,
  history: (contentId: string, groupId: string) => ["group-history", contentId, groupId] as const,
};

export function useGroupAssignmentConfig(contentId: string) {
  return useQuery({
    queryKey: groupAssignmentKeys.config(contentId),
    queryFn: () => ok(api.GET("/api/v1/group-assignments/{contentId}/config", { params: { path: { contentId } } })),
  });
}

/** My group's submission, its config and history. */
export const myGroupSubmissionQuery = (contentId: string) =>
  queryOptions({
    queryKey: groupAssignmentKeys.mine(contentId),
    queryFn: () => ok(api.GET("/api/v1/group-assignments/{contentId}/my-submission", { params: { path: { contentId } } })),
  });

/** Every group's latest submission (the grading list). */
export const groupSubmissionsQuery = (contentId: string) =>
  queryOptions({
    queryKey: groupAssignmentKeys.submissions(contentId),
    queryFn: () =>
      ok(api.GET("/api/v1/group-assignments/{contentId}/submissions", { params: { path: { contentId }, query: { pageSize: 100 } } })),
  });

/** One group's revisions, oldest first. */
export const groupHistoryQuery = (contentId: string, groupId: string) =>
  queryOptions({
    queryKey: groupAssignmentKeys.history(contentId, groupId),
    queryFn: () =>
      ok(
        api.GET("/api/v1/group-assignments/{contentId}/groups/{groupId}/history", {
          params: { path: { contentId, groupId } },
        }),
      ),
  });

// The area's writes, one function per operation (named by its operationId).
export const gradeGroupSubmission = (init: Init<"/api/v1/group-assignments/{contentId}/submissions/{submissionId}/grade", "put">) =>
  ok(api.PUT("/api/v1/group-assignments/{contentId}/submissions/{submissionId}/grade", init));
export const overrideGroupMemberScores = (
  init: Init<"/api/v1/group-assignments/{contentId}/submissions/{submissionId}/member-scores", "put">,
) => ok(api.PUT("/api/v1/group-assignments/{contentId}/submissions/{submissionId}/member-scores", init));
export const returnGroupSubmission = (init: Init<"/api/v1/group-assignments/{contentId}/submissions/{submissionId}/return", "post">) =>
  ok(api.POST("/api/v1/group-assignments/{contentId}/submissions/{submissionId}/return", init));
export const saveGroupSubmissionFeedback = (
  init: Init<"/api/v1/group-assignments/{contentId}/submissions/{submissionId}/feedback", "put">,
) => ok(api.PUT("/api/v1/group-assignments/{contentId}/submissions/{submissionId}/feedback", init));
export const setGroupAssignmentConfig = (init: Init<"/api/v1/group-assignments/{contentId}/config", "put">) =>
  ok(api.PUT("/api/v1/group-assignments/{contentId}/config", init));
export const submitGroupAssignment = (init: Init<"/api/v1/group-assignments/{contentId}/submissions", "post">) =>
  ok(api.POST("/api/v1/group-assignments/{contentId}/submissions", init));
