import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** The sign-in page editor's cache keys: the saved draft, the published settings, the page as the public sees it. */
export const loginPageKeys = {
  draft: ["login-draft"] as const,
  live: ["login-live"] as const,
  public: ["login-public"] as const,
  publicOf: (tenantKey: string) => ["login-public", tenantKey] as const,
};

export const loginDraftQuery = () =>
  queryOptions({ queryKey: loginPageKeys.draft, queryFn: () => ok(api.GET("/api/v1/login-page-settings/draft")) });

export const loginLiveQuery = () =>
  queryOptions({ queryKey: loginPageKeys.live, queryFn: () => ok(api.GET("/api/v1/login-page-settings")) });

export const publicLoginPageQuery = (tenantKey: string) =>
  queryOptions({
    queryKey: loginPageKeys.publicOf(tenantKey),
    queryFn: () => ok(api.GET("/api/v1/public/tenants/{tenantKey}/login-page", { params: { path: { tenantKey } } })),
  });

// The area's writes, one function per operation (named by its operationId).
export const publishLoginPageDraft = () => ok(api.POST("/api/v1/login-page-settings/draft/publish"));
export const saveLoginPageDraft = (init: Init<"/api/v1/login-page-settings/draft", "put">) =>
  ok(api.PUT("/api/v1/login-page-settings/draft", init));
