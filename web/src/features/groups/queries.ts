import { api, ok } from "../../api/client";

export type Kind = "grant" | "plain";
type Summary = { id: string; name: string; memberCount: number };
type Detail = Summary & { members: { id: string; userId: string | null; displayName: string; email: string | null }[] };
type Page = { items: Summary[]; page: number; totalPages: number; total: number };

/** The same screen serves groups and plain groups: their operations differ only in path and list key. */
export const groupCalls = {
  list: async (kind: Kind, query: { page: number; pageSize: number; search?: string }): Promise<Page> => {
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
