import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../api/client";

/**
 * The member search behind MemberPicker (listMembers, 8 at a time). Its key sits under the members
 * screen's `["members"]` (features/members/queries.ts memberKeys.all), so a member write refreshes it.
 */
export const memberSearchQuery = (q: string) =>
  queryOptions({
    queryKey: ["members", "pick", q] as const,
    enabled: q.trim().length > 0,
    queryFn: () => ok(api.GET("/api/v1/members", { params: { query: { search: q.trim(), pageSize: 8 } } })),
  });
