import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

export type Kind = "grant" | "plain";
type Summary = { id: string; name: string; memberCount: number };
type Detail = Summary & { members: { id: string; userId: string | null; displayName: string; email: string | null }[] };
type ListQuery = { page: number; pageSize: number; search?: string };
type Page = { items: Summary[]; page: number; totalPages: number; total: number };

/** The same screen serves groups and plain groups: their operations differ only in path and list key. */
export const groupCalls = {
  list: async (kind: Kind, query: ListQuery): Promise<Page> => {
    if (kind === "grant") {
      const r = await ok(api.GET("/api/v1/groups", { params: { query } }));
      return { items: r.groups, page: r.page, totalPages: r.totalPages, total: r.total };
    }
    const r = await ok(api.GET("/api/v1/plain-groups", { params: { query } }));
    return { items: r.plainGroups, page: r.page, totalPages: r.totalPages, total: r.total };
  },
  get: (kind: Kind, id: string): Promise<Detail> =>
    kind === "grant"
      ? ok(api.GET("/api/v1/groups/{groupId}", { params: { path: { groupId: id } } }))
      : ok(api.GET("/api/v1/plain-groups/{plainGroupId}", { params: { path: { plainGroupId: id } } })),
  create: (kind: Kind, name: string) =>
    kind === "grant" ? ok(api.POST("/api/v1/groups", { body: { name } })) : ok(api.POST("/api/v1/plain-groups", { body: { name } })),
  rename: (kind: Kind, id: string, name: string) =>
    kind === "grant"
      ? ok(api.PATCH("/api/v1/groups/{groupId}", { params: { path: { groupId: id } }, body: { name } }))
      : ok(api.PATCH("/api/v1/plain-groups/{plainGroupId}", { params: { path: { plainGroupId: id } }, body: { name } })),
  remove: (kind: Kind, id: string) =>
    kind === "grant"
      ? ok(api.DELETE("/api/v1/groups/{groupId}", { params: { path: { groupId: id } } }))
      : ok(api.DELETE("/api/v1/plain-groups/{plainGroupId}", { params: { path: { plainGroupId: id } } })),
  addMembers: (kind: Kind, id: string, userIds: string[]) =>
    kind === "grant"
      ? ok(api.POST("/api/v1/groups/{groupId}/members", { params: { path: { groupId: id } }, body: { userIds } }))
      : ok(api.POST("/api/v1/plain-groups/{plainGroupId}/members", { params: { path: { plainGroupId: id } }, body: { userIds } })),
  removeMember: (kind: Kind, id: string, userPkId: string) =>
    kind === "grant"
      ? ok(api.DELETE("/api/v1/groups/{groupId}/members/{userPkId}", { params: { path: { groupId: id, userPkId } } }))
      : ok(api.DELETE("/api/v1/plain-groups/{plainGroupId}/members/{userPkId}", { params: { path: { plainGroupId: id, userPkId } } })),
};

/** The groups screens' cache keys: `all` covers every list (both kinds and the grant editor's picker). */
export const groupKeys = {
  all: ["groups"] as const,
  list: (kind: Kind, query: ListQuery) => ["groups", kind, query] as const,
  pickable: ["groups", "all"] as const,
  detail: (kind: Kind, id: string) => ["group", kind, id] as const,
};

export const groupsQuery = (kind: Kind, query: ListQuery) =>
  queryOptions({ queryKey: groupKeys.list(kind, query), queryFn: () => groupCalls.list(kind, query) });

export const groupQuery = (kind: Kind, id: string) =>
  queryOptions({ queryKey: groupKeys.detail(kind, id), queryFn: () => groupCalls.get(kind, id) });

/** The (permission) groups a grant can be given to, the first 100. */
export const pickableGroupsQuery = () =>
  queryOptions({
    queryKey: groupKeys.pickable,
    queryFn: () => ok(api.GET("/api/v1/groups", { params: { query: { pageSize: 100 } } })),
  });
