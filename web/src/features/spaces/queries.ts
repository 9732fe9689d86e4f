import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ApiError, api, ok } from "../../api/client";
import { useUser } from "../../app/session";

export function useSpace(spaceId: string) {
  return useQuery({
    queryKey: ["space", spaceId],
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}", { params: { path: { spaceId } } })),
  });
}

/** The space's members a page at a time (listSpaceMembers is cursor-paged, in joining order). */
export function useSpaceMembers(spaceId: string) {
  return useInfiniteQuery({
    queryKey: ["space-members", spaceId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      ok(api.GET("/api/v1/spaces/{spaceId}/members", { params: { path: { spaceId }, query: { limit: 50, cursor: pageParam } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
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
    queryKey: ["space-role", spaceId, user.id],
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
    queryKey: ["spaces", "all-active"],
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
  return useQuery({ queryKey: ["space-categories"], queryFn: () => ok(api.GET("/api/v1/space-categories")), staleTime: 60_000 });
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
