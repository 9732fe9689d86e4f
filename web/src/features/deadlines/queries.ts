import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { assignmentKeys, setSubmissionExtension, submissionsQuery } from "../assignments/queries";
import { quizAttemptsQuery, quizConfigQuery, quizKeys } from "../quizzes/queries";

/** An assignment's latest submissions and every participant's extension (listAssignmentSubmissions). */
export const useSubmissions = (contentId: string) => useQuery(submissionsQuery(contentId));

/** A quiz's submitted attempts (listQuizAttempts). */
export const useQuizAttempts = (contentId: string) => useQuery(quizAttemptsQuery(contentId));

export const useQuizConfig = (contentId: string) => useQuery(quizConfigQuery(contentId));

/** The per-student exceptions of a quiz (listQuizOverrides). */
export function useQuizOverrides(contentId: string) {
  return useQuery({
    queryKey: quizKeys.overrides(contentId),
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/overrides", { params: { path: { contentId } } })),
  });
}

export type OverrideBody = { opensAt: string | null; closesAt: string | null; timeLimitMinutes: number | null; maxAttempts: number | null };

/** Sets or removes one student's extension (assignment) or exception (quiz); the lists refetch. */
export function useDeadlineWrites(contentId: string, profileId: string) {
  const qc = useQueryClient();
  const path = { contentId, profileId };
  return {
    extend: useMutation({
      mutationFn: (dueAt: string | null) => setSubmissionExtension({ params: { path }, body: { dueAt } }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: assignmentKeys.submissions(contentId) }),
    }),
    override: useMutation({
      mutationFn: (body: OverrideBody) => ok(api.PUT("/api/v1/quizzes/{contentId}/overrides/{profileId}", { params: { path }, body })),
      onSuccess: () => void qc.invalidateQueries({ queryKey: quizKeys.overrides(contentId) }),
    }),
    removeOverride: useMutation({
      mutationFn: () => ok(api.DELETE("/api/v1/quizzes/{contentId}/overrides/{profileId}", { params: { path } })),
      onSuccess: () => void qc.invalidateQueries({ queryKey: quizKeys.overrides(contentId) }),
    }),
  };
}
