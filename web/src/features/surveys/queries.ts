import { queryOptions } from "@tanstack/react-query";
import { api, cursorPages, type Init, ok } from "../../api/client";

/** A survey's cache keys (by content id). */
export const surveyKeys = {
  config: (contentId: string) => ["survey-config", contentId] as const,
  stats: (contentId: string) => ["survey-stats", contentId] as const,
  text: (contentId: string, questionId: string) => ["survey-text", contentId, questionId] as const,
  respondents: (contentId: string, spaceId: string, status: string) => ["survey-respondents", contentId, spaceId, status] as const,
  view: (contentId: string) => ["survey-view", contentId] as const,
  mine: (contentId: string) => ["survey-mine", contentId] as const,
};

export const surveyConfigQuery = (contentId: string) =>
  queryOptions({
    queryKey: surveyKeys.config(contentId),
    queryFn: () => ok(api.GET("/api/v1/surveys/{contentId}/config", { params: { path: { contentId } } })),
  });

export const surveyStatsQuery = (contentId: string) =>
  queryOptions({
    queryKey: surveyKeys.stats(contentId),
    queryFn: () => ok(api.GET("/api/v1/surveys/{contentId}/statistics", { params: { path: { contentId } } })),
  });

export const textAnswersQuery = (contentId: string, questionId: string) =>
  cursorPages(surveyKeys.text(contentId, questionId), (cursor) =>
    ok(
      api.GET("/api/v1/surveys/{contentId}/questions/{questionId}/text-answers", {
        params: { path: { contentId, questionId }, query: { limit: 20, cursor } },
      }),
    ),
  );

export const respondentsQuery = (contentId: string, spaceId: string, status: "ALL" | "SUBMITTED" | "NOT_SUBMITTED") =>
  cursorPages(surveyKeys.respondents(contentId, spaceId, status), (cursor) =>
    ok(
      api.GET("/api/v1/surveys/{contentId}/respondents", {
        params: { path: { contentId }, query: { spaceId, status, limit: 50, cursor } },
      }),
    ),
  );

export const surveyViewQuery = (contentId: string) =>
  queryOptions({
    queryKey: surveyKeys.view(contentId),
    queryFn: () => ok(api.GET("/api/v1/surveys/{contentId}/participant-view", { params: { path: { contentId } } })),
  });

export const myResponseQuery = (contentId: string) =>
  queryOptions({
    queryKey: surveyKeys.mine(contentId),
    queryFn: () => ok(api.GET("/api/v1/surveys/{contentId}/my-response", { params: { path: { contentId } } })),
  });

// The area's writes, one function per operation (named by its operationId).
export const checkSurveyConfigChange = (init: Init<"/api/v1/surveys/{contentId}/config/change-check", "post">) =>
  ok(api.POST("/api/v1/surveys/{contentId}/config/change-check", init));
export const saveSurveyResponseDraft = (init: Init<"/api/v1/surveys/{contentId}/my-response/draft", "put">) =>
  ok(api.PUT("/api/v1/surveys/{contentId}/my-response/draft", init));
export const setSurveyConfig = (init: Init<"/api/v1/surveys/{contentId}/config", "put">) =>
  ok(api.PUT("/api/v1/surveys/{contentId}/config", init));
export const submitSurveyResponse = (init: Init<"/api/v1/surveys/{contentId}/my-response/submit", "post">) =>
  ok(api.POST("/api/v1/surveys/{contentId}/my-response/submit", init));
