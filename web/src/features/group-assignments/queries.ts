import { useQuery } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";
import { GRADING_PAGE, submissionKeys, submissionQueries } from "../submissions/queries";

/** A group assignment's cache keys (by content id): the submission core's. */
export const groupAssignmentKeys = submissionKeys("group-assignment");

const reads = submissionQueries(groupAssignmentKeys, {
  config: (contentId) => ok(api.GET("/api/v1/group-assignments/{contentId}/config", { params: { path: { contentId } } })),
  mine: (contentId) => ok(api.GET("/api/v1/group-assignments/{contentId}/my-submission", { params: { path: { contentId } } })),
  submissions: (contentId) =>
    ok(api.GET("/api/v1/group-assignments/{contentId}/submissions", { params: { path: { contentId }, query: GRADING_PAGE } })),
  history: (contentId, groupId) =>
    ok(api.GET("/api/v1/group-assignments/{contentId}/groups/{groupId}/history", { params: { path: { contentId, groupId } } })),
});

export const useGroupAssignmentConfig = (contentId: string) => useQuery(reads.config(contentId));
/** My group's submission, its config and history. */
export const myGroupSubmissionQuery = reads.mine;
/** Every group's latest submission (the grading list). */
export const groupSubmissionsQuery = reads.submissions;
/** One group's revisions, oldest first. */
export const groupHistoryQuery = reads.history;

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
