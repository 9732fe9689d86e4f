import { queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ApiError, api, cursorPages, type Init, ok } from "../../api/client";
import { useUser } from "../../app/session";

/** The spaces' cache keys: `all` covers every space list; `membership` is what a change of members touches. */
export const spaceKeys = {
  all: ["spaces"] as const,
  list: (tab: string, semester: string) => ["spaces", tab, semester] as const,
  postTargets: ["spaces", "post-targets"] as const,
  allActive: ["spaces", "all-active"] as const,
  mine: (role: SpaceRole) => ["spaces", "mine", role] as const,
  space: (spaceId: string) => ["space", spaceId] as const,
  members: (spaceId: string) => ["space-members", spaceId] as const,
  role: (spaceId: string) => ["space-role", spaceId] as const,
  candidates: (spaceId: string, keyword: string) => ["space-candidates", spaceId, keyword] as const,
  blocks: (spaceId: string) => ["space-blocks", spaceId] as const,
  history: (spaceId: string) => ["space-history", spaceId] as const,
  joinCodes: (spaceId: string) => ["space-join-codes", spaceId] as const,
  categories: ["space-categories"] as const,
  membership: (spaceId: string) =>
    ["space-members", "space-candidates", "space-blocks", "space-history", "space-role", "space"].map((k) => [k, spaceId] as const),
};

export function useSpace(spaceId: string) {
  return useQuery({
    queryKey: spaceKeys.space(spaceId),
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}", { params: { path: { spaceId } } })),
  });
}

/** The space's members a page at a time (listSpaceMembers is cursor-paged, in joining order). */
export function useSpaceMembers(spaceId: string) {
  return useInfiniteQuery(
    cursorPages(spaceKeys.members(spaceId), (cursor) =>
      ok(api.GET("/api/v1/spaces/{spaceId}/members", { params: { path: { spaceId }, query: { limit: 50, cursor } } })),
    ),
  );
}

export type MyEnrolment = { role: "ADMIN" | "PARTICIPANT"; isOwner: boolean } | null;

/**
 * The signed-in member's enrolment in the space, or null when not enrolled (listSpaceMembers answers
 * 403). No operation returns the caller's role, so the members list is walked until the caller is
 * found: an admin enrolled after hundreds of participants is still recognised.
 */
export function useMyEnrolment(spaceId: string) {
  const user = useUser();
  return useQuery({
    queryKey: [...spaceKeys.role(spaceId), user.id],
    retry: false,
    // The walk can be several pages: a role read a moment ago still holds (changes invalidate it).
    staleTime: 30_000,
    queryFn: async (): Promise<MyEnrolment> => {
      let cursor: string | undefined;
      try {
        do {
          const page = await ok(
            api.GET("/api/v1/spaces/{spaceId}/members", { params: { path: { spaceId }, query: { limit: 100, cursor } } }),
          );
          const me = page.members.find((m) => m.id === user.id);
          if (me) return { role: me.role, isOwner: me.isOwner };
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      } catch (e) {
        if (e instanceof ApiError && e.status === 403) return null;
        throw e;
      }
      return null;
    },
  });
}

/** Whether the signed-in member is an ADMIN of the space (undefined while loading). */
export function useIsSpaceAdmin(spaceId: string): boolean | undefined {
  const mine = useMyEnrolment(spaceId);
  return mine.data === undefined ? undefined : mine.data?.role === "ADMIN";
}

/** Every active space the member can see, by id and name (a class column names them), cursor-paged. */
export function useAllActiveSpaces(enabled: boolean) {
  return useQuery({
    queryKey: spaceKeys.allActive,
    enabled,
    queryFn: async () => {
      const all: { id: string; name: string }[] = [];
      let cursor: string | undefined;
      do {
        const r = await ok(api.GET("/api/v1/spaces", { params: { query: { isActive: "true", limit: 100, cursor } } }));
        all.push(...r.spaces.map((s) => ({ id: s.id, name: s.name })));
        cursor = r.nextCursor ?? undefined;
      } while (cursor);
      return all;
    },
  });
}

/** The tenant's space-category settings (semesters, menus, categories) that space forms follow. */
export function useSpaceCategories() {
  return useQuery({ queryKey: spaceKeys.categories, queryFn: () => ok(api.GET("/api/v1/space-categories")), staleTime: 60_000 });
}

/** Screens are one path segment (the server answers only those), so the open space and content live in the query string. */
export const spacePath = (spaceId: string, contentId?: string) =>
  `/spaces?space=${encodeURIComponent(spaceId)}${contentId ? `&content=${encodeURIComponent(contentId)}` : ""}`;

/** The space's menus (docs/rules/spaces.md#creation) and the tab each opens in the console. */
export const MENU_TABS = {
  announcement: "stream",
  content: "classwork",
  community: "community",
  challenge: "challenges",
  grade: "grades",
} as const;

export type Space = NonNullable<Awaited<ReturnType<typeof useSpace>>["data"]>;

export type SpaceRole = "ADMIN" | "PARTICIPANT";
/** The space roles as select options, participant first (the usual choice). */
export const roleOptions = (t: (k: string) => string) =>
  (["PARTICIPANT", "ADMIN"] as const).map((r) => ({ value: r, label: t(`spaces.roles.${r}`) }));

export const spaceJoinCodesQuery = (spaceId: string) =>
  queryOptions({
    queryKey: spaceKeys.joinCodes(spaceId),
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/join-codes", { params: { path: { spaceId } } })),
  });

export const spaceCandidatesQuery = (spaceId: string, keyword: string) =>
  queryOptions({
    queryKey: spaceKeys.candidates(spaceId, keyword),
    queryFn: () =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/member-candidates", {
          params: { path: { spaceId }, query: { keyword: keyword || undefined, limit: 20 } },
        }),
      ),
  });

export const spacesQuery = (tab: string, semester: string) => ({
  ...cursorPages(spaceKeys.list(tab, semester), (cursor) =>
    ok(
      api.GET("/api/v1/spaces", {
        params: { query: { isActive: tab === "active" ? "true" : "false", semester: semester || undefined, cursor } },
      }),
    ),
  ),
  enabled: tab !== "settings",
});

export const enrolmentHistoryQuery = (spaceId: string) =>
  cursorPages(spaceKeys.history(spaceId), (cursor) =>
    ok(
      api.GET("/api/v1/spaces/{spaceId}/enrollment-history", {
        params: { path: { spaceId }, query: { limit: 30, cursor } },
      }),
    ),
  );

export const spaceBlocksQuery = (spaceId: string) =>
  queryOptions({
    queryKey: spaceKeys.blocks(spaceId),
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/blocks", { params: { path: { spaceId } } })),
  });

/** The active spaces where the member has a role (listSpaces myRole), the first 100: a teacher's classes. */
export const mySpacesQuery = (role: SpaceRole) =>
  queryOptions({
    queryKey: spaceKeys.mine(role),
    queryFn: () => ok(api.GET("/api/v1/spaces", { params: { query: { myRole: role, isActive: "true", limit: 100 } } })),
  });

export const postTargetsQuery = (showOthers: boolean) =>
  queryOptions({
    queryKey: spaceKeys.postTargets,
    enabled: showOthers,
    queryFn: () => ok(api.GET("/api/v1/spaces", { params: { query: { isActive: "true", limit: 100 } } })),
  });

// The area's writes, one function per operation (named by its operationId).
export const addSpaceMembers = (init: Init<"/api/v1/spaces/{spaceId}/members", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/members", init));
export const blockSpaceUser = (init: Init<"/api/v1/spaces/{spaceId}/blocks", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/blocks", init));
export const copySpace = (init: Init<"/api/v1/spaces/{spaceId}/copy", "post">) => ok(api.POST("/api/v1/spaces/{spaceId}/copy", init));
export const createSpace = (init: Init<"/api/v1/spaces", "post">) => ok(api.POST("/api/v1/spaces", init));
export const createSpaceJoinCode = (init: Init<"/api/v1/spaces/{spaceId}/join-codes", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/join-codes", init));
export const deleteSpace = (init: Init<"/api/v1/spaces/{spaceId}", "delete">) => ok(api.DELETE("/api/v1/spaces/{spaceId}", init));
export const joinPublicSpace = (init: Init<"/api/v1/spaces/{spaceId}/join", "post">) => ok(api.POST("/api/v1/spaces/{spaceId}/join", init));
export const joinSpaceWithCode = (init: Init<"/api/v1/spaces/join", "post">) => ok(api.POST("/api/v1/spaces/join", init));
export const leaveSpace = (init: Init<"/api/v1/spaces/{spaceId}/leave", "post">) => ok(api.POST("/api/v1/spaces/{spaceId}/leave", init));
export const removeSpaceMember = (init: Init<"/api/v1/spaces/{spaceId}/members/{userPkId}", "delete">) =>
  ok(api.DELETE("/api/v1/spaces/{spaceId}/members/{userPkId}", init));
export const transferSpaceOwnership = (init: Init<"/api/v1/spaces/{spaceId}/owner", "post">) =>
  ok(api.POST("/api/v1/spaces/{spaceId}/owner", init));
export const unblockSpaceUser = (init: Init<"/api/v1/spaces/{spaceId}/blocks/{userPkId}", "delete">) =>
  ok(api.DELETE("/api/v1/spaces/{spaceId}/blocks/{userPkId}", init));
export const updateSpace = (init: Init<"/api/v1/spaces/{spaceId}", "patch">) => ok(api.PATCH("/api/v1/spaces/{spaceId}", init));
export const updateSpaceCategories = (init: Init<"/api/v1/space-categories", "put">) => ok(api.PUT("/api/v1/space-categories", init));
export const updateSpaceJoinCode = (init: Init<"/api/v1/spaces/{spaceId}/join-codes/{joinCodeId}", "patch">) =>
  ok(api.PATCH("/api/v1/spaces/{spaceId}/join-codes/{joinCodeId}", init));
export const updateSpaceMemberRole = (init: Init<"/api/v1/spaces/{spaceId}/members/{userPkId}", "patch">) =>
  ok(api.PATCH("/api/v1/spaces/{spaceId}/members/{userPkId}", init));
