import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** The SSO settings' cache key (the sign-in page editor reads them too). */
export const ssoKeys = { settings: ["sso"] as const };

export const ssoSettingsQuery = () => queryOptions({ queryKey: ssoKeys.settings, queryFn: () => ok(api.GET("/api/v1/sso-settings")) });

// The area's writes, one function per operation (named by its operationId).
export const updateSsoSettings = (init: Init<"/api/v1/sso-settings", "patch">) => ok(api.PATCH("/api/v1/sso-settings", init));
