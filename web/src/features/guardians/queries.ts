import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

/** The guardian's own students (listMyStudents); an empty list for anyone who is no guardian. */
export function useMyStudents(enabled = true) {
  return useQuery({
    queryKey: ["guardians", "my-students"],
    enabled,
    staleTime: 60_000,
    queryFn: () => ok(api.GET("/api/v1/me/students")),
  });
}

/** What the guardian may see of one student (getStudentOverview). */
export function useStudentOverview(userPkId: string) {
  return useQuery({
    queryKey: ["guardians", "overview", userPkId],
    queryFn: () => ok(api.GET("/api/v1/me/students/{userPkId}/overview", { params: { path: { userPkId } } })),
  });
}

/** A member's guardians (listMemberGuardians) with adding and removing them. */
export function useMemberGuardians(userPkId: string) {
  const qc = useQueryClient();
  const key = ["guardians", "of", userPkId];
  const path = { params: { path: { userPkId } } };
  const list = useQuery({ queryKey: key, queryFn: () => ok(api.GET("/api/v1/members/{userPkId}/guardians", path)) });
  const done = () => void qc.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: (guardianId: string) => ok(api.POST("/api/v1/members/{userPkId}/guardians", { ...path, body: { guardianId } })),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (guardianId: string) =>
      ok(api.DELETE("/api/v1/members/{userPkId}/guardians/{guardianId}", { params: { path: { userPkId, guardianId } } })),
    onSuccess: done,
  });
  return { list, add, remove };
}
