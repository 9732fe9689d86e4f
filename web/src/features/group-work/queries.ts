import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** A space's group sets' cache key (a group assignment and a peer assessment pick from them). */
export const groupSetKeys = { space: (spaceId: string) => ["group-sets", spaceId] as const };

export const groupSetsQuery = (spaceId: string) =>
  queryOptions({
    queryKey: groupSetKeys.space(spaceId),
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/group-sets", { params: { path: { spaceId } } })),
  });

export const useGroupSets = (spaceId: string) => useQuery(groupSetsQuery(spaceId));

// The area's writes, one function per operation (named by its operationId).
export const createSpaceGroupSet = (init: Init<"/api/v1/spaces/{spaceId}/group-sets", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/group-sets", init));
