import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { useUser } from "../../shell/session";

export function useSpace(spaceId: string) {
  return useQuery({
    queryKey: ["space", spaceId],
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}", { params: { path: { spaceId } } })),
  });
}

export function useSpaceMembers(spaceId: string) {
  return useQuery({
    queryKey: ["space-members", spaceId],
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/members", { params: { path: { spaceId }, query: { limit: 100 } } })),
  });
}

/** Whether the signed-in member is an ADMIN of the space (its members list is ordered by joining, so admins come first). */
export function useIsSpaceAdmin(spaceId: string): boolean | undefined {
  const user = useUser();
  const members = useSpaceMembers(spaceId);
  return members.data?.members.some((m) => m.id === user.id && m.role === "ADMIN");
}

/** Screens are one path segment (the server answers only those), so the open space and content live in the query string. */
export const spacePath = (spaceId: string, contentId?: string) =>
  `/spaces?space=${encodeURIComponent(spaceId)}${contentId ? `&content=${encodeURIComponent(contentId)}` : ""}`;
