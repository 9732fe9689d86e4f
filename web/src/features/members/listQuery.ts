import { api, ok } from "../../api/client";

const PAGE_SIZE = 20;

/** The listMembers query the URL describes (shared by the screen and the start-up prefetch, so both hit one cache entry). */
export function membersListQuery(search: URLSearchParams) {
  const get = (k: string) => search.get(k) ?? undefined;
  const fieldId = get("field") ?? "";
  const query = {
    page: Number(get("page") ?? "1") || 1,
    pageSize: PAGE_SIZE,
    search: get("q"),
    roleKey: get("role"),
    status: get("status") as "active" | "inactive" | undefined,
    isIssuedAccount: get("issued") as "true" | "false" | undefined,
    filterFieldId: fieldId && get("value") ? fieldId : undefined,
    filterValue: fieldId ? get("value") : undefined,
    sortBy: get("sort") ?? "createdAt",
    sortDir: (get("dir") ?? "desc") as "asc" | "desc",
  };
  return { queryKey: ["members", query], queryFn: () => ok(api.GET("/api/v1/members", { params: { query } })) };
}
