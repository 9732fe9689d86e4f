import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

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

// The area's writes, one function per operation (named by its operationId).
export const addGrantSubject = (init: Init<"/api/v1/permission-grants/{code}/subjects", "post">) =>
  ok(api.POST("/api/v1/permission-grants/{code}/subjects", init));
export const createRole = (init: Init<"/api/v1/roles", "post">) => ok(api.POST("/api/v1/roles", init));
export const deleteRole = (init: Init<"/api/v1/roles/{roleId}", "delete">) => ok(api.DELETE("/api/v1/roles/{roleId}", init));
export const removeGrantSubject = (init: Init<"/api/v1/permission-grants/{code}/subjects/remove", "post">) =>
  ok(api.POST("/api/v1/permission-grants/{code}/subjects/remove", init));
export const setGrantAllEnabled = (init: Init<"/api/v1/permission-grants/{code}/all-enabled", "put">) =>
  ok(api.PUT("/api/v1/permission-grants/{code}/all-enabled", init));
export const updateRole = (init: Init<"/api/v1/roles/{roleId}", "patch">) => ok(api.PATCH("/api/v1/roles/{roleId}", init));
