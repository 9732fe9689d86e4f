import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** A quiz's cache keys (by content id; one attempt by its id). */
export const quizKeys = {
  config: (contentId: string) => ["quiz-config", contentId] as const,
  stats: (contentId: string) => ["quiz-stats", contentId] as const,
  attempts: (contentId: string) => ["quiz-attempts", contentId] as const,
  overrides: (contentId: string) => ["quiz-overrides", contentId] as const,
  attempt: (attemptId: string) => ["quiz-attempt", attemptId] as const,
  view: (contentId: string) => ["quiz-view", contentId] as const,
  mine: (contentId: string) => ["quiz-mine", contentId] as const,
};

export const quizConfigQuery = (contentId: string) =>
  queryOptions({
    queryKey: quizKeys.config(contentId),
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/config", { params: { path: { contentId } } })),
  });

export const quizStatsQuery = (contentId: string) =>
  queryOptions({
    queryKey: quizKeys.stats(contentId),
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/statistics", { params: { path: { contentId } } })),
  });

export const quizAttemptsQuery = (contentId: string) =>
  queryOptions({
    queryKey: quizKeys.attempts(contentId),
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/attempts", { params: { path: { contentId } } })),
  });

export const quizAttemptQuery = (contentId: string, attemptId: string) =>
  queryOptions({
    queryKey: quizKeys.attempt(attemptId),
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/attempts/{attemptId}", { params: { path: { contentId, attemptId } } })),
  });

export const quizViewQuery = (contentId: string) =>
  queryOptions({
    queryKey: quizKeys.view(contentId),
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/participant-view", { params: { path: { contentId } } })),
  });

export const myAttemptsQuery = (contentId: string) =>
  queryOptions({
    queryKey: quizKeys.mine(contentId),
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/my-attempts", { params: { path: { contentId } } })),
  });

// The area's writes, one function per operation (named by its operationId).
export const saveQuizAnswers = (init: Init<"/api/v1/quizzes/{contentId}/my-attempts/{attemptId}/answers", "put">) =>
  ok(api.PUT("/api/v1/quizzes/{contentId}/my-attempts/{attemptId}/answers", init));
export const scoreQuizAnswer = (init: Init<"/api/v1/quizzes/{contentId}/attempts/{attemptId}/answers/{answerId}/score", "put">) =>
  ok(api.PUT("/api/v1/quizzes/{contentId}/attempts/{attemptId}/answers/{answerId}/score", init));
export const setQuizConfig = (init: Init<"/api/v1/quizzes/{contentId}/config", "put">) =>
  ok(api.PUT("/api/v1/quizzes/{contentId}/config", init));
export const startQuizAttempt = (init: Init<"/api/v1/quizzes/{contentId}/my-attempts", "post">) =>
  ok(api.POST("/api/v1/quizzes/{contentId}/my-attempts", init));
export const submitQuizAttempt = (init: Init<"/api/v1/quizzes/{contentId}/my-attempts/{attemptId}/submit", "post">) =>
  ok(api.POST("/api/v1/quizzes/{contentId}/my-attempts/{attemptId}/submit", init));
export const voidQuizAttempt = (init: Init<"/api/v1/quizzes/{contentId}/attempts/{attemptId}/void", "post">) =>
  ok(api.POST("/api/v1/quizzes/{contentId}/attempts/{attemptId}/void", init));
