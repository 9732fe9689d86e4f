import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Init, ok, type QueryOf } from "../../api/client";
import type { paths } from "../../api/schema";
import { pageOf } from "../../ui/router";
import { memberFieldDisplayQuery, memberFieldsQuery } from "../fields/queries";
import { rolesQuery } from "../roles/queries";

type Members = paths["/api/v1/members"]["get"]["responses"]["200"]["content"]["application/json"];

/** The members screen's cache keys: `all` covers every list and the member pickers (ui/queries.ts). */
export const memberKeys = {
  all: ["members"] as const,
  list: (query: QueryOf<"/api/v1/members">) => ["members", query] as const,
  every: ["members", "every"] as const,
  detail: (id: string) => ["member", id] as const,
  ownership: (id: string) => ["member-ownership", id] as const,
};

export const memberQuery = (id: string) =>
  queryOptions({
    queryKey: memberKeys.detail(id),
    queryFn: () => ok(api.GET("/api/v1/members/{userPkId}", { params: { path: { userPkId: id } } })),
  });

/** Every member of the school (listMembers, a page of 100 at a time): the roll-over matches a class list against them. */
export const everyMemberQuery = () =>
  queryOptions({
    queryKey: memberKeys.every,
    queryFn: async () => {
      const all: Members["members"] = [];
      for (let page = 1; ; page++) {
        const r = await ok(api.GET("/api/v1/members", { params: { query: { page, pageSize: 100 } } }));
        all.push(...r.members);
        if (page >= r.totalPages) return all;
      }
    },
  });

/** What a member owns (listMemberOwnership): their spaces and authored contents, before a hand-over. */
export const memberOwnershipQuery = (id: string) =>
  queryOptions({
    queryKey: memberKeys.ownership(id),
    queryFn: () => ok(api.GET("/api/v1/members/{userPkId}/ownership", { params: { path: { userPkId: id } } })),
  });

/** The roles a member can be given (needs role:read; without it the list is just the default role). */
export function useRoles(enabled: boolean) {
  return useQuery({ ...rolesQuery(), enabled });
}

export function useMemberFields() {
  return useQuery(memberFieldsQuery());
}

/** Which member columns and fields the list shows, in which order (setMemberFieldDisplay). */
export function useMemberFieldDisplay() {
  return useQuery(memberFieldDisplayQuery());
}

/** The page sizes offered (listMembers allows 1..100); the first is the default. */
export const PAGE_SIZES = [20, 50, 100] as const;

/** The URL keys of the members list's filters (the filter bar clears these). */
export const FILTER_PARAMS = [
  "q",
  "role",
  "status",
  "issued",
  "loginFrom",
  "loginTo",
  "activeMin",
  "activeMax",
  "inactiveMin",
  "inactiveMax",
  "ff",
] as const;

/** A picked day (yyyy-mm-dd) as the instant it starts in the browser's time zone, or the instant the next day starts less 1 ms. */
function dayBound(day: string | undefined, end: boolean): string | undefined {
  if (!day) return undefined;
  const [y, m, d] = day.split("-").map(Number);
  if (!y || !m || !d) return undefined;
  const at = new Date(y, m - 1, end ? d + 1 : d);
  return new Date(at.getTime() - (end ? 1 : 0)).toISOString();
}

const count = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);

/** The listMembers query the URL describes (shared by the screen and the start-up prefetch, so both hit one cache entry). */
export function membersListQuery(search: URLSearchParams) {
  const get = (k: string) => search.get(k) ?? undefined;
  const many = (k: string) => {
    const v = search.getAll(k);
    return v.length ? v : undefined;
  };
  const query = {
    page: pageOf(search),
    pageSize: PAGE_SIZES.find((n) => String(n) === get("size")) ?? PAGE_SIZES[0],
    search: get("q"),
    roleKeys: many("role"),
    statuses: many("status"),
    isIssuedAccount: get("issued") as "true" | "false" | undefined,
    lastLoginFrom: dayBound(get("loginFrom"), false),
    lastLoginTo: dayBound(get("loginTo"), true),
    activeSpaceCountMin: count(get("activeMin")),
    activeSpaceCountMax: count(get("activeMax")),
    inactiveSpaceCountMin: count(get("inactiveMin")),
    inactiveSpaceCountMax: count(get("inactiveMax")),
    fieldFilters: many("ff"),
    sortBy: get("sort") ?? "createdAt",
    sortDir: (get("dir") ?? "desc") as "asc" | "desc",
    include: "spaceCounts" as const,
  };
  return queryOptions({ queryKey: memberKeys.list(query), queryFn: () => ok(api.GET("/api/v1/members", { params: { query } })) });
}

// The area's writes, one function per operation (named by its operationId).
export const assignMemberPosition = (init: Init<"/api/v1/members/{userPkId}/position", "put">) =>
  ok(api.PUT("/api/v1/members/{userPkId}/position", init));
export const createMember = (init: Init<"/api/v1/members", "post">) => ok(api.POST("/api/v1/members", init));
export const createMembers = (init: Init<"/api/v1/members/bulk-create", "post">) => ok(api.POST("/api/v1/members/bulk-create", init));
export const handOverMember = (init: Init<"/api/v1/members/{userPkId}/hand-over", "post">) =>
  ok(api.POST("/api/v1/members/{userPkId}/hand-over", init));
export const deleteMembers = (init: Init<"/api/v1/members/bulk-delete", "post">) => ok(api.POST("/api/v1/members/bulk-delete", init));
export const resetMemberPassword = (init: Init<"/api/v1/members/{userPkId}/reset-password", "post">) =>
  ok(api.POST("/api/v1/members/{userPkId}/reset-password", init));
export const setMemberFieldValues = (init: Init<"/api/v1/members/{userPkId}/field-values", "put">) =>
  ok(api.PUT("/api/v1/members/{userPkId}/field-values", init));
export const setMemberRole = (init: Init<"/api/v1/members/{userPkId}/role", "put">) => ok(api.PUT("/api/v1/members/{userPkId}/role", init));
export const updateMembers = (init: Init<"/api/v1/members/bulk-update", "post">) => ok(api.POST("/api/v1/members/bulk-update", init));
export const updateMember = (init: Init<"/api/v1/members/{userPkId}", "patch">) => ok(api.PATCH("/api/v1/members/{userPkId}", init));
