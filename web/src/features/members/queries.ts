import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

/** The roles a member can be given (needs role:read; without it the list is just the default role). */
export function useRoles(enabled: boolean) {
  return useQuery({ queryKey: ["roles"], enabled, queryFn: () => ok(api.GET("/api/v1/roles")) });
}

export function useMemberFields() {
  return useQuery({ queryKey: ["member-fields"], queryFn: () => ok(api.GET("/api/v1/member-fields")) });
}

/** Which member columns and fields the list shows, in which order (setMemberFieldDisplay). */
export function useMemberFieldDisplay() {
  return useQuery({ queryKey: ["member-field-display"], queryFn: () => ok(api.GET("/api/v1/member-fields/display")) });
}
