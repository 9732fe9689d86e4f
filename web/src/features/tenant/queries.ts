import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

/** The school settings' cache key (publishing the sign-in page refreshes it too). */
export const tenantKeys = { tenant: ["tenant"] as const };

export const tenantQuery = () => queryOptions({ queryKey: tenantKeys.tenant, queryFn: () => ok(api.GET("/api/v1/tenant")) });
