import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { route } from "../../platform/http/route";
import { Int } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import {
  checkSignInCode,
  confirmPasswordReset,
  requestPasswordResetCode,
  requestSignInCode,
  resendSignUpCode,
  signInWithCode,
  signUp,
  verifySignUpCode,
} from "./account";
import { completeExternalSignIn, lookupLoginIdentifier, startExternalSignIn } from "./external";
import { joinTenant, requestTenantCode } from "./join";
import { changeOwnPassword, getCurrentUser, listMyProfiles } from "./me";
import {
  AuthResult,
  ChangePasswordBody,
  CodeIssued,
  CodeTenantsResult,
  CompleteExternalQuery,
  ConfirmResetBody,
  EmailBody,
  EmailCodeBody,
  IdentifierBody,
  IdentifierLookupResult,
  JoinTenantBody,
  JoinWithJoinCodeBody,
  Profile,
  ProviderParams,
  SessionRefresh,
  SessionTypeResult,
  SessionUser,
  SetSessionTypeBody,
  SignInWithCodeBody,
  SignInWithPasswordBody,
  SignUpBody,
  SignUpResult,
  StartExternalBody,
  TenantKeyParams,
  VerifySignUpBody,
} from "./model";
import { clearedCookie, type Issued, refreshSession, refreshTokenOf, setSessionType, signOut } from "./session";
import { signInWithPassword } from "./sign-in";

const AUTH = "auth";
/** Public auth operations count against the per-IP limit (DECISIONS §0). */
const pub = (operationId: string) => ({ ...route(operationId, AUTH, "public"), ipRateLimit: AUTH });

/** Sends the refresh cookie of a sign-in and answers its body. */
function issue<T>(set: { headers: Record<string, unknown> }, issued: Issued<T>): T {
  set.headers["set-cookie"] = issued.cookie;
  return issued.body;
}

export function authModule(rt: Runtime) {
  return new Elysia({ name: "module.auth" })
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .post(
      "/auth/sign-up",
      async ({ body, set }) => {
        set.status = 201;
        return signUp(rt, body);
      },
      { ...pub("signUp"), body: SignUpBody, response: { 201: SignUpResult } },
    )
    .post("/auth/sign-up/verify", async ({ body, set }) => issue(set, await verifySignUpCode(rt, body)), {
      ...pub("verifySignUpCode"),
      body: VerifySignUpBody,
      response: { 200: AuthResult },
    })
    .post("/auth/sign-up/resend-code", ({ body }) => resendSignUpCode(rt, body.email), {
      ...pub("resendSignUpCode"),
      body: EmailBody,
      response: { 200: CodeIssued },
    })
    .post("/auth/password-reset/request-code", ({ body }) => requestPasswordResetCode(rt, body.email), {
      ...pub("requestPasswordResetCode"),
      body: EmailBody,
      response: { 200: CodeIssued },
    })
    .post("/auth/password-reset/confirm", ({ body }) => confirmPasswordReset(rt, body), {
      ...pub("confirmPasswordReset"),
      body: ConfirmResetBody,
      response: { 200: t.Object({ updatedAccounts: Int() }) },
    })
    .post("/auth/sign-in/request-code", ({ body }) => requestSignInCode(rt, body.email), {
      ...pub("requestSignInCode"),
      body: EmailBody,
      response: { 200: CodeIssued },
    })
    .post("/auth/sign-in/check-code", ({ body }) => checkSignInCode(rt, body), {
      ...pub("checkSignInCode"),
      body: EmailCodeBody,
      response: { 200: CodeTenantsResult },
    })
    .post("/auth/sign-in/code", async ({ body, set }) => issue(set, await signInWithCode(rt, body)), {
      ...pub("signInWithCode"),
      body: SignInWithCodeBody,
      response: { 200: AuthResult },
    })
    .post("/auth/sign-in/password", async ({ body, set }) => issue(set, await signInWithPassword(rt, body)), {
      ...pub("signInWithPassword"),
      body: SignInWithPasswordBody,
      response: { 200: AuthResult },
    })
    .put("/auth/session/type", ({ actor, body, set }) => issue(set, setSessionType(rt, actor, body.sessionType)), {
      ...route("setSessionType", AUTH, "session", "Rotates the `lsp_session` cookie and sends it with the new type's lifetime."),
      body: SetSessionTypeBody,
      response: { 200: SessionTypeResult },
    })
    .post("/auth/session/refresh", async ({ request, set }) => issue(set, await refreshSession(rt, refreshTokenOf(request))), {
      ...route("refreshSession", AUTH, "public", "Reads only the HttpOnly `lsp_session` cookie; rotates it."),
      response: { 200: SessionRefresh },
    })
    .post(
      "/auth/session/sign-out",
      ({ request, set }) => {
        signOut(rt, refreshTokenOf(request));
        set.headers["set-cookie"] = clearedCookie(rt);
        set.status = 204;
      },
      { ...route("signOut", AUTH, "public", "Revokes the `lsp_session` cookie's session and clears it."), response: { 204: t.Void() } },
    )
    .post("/public/tenants/:tenantKey/auth/request-code", ({ params, body }) => requestTenantCode(rt, params.tenantKey, body.email), {
      ...pub("requestTenantCode"),
      params: TenantKeyParams,
      body: EmailBody,
      response: { 200: CodeIssued },
    })
    .post(
      "/public/tenants/:tenantKey/auth/join",
      async ({ params, body, set }) => {
        const issued = await joinTenant(rt, params.tenantKey, body);
        set.status = 201;
        return issue(set, issued);
      },
      { ...pub("joinTenant"), params: TenantKeyParams, body: JoinTenantBody, response: { 201: AuthResult } },
    )
    .post(
      "/public/tenants/:tenantKey/auth/join-with-code",
      async ({ params, body, set }) => {
        const issued = await joinTenant(rt, params.tenantKey, body);
        set.status = 201;
        return issue(set, issued);
      },
      { ...pub("joinTenantWithJoinCode"), params: TenantKeyParams, body: JoinWithJoinCodeBody, response: { 201: AuthResult } },
    )
    .get("/me", ({ actor }) => getCurrentUser(rt, actor), {
      ...route("getCurrentUser", AUTH, "session"),
      response: { 200: SessionUser },
    })
    .put(
      "/me/password",
      async ({ actor, body, set }) => {
        await changeOwnPassword(rt, actor, body);
        set.status = 204;
      },
      { ...route("changeOwnPassword", AUTH, "session"), body: ChangePasswordBody, response: { 204: t.Void() } },
    )
    .post(
      "/auth/external/:provider/start",
      async ({ params, body, set }) => {
        const started = await startExternalSignIn(rt, params.provider, body);
        if (started.cookie) set.headers["set-cookie"] = started.cookie;
        return { url: started.url };
      },
      {
        ...pub("startExternalSignIn"),
        detail: {
          ...pub("startExternalSignIn").detail,
          "x-errors": { "503": "The provider cannot be reached (PROVIDER_UNAVAILABLE)" },
        },
        params: ProviderParams,
        body: StartExternalBody,
        response: { 200: t.Object({ url: t.String() }) },
      },
    )
    .get(
      "/auth/external/:provider/callback",
      async ({ params, query, request }) => {
        const done = await completeExternalSignIn(rt, params.provider, request, query);
        const headers = new Headers({ location: done.location });
        for (const cookie of done.cookies) headers.append("set-cookie", cookie);
        return new Response(null, { status: 302, headers });
      },
      {
        ...pub("completeExternalSignIn"),
        params: ProviderParams,
        query: CompleteExternalQuery,
        response: {
          302: t.Void({ description: "Redirect to returnTo (with error=CODE on refusal); sets the refresh cookie on success" }),
        },
      },
    )
    .get("/me/profile-id", ({ actor }) => ({ profileId: actor.profileId }), {
      ...route("getMyProfileId", AUTH, "session"),
      response: { 200: t.Object({ profileId: t.String() }) },
    })
    .get("/me/profiles", ({ actor }) => listMyProfiles(actor), {
      ...route("listMyProfiles", AUTH, "session"),
      response: { 200: t.Object({ profiles: t.Array(Profile) }) },
    })
    .post(
      "/public/tenants/:tenantKey/auth/identifier-lookup",
      ({ params, body }) => lookupLoginIdentifier(rt, params.tenantKey, body.identifier),
      { ...pub("lookupLoginIdentifier"), params: TenantKeyParams, body: IdentifierBody, response: { 200: IdentifierLookupResult } },
    );
}
