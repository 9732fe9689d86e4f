import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** The school settings' cache key (publishing the sign-in page refreshes it too). */
export const tenantKeys = { tenant: ["tenant"] as const };

export const tenantQuery = () => queryOptions({ queryKey: tenantKeys.tenant, queryFn: () => ok(api.GET("/api/v1/tenant")) });

// The area's writes, one function per operation (named by its operationId).
export const updateTenant = (init: Init<"/api/v1/tenant", "patch">) => ok(api.PATCH("/api/v1/tenant", init));
