import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

export function useAssignmentConfig(contentId: string) {
  return useQuery({
    queryKey: ["assignment-config", contentId],
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/config", { params: { path: { contentId } } })),
  });
}

export function useRubric(contentId: string) {
  return useQuery({
    queryKey: ["assignment-rubric", contentId],
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/rubric", { params: { path: { contentId } } })),
  });
}
