import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

export function useGroupAssignmentConfig(contentId: string) {
  return useQuery({
    queryKey: ["group-assignment-config", contentId],
    queryFn: () => ok(api.GET("/api/v1/group-assignments/{contentId}/config", { params: { path: { contentId } } })),
  });
}
