import { api, ok } from "../../api/client";
import { pageOf } from "../../ui/router";

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
  return { queryKey: ["members", query], queryFn: () => ok(api.GET("/api/v1/members", { params: { query } })) };
}
