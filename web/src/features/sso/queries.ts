import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

/** The SSO settings' cache key (the sign-in page editor reads them too). */
export const ssoKeys = { settings: ["sso"] as const };

export const ssoSettingsQuery = () => queryOptions({ queryKey: ssoKeys.settings, queryFn: () => ok(api.GET("/api/v1/sso-settings")) });
