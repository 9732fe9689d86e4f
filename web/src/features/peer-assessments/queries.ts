import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** A peer assessment's cache keys (by content id). */
export const peerKeys = {
  results: (contentId: string) => ["peer-results", contentId] as const,
  config: (contentId: string) => ["peer-config", contentId] as const,
  mine: (contentId: string) => ["peer-mine", contentId] as const,
};

export const peerResultsQuery = (contentId: string) =>
  queryOptions({
    queryKey: peerKeys.results(contentId),
    queryFn: () => ok(api.GET("/api/v1/peer-assessments/{contentId}/results", { params: { path: { contentId } } })),
  });

export const peerConfigQuery = (contentId: string) =>
  queryOptions({
    queryKey: peerKeys.config(contentId),
    queryFn: () => ok(api.GET("/api/v1/peer-assessments/{contentId}/config", { params: { path: { contentId } } })),
  });

export const myTargetsQuery = (contentId: string) =>
  queryOptions({
    queryKey: peerKeys.mine(contentId),
    queryFn: () => ok(api.GET("/api/v1/peer-assessments/{contentId}/my-targets", { params: { path: { contentId } } })),
  });

// The area's writes, one function per operation (named by its operationId).
export const setPeerAssessmentConfig = (init: Init<"/api/v1/peer-assessments/{contentId}/config", "put">) =>
  ok(api.PUT("/api/v1/peer-assessments/{contentId}/config", init));
export const submitPeerAssessment = (init: Init<"/api/v1/peer-assessments/{contentId}/my-targets/{targetId}", "put">) =>
  ok(api.PUT("/api/v1/peer-assessments/{contentId}/my-targets/{targetId}", init));
