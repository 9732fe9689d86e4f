import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

/** The roles screen's cache keys: a write invalidates what the screen reads through these. */
export const roleKeys = {
  roles: ["roles"] as const,
  grants: ["grants"] as const,
  grant: (code: string) => ["grant", code] as const,
};

export const rolesQuery = () => queryOptions({ queryKey: roleKeys.roles, queryFn: () => ok(api.GET("/api/v1/roles")) });

export const grantsQuery = () => queryOptions({ queryKey: roleKeys.grants, queryFn: () => ok(api.GET("/api/v1/permission-grants")) });

export const grantQuery = (code: string) =>
  queryOptions({
    queryKey: roleKeys.grant(code),
    queryFn: () => ok(api.GET("/api/v1/permission-grants/{code}", { params: { path: { code } } })),
  });
