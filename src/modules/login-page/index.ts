import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { LoginPageDraft, LoginPageDraftBody, LoginPageSettings, PublicLoginPage, ReplaceLoginPageBody, TenantKeyParams } from "./model";
import { getPublicLoginPage } from "./public";
import { getLoginPageDraft, getLoginPageSettings, publishLoginPageDraft, replaceLoginPageSettings, saveLoginPageDraft } from "./service";

export { getLoginPageSettings } from "./service";

const MANAGE = "permission:tenant-settings:manage" as const;

export function loginPageModule(rt: Runtime) {
  return new Elysia({ name: "module.login-page" })
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .get("/login-page-settings", ({ actor }) => getLoginPageSettings(actor.db), {
      ...route("getLoginPageSettings", "loginPage", MANAGE),
      response: { 200: LoginPageSettings },
    })
    .put("/login-page-settings", ({ actor, body }) => replaceLoginPageSettings(actor.db, actor, body), {
      ...route("replaceLoginPageSettings", "loginPage", MANAGE),
      body: ReplaceLoginPageBody,
      response: { 200: LoginPageSettings },
    })
    .get("/login-page-settings/draft", ({ actor }) => getLoginPageDraft(actor.db), {
      ...route("getLoginPageDraft", "loginPage", MANAGE),
      response: { 200: LoginPageDraft },
    })
    .put("/login-page-settings/draft", ({ actor, body }) => saveLoginPageDraft(actor.db, actor, body), {
      ...route("saveLoginPageDraft", "loginPage", MANAGE),
      body: LoginPageDraftBody,
      response: { 200: LoginPageDraft },
    })
    .post("/login-page-settings/draft/publish", ({ actor }) => publishLoginPageDraft(actor.db), {
      ...route("publishLoginPageDraft", "loginPage", MANAGE),
      response: { 200: LoginPageSettings },
    })
    .get("/public/tenants/:tenantKey/login-page", ({ params }) => getPublicLoginPage(rt, params.tenantKey), {
      // A public auth operation: counts against the per-IP limit (DECISIONS §0).
      ...route("getPublicLoginPage", "auth", "public"),
      // Page loads are counted apart from sign-in attempts (a school behind one NAT address loads it often).
      ipRateLimit: "auth-page",
      params: TenantKeyParams,
      response: { 200: PublicLoginPage },
    });
}
