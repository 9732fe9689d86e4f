import { queryOptions } from "@tanstack/react-query";
import { api, cursorPages, type Init, ok } from "../../api/client";
import type { paths } from "../../api/schema";

export type ChallengeDetail =
  paths["/api/v1/spaces/{spaceId}/challenges/{challengeId}"]["get"]["responses"]["200"]["content"]["application/json"];
export type ChallengeBody = NonNullable<paths["/api/v1/spaces/{spaceId}/challenges"]["post"]["requestBody"]>["content"]["application/json"];

/**
 * The challenges' cache keys: `space` covers every list of a space's challenges, `members` a
 * challenge's members with their progress, candidates and per-task status.
 */
export const challengeKeys = {
  space: (spaceId: string) => ["challenges", spaceId] as const,
  challenge: (spaceId: string, challengeId: string) => ["challenge", spaceId, challengeId] as const,
  members: (spaceId: string, challengeId: string) => ["challenge-members", spaceId, challengeId] as const,
};

export const challengesQuery = (spaceId: string, state: string, joined: boolean) =>
  queryOptions({
    queryKey: [...challengeKeys.space(spaceId), state, joined] as const,
    queryFn: () =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/challenges", {
          params: {
            path: { spaceId },
            query: { state: (state || undefined) as "ONGOING" | undefined, joined: joined ? "true" : undefined },
          },
        }),
      ),
  });

export const challengeQuery = (spaceId: string, challengeId: string) =>
  queryOptions({
    queryKey: challengeKeys.challenge(spaceId, challengeId),
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/challenges/{challengeId}", { params: { path: { spaceId, challengeId } } })),
  });

export const challengeMembersQuery = (spaceId: string, challengeId: string) =>
  cursorPages(challengeKeys.members(spaceId, challengeId), (cursor) =>
    ok(
      api.GET("/api/v1/spaces/{spaceId}/challenges/{challengeId}/members", {
        params: { path: { spaceId, challengeId }, query: { limit: 50, cursor } },
      }),
    ),
  );

export const memberProgressQuery = (spaceId: string, challengeId: string, memberId: string) =>
  queryOptions({
    queryKey: [...challengeKeys.members(spaceId, challengeId), "progress", memberId] as const,
    queryFn: () =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/challenges/{challengeId}/members/{userPkId}/progress", {
          params: { path: { spaceId, challengeId, userPkId: memberId } },
        }),
      ),
  });

export const challengeCandidatesQuery = (spaceId: string, challengeId: string, keyword: string) =>
  queryOptions({
    queryKey: [...challengeKeys.members(spaceId, challengeId), "candidates", keyword] as const,
    queryFn: () =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/challenges/{challengeId}/candidates", {
          params: { path: { spaceId, challengeId }, query: { keyword: keyword || undefined, limit: 20 } },
        }),
      ),
  });

export const taskStatusQuery = (spaceId: string, challengeId: string, taskId: string) =>
  cursorPages([...challengeKeys.members(spaceId, challengeId), "task", taskId] as const, (cursor) =>
    ok(
      api.GET("/api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks/{taskId}/status", {
        params: { path: { spaceId, challengeId, taskId }, query: { limit: 50, cursor } },
      }),
    ),
  );

// The area's writes, one function per operation (named by its operationId).
export const addChallengeMembers = (init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}/members", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/challenges/{challengeId}/members", init));
export const addChallengeMembersFromCandidates = (
  init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}/members/from-candidates", "post">,
) => ok(api.POST("/api/v1/spaces/{spaceId}/challenges/{challengeId}/members/from-candidates", init));
export const addChallengeTask = (init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks", init));
export const completeChallengeTask = (init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks/{taskId}/completion", "put">) =>
  ok(api.PUT("/api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks/{taskId}/completion", init));
export const createChallenge = (init: Init<"/api/v1/spaces/{spaceId}/challenges", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/challenges", init));
export const deleteChallenge = (init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}", "delete">) =>
  ok(api.DELETE("/api/v1/spaces/{spaceId}/challenges/{challengeId}", init));
export const leaveChallenge = (init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}/leave", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/challenges/{challengeId}/leave", init));
export const uncompleteChallengeTask = (
  init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks/{taskId}/completion", "delete">,
) => ok(api.DELETE("/api/v1/spaces/{spaceId}/challenges/{challengeId}/tasks/{taskId}/completion", init));
export const updateChallenge = (init: Init<"/api/v1/spaces/{spaceId}/challenges/{challengeId}", "put">) =>
  ok(api.PUT("/api/v1/spaces/{spaceId}/challenges/{challengeId}", init));
