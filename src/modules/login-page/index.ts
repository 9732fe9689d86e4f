import { authPlugin } from "../../platform/auth/context";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { LoginPageDraft, LoginPageDraftBody, LoginPageSettings, PublicLoginPage, ReplaceLoginPageBody, TenantKeyParams } from "./model";
import { getPublicLoginPage } from "./public";
import { getLoginPageDraft, getLoginPageSettings, publishLoginPageDraft, replaceLoginPageSettings, saveLoginPageDraft } from "./service";

export { getLoginPageSettings } from "./service";

const MANAGE = "permission:tenant-settings:manage" as const;

export function loginPageModule(rt: Runtime) {
  return apiModule("module.login-page")
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .get("/login-page-settings", ({ actor }) => getLoginPageSettings(actor.db), {
      ...route("getLoginPageSettings", "loginPage", MANAGE, {
        summary: "Get the login-page settings",
        description: "The live settings of the tenant's login page.",
      }),
      response: { 200: LoginPageSettings },
    })
    .put("/login-page-settings", ({ actor, body }) => replaceLoginPageSettings(actor.db, actor, body), {
      ...route("replaceLoginPageSettings", "loginPage", MANAGE, {
        summary: "Replace the login-page settings",
        description:
          "Replaces the live login-page settings (titles, logo and background, methods, button labels, external links and feed, self sign-up switch).",
        errors: ["400 `VALIDATION_FAILED` when a file id names no ready file of the caller"],
      }),
      body: ReplaceLoginPageBody,
      response: { 200: LoginPageSettings },
    })
    .get("/login-page-settings/draft", ({ actor }) => getLoginPageDraft(actor.db), {
      ...route("getLoginPageDraft", "loginPage", MANAGE, {
        summary: "Get the login-page draft",
        description: "The live settings overlaid with the saved draft's fields (the live settings when there is no draft).",
      }),
      response: { 200: LoginPageDraft },
    })
    .put("/login-page-settings/draft", ({ actor, body }) => saveLoginPageDraft(actor.db, actor, body), {
      ...route("saveLoginPageDraft", "loginPage", MANAGE, {
        summary: "Save the login-page draft",
        description: "Replaces the stored draft; every field is optional and nothing goes live until `publishLoginPageDraft`.",
      }),
      body: LoginPageDraftBody,
      response: { 200: LoginPageDraft },
    })
    .post("/login-page-settings/draft/publish", ({ actor }) => publishLoginPageDraft(actor.db), {
      ...route("publishLoginPageDraft", "loginPage", MANAGE, {
        summary: "Publish the login-page draft",
        description:
          "Applies the draft over the live settings (validated as `replaceLoginPageSettings`), clears the draft and answers the live settings. Without a draft nothing changes.",
        errors: ["400 `VALIDATION_FAILED` when the merged settings are not valid"],
      }),
      response: { 200: LoginPageSettings },
    })
    .get("/public/tenants/:tenantKey/login-page", ({ params }) => getPublicLoginPage(rt, params.tenantKey), {
      // A public auth operation: counts against the per-IP limit (docs/rules/sign-in.md#rate-limits).
      ...route("getPublicLoginPage", "auth", "public", {
        summary: "Get a tenant's public login page",
        description:
          "What the hosted login page shows before sign-in: the tenant's name and logo, titles, background, enabled methods, button labels, external links and the available single sign-on providers.",
        errors: [
          "404 `NOT_FOUND` for an unknown tenant",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      // Page loads are counted apart from sign-in attempts (a school behind one NAT address loads it often).
      ipRateLimit: "auth-page",
      params: TenantKeyParams,
      response: { 200: PublicLoginPage },
    });
}
