import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { apiModule, type RouteDoc, route } from "../../platform/http/route";
import { Int } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import {
  checkSignInCode,
  confirmPasswordReset,
  requestPasswordResetCode,
  requestSignInCode,
  resendSignUpCode,
  rollBackPendingSignUps,
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
/** Public auth operations count against the per-IP limit (docs/rules/sign-in.md#rate-limits). */
const pub = (operationId: string, doc?: RouteDoc) => ({ ...route(operationId, AUTH, "public", doc), ipRateLimit: AUTH });

/** Sends the refresh cookie of a sign-in and answers its body. */
function issue<T>(set: { headers: Record<string, unknown> }, issued: Issued<T>): T {
  set.headers["set-cookie"] = issued.cookie;
  return issued.body;
}

export function authModule(rt: Runtime) {
  // Sign-ups cut by a crash at the last run are undone before the first request.
  rollBackPendingSignUps(rt);
  return apiModule("module.auth")
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .post(
      "/auth/sign-up",
      async ({ body, set }) => {
        set.status = 201;
        return signUp(rt, body);
      },
      {
        ...pub("signUp", {
          summary: "Sign up",
          description:
            "Creates a platform account for the e-mail and sends a 6-character sign-up code to it; with `tenantKey` and `tenantName` it also creates that tenant with the account as its `owner`. Nothing signs in until `verifySignUpCode`. `devCode` is present only on a server started with dev codes.",
          errors: [
            "403 `FORBIDDEN` when a `tenantKey` is sent while the server's tenant sign-up is closed (`LEARNSPACE_TENANT_SIGNUP`: `first` allows only the first tenant)",
            "409 `ALREADY_EXISTS` when the e-mail is already registered or the `tenantKey` is taken",
            "429 `RATE_LIMITED` when this address sent too many public auth requests",
          ],
        }),
        body: SignUpBody,
        response: { 201: SignUpResult },
      },
    )
    .post("/auth/sign-up/verify", async ({ body, set }) => issue(set, await verifySignUpCode(rt, body)), {
      ...pub("verifySignUpCode", {
        summary: "Verify the sign-up code",
        description:
          "Checks the code sent by `signUp` and signs in: an `AuthResult` with an access token, and the `lsp_session` refresh cookie. The session opens in the tenant created at sign-up; without one the token carries no tenant (tenant operations then answer 403 `NO_TENANT`).",
        errors: [
          "400 `INVALID_CODE` when the code is wrong, expired, used or tried 5 times",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      body: VerifySignUpBody,
      response: { 200: AuthResult },
    })
    .post("/auth/sign-up/resend-code", ({ body }) => resendSignUpCode(rt, body.email), {
      ...pub("resendSignUpCode", {
        summary: "Resend the sign-up code",
        description:
          "Sends a new sign-up code to the e-mail (the old one stops working). An unknown e-mail gets the same answer, so existence does not leak.",
        errors: [
          "429 `RESEND_TOO_SOON` within 60 s of the last code (with `Retry-After`)",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      body: EmailBody,
      response: { 200: CodeIssued },
    })
    .post("/auth/password-reset/request-code", ({ body }) => requestPasswordResetCode(rt, body.email), {
      ...pub("requestPasswordResetCode", {
        summary: "Request a password-reset code",
        description: "Sends a 6-character code for `confirmPasswordReset` to the e-mail. An unknown e-mail gets the same answer.",
        errors: [
          "429 `RESEND_TOO_SOON` within 60 s of the last code (with `Retry-After`)",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      body: EmailBody,
      response: { 200: CodeIssued },
    })
    .post("/auth/password-reset/confirm", ({ body }) => confirmPasswordReset(rt, body), {
      ...pub("confirmPasswordReset", {
        summary: "Reset a password with a code",
        description:
          "Sets the new password on the platform account and on every tenant member with that e-mail; `updatedAccounts` counts them.",
        errors: [
          "400 `INVALID_CODE` when the code is wrong, expired or used",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      body: ConfirmResetBody,
      response: { 200: t.Object({ updatedAccounts: Int() }) },
    })
    .post("/auth/sign-in/request-code", ({ body }) => requestSignInCode(rt, body.email), {
      ...pub("requestSignInCode", {
        summary: "Request a sign-in code",
        description:
          "Sends a 6-character sign-in code to the e-mail, before a tenant is chosen (then `checkSignInCode`, `signInWithCode`). An unknown e-mail gets the same answer.",
        errors: [
          "429 `RESEND_TOO_SOON` within 60 s of the last code (with `Retry-After`)",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      body: EmailBody,
      response: { 200: CodeIssued },
    })
    .post("/auth/sign-in/check-code", ({ body }) => checkSignInCode(rt, body), {
      ...pub("checkSignInCode", {
        summary: "Check a sign-in code and list its tenants",
        description:
          "Checks the code without using it up and lists the tenants the e-mail belongs to, so the client can offer a choice before `signInWithCode`.",
        errors: [
          "400 `INVALID_CODE` when the code is wrong, expired or used",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      body: EmailCodeBody,
      response: { 200: CodeTenantsResult },
    })
    .post("/auth/sign-in/code", async ({ body, set }) => issue(set, await signInWithCode(rt, body)), {
      ...pub("signInWithCode", {
        summary: "Sign in to a tenant with a code",
        description:
          "Uses up the e-mail's sign-in code (from `requestSignInCode` or `requestTenantCode`) and opens a session in `tenantKey`: an `AuthResult` and the `lsp_session` refresh cookie.",
        errors: [
          "400 `INVALID_CODE` when the code is wrong, expired or used",
          "401 `INVALID_CREDENTIALS` when the e-mail is no active member of the tenant",
          "403 `SSO_ONLY` when the tenant allows only single sign-on",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
      body: SignInWithCodeBody,
      response: { 200: AuthResult },
    })
    .post("/auth/sign-in/password", async ({ body, set }) => issue(set, await signInWithPassword(rt, body)), {
      ...pub("signInWithPassword", {
        summary: "Sign in with an identifier and password",
        description:
          "Checks the member's password in the tenant and opens a session: an `AuthResult` and the `lsp_session` refresh cookie. `identifier` is the login id or the e-mail, as the tenant's `loginIdentifier` says. Without `tenantKey` the identifier is taken as an e-mail and the session opens in the account's own tenant, else in its only one.",
        errors: [
          "400 `TENANT_REQUIRED` when no `tenantKey` is sent and the e-mail has several tenants",
          "401 `INVALID_CREDENTIALS` for a wrong identifier or password, or an inactive member",
          "403 `SSO_ONLY` when the tenant allows only single sign-on",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
          "503 `SERVER_BUSY` when the password-hashing queue is full (retry after `Retry-After`)",
          "429 `RATE_LIMITED` while the member is locked out after five wrong passwords (with `Retry-After`)",
        ],
      }),
      body: SignInWithPasswordBody,
      response: { 200: AuthResult },
    })
    .put("/auth/session/type", ({ actor, body, set }) => issue(set, setSessionType(rt, actor, body.sessionType)), {
      ...route("setSessionType", AUTH, "session", {
        summary: "Set the session type",
        description:
          "Marks the current session personal or public (`confirmed: true`) and recomputes its `absoluteExpiresAt` from now: 30 days for personal, the tenant's `publicAbsoluteTimeoutMinutes` for public. Rotates the `lsp_session` cookie and sends it with the new type's lifetime.",
      }),
      body: SetSessionTypeBody,
      response: { 200: SessionTypeResult },
    })
    .post("/auth/session/refresh", async ({ request, set }) => issue(set, await refreshSession(rt, refreshTokenOf(request))), {
      ...route("refreshSession", AUTH, "public", {
        summary: "Refresh the access token",
        description:
          "Reads only the HttpOnly `lsp_session` cookie (no Authorization header), rotates it, and answers a new access token with the session's user.",
        errors: ["401 `SESSION_EXPIRED` when the cookie is missing, expired or of a revoked session"],
      }),
      response: { 200: SessionRefresh },
    })
    .post(
      "/auth/session/sign-out",
      ({ request, set }) => {
        signOut(rt, refreshTokenOf(request));
        set.headers["set-cookie"] = clearedCookie(rt);
        set.status = 204;
      },
      {
        ...route("signOut", AUTH, "public", {
          summary: "Sign out",
          description:
            "Revokes the session of the `lsp_session` cookie and clears the cookie; access tokens of that session stop working at once. Answers 204 also without a valid cookie.",
        }),
        response: { 204: t.Void() },
      },
    )
    .post("/public/tenants/:tenantKey/auth/request-code", ({ params, body }) => requestTenantCode(rt, params.tenantKey, body.email), {
      ...pub("requestTenantCode", {
        summary: "Request a code for one tenant",
        description:
          "Sends a 6-character code for this tenant to the e-mail, used by `joinTenant`, `joinTenantWithJoinCode` or `signInWithCode`. An unknown e-mail gets the same answer.",
        errors: [
          "404 `NOT_FOUND` for an unknown tenant",
          "429 `RESEND_TOO_SOON` within 60 s of the last code (with `Retry-After`)",
          "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
        ],
      }),
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
      {
        ...pub("joinTenant", {
          summary: "Join a tenant by self sign-up",
          description:
            "Creates a member with the `member` role from an e-mail proved by `requestTenantCode`'s code, and signs in (`AuthResult` and the refresh cookie). Works only while the tenant's login page allows self sign-up.",
          errors: [
            "400 `INVALID_CODE` when the code is wrong, expired or used",
            "403 `FORBIDDEN` while self sign-up is off",
            "403 `SSO_ONLY` when the tenant allows only single sign-on",
            "404 `NOT_FOUND` for an unknown tenant",
            "409 `ALREADY_EXISTS` when the e-mail or `userId` is already a member",
            "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
          ],
        }),
        params: TenantKeyParams,
        body: JoinTenantBody,
        response: { 201: AuthResult },
      },
    )
    .post(
      "/public/tenants/:tenantKey/auth/join-with-code",
      async ({ params, body, set }) => {
        const issued = await joinTenant(rt, params.tenantKey, body);
        set.status = 201;
        return issue(set, issued);
      },
      {
        ...pub("joinTenantWithJoinCode", {
          summary: "Join a tenant with a join code",
          description:
            "Like `joinTenant`, admitted by a tenant join code (the `link` of `createTenantJoinCode`) even while self sign-up is off: creates a `member` and signs in.",
          errors: [
            "400 `INVALID_CODE` when the e-mail code is wrong, or when the join code is unknown, disabled or expired (`errors[0].field` `joinCode`)",
            "403 `SSO_ONLY` when the tenant allows only single sign-on",
            "404 `NOT_FOUND` for an unknown tenant",
            "409 `ALREADY_EXISTS` when the e-mail or `userId` is already a member",
            "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
          ],
        }),
        params: TenantKeyParams,
        body: JoinWithJoinCodeBody,
        response: { 201: AuthResult },
      },
    )
    .get("/me", ({ actor }) => getCurrentUser(rt, actor), {
      ...route("getCurrentUser", AUTH, "session", {
        summary: "Get the signed-in user",
        description:
          "The caller as a `SessionUser`: member ids, role, effective permissions (role and grants), and the client flags `mustChangePassword` and `needsAgreementConsent`.",
        errors: ["403 `NO_TENANT` when the token carries no tenant (signed up without one)"],
      }),
      response: { 200: SessionUser },
    })
    .put(
      "/me/password",
      async ({ actor, body, set }) => {
        await changeOwnPassword(rt, actor, body);
        set.status = 204;
      },
      {
        ...route("changeOwnPassword", AUTH, "session", {
          summary: "Change your own password",
          description:
            "Checks the current password and sets the new one (password rule: 8..255 characters of at least two kinds); clears `mustChangePassword`.",
          errors: [
            "400 `INVALID_CURRENT_PASSWORD` when the current password is wrong",
            "429 `RATE_LIMITED` while the member is locked out after wrong passwords (with `Retry-After`)",
          ],
        }),
        body: ChangePasswordBody,
        response: { 204: t.Void() },
      },
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
          ...pub("startExternalSignIn", {
            summary: "Start an external sign-in",
            description:
              "Begins an OpenID Connect (or SAML) sign-in with the provider and answers the `url` the browser goes to; sets a short-lived cookie binding the state to this browser. The provider returns to `completeExternalSignIn`. A social provider may start without `tenantKey`.",
            errors: [
              "400 `VALIDATION_FAILED` when `returnTo` is not a relative path",
              "404 `NOT_FOUND` for an unknown or unavailable provider",
              "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
              "503 `PROVIDER_UNAVAILABLE` when the provider cannot be reached",
            ],
          }).detail,
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
        ...pub("completeExternalSignIn", {
          summary: "Finish an external sign-in",
          description:
            "The provider's return leg: exchanges `code`, checks the ID token, finds the member by the provider link or verified e-mail, sets the refresh cookie and redirects (302) to `returnTo`. Any refusal after a valid state redirects to `returnTo` with `error=` `SSO_FAILED`, `SSO_DISABLED`, `NOT_A_MEMBER`, `MEMBER_INACTIVE` or `SSO_ONLY` and no cookie.",
          errors: [
            "400 `VALIDATION_FAILED` naming `state` when it is missing, unknown, expired or used (no redirect)",
            "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
          ],
        }),
        params: ProviderParams,
        query: CompleteExternalQuery,
        response: {
          302: t.Void({ description: "Redirect to returnTo (with error=CODE on refusal); sets the refresh cookie on success" }),
        },
      },
    )
    .get("/me/profile-id", ({ actor }) => ({ profileId: actor.profileId }), {
      ...route("getMyProfileId", AUTH, "session", {
        summary: "Get your profile id",
        description: "The caller's main learning-profile id in this tenant, the id that submissions, attempts and responses carry.",
      }),
      response: { 200: t.Object({ profileId: t.String() }) },
    })
    .get("/me/profiles", ({ actor }) => listMyProfiles(actor), {
      ...route("listMyProfiles", AUTH, "session", {
        summary: "List your profiles",
        description: "The caller's learning profiles in this tenant; `isMain` marks the one `getMyProfileId` returns.",
      }),
      response: { 200: t.Object({ profiles: t.Array(Profile) }) },
    })
    .post(
      "/public/tenants/:tenantKey/auth/identifier-lookup",
      ({ params, body }) => lookupLoginIdentifier(rt, params.tenantKey, body.identifier),
      {
        ...pub("lookupLoginIdentifier", {
          summary: "Look up a login identifier",
          description:
            "Says whether the identifier (login id or e-mail, per the tenant's `loginIdentifier`) can sign in to the tenant and with which methods, and whether self sign-up is open. POST keeps the identifier out of URLs and logs.",
          errors: [
            "404 `NOT_FOUND` for an unknown tenant",
            "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
          ],
        }),
        params: TenantKeyParams,
        body: IdentifierBody,
        response: { 200: IdentifierLookupResult },
      },
    );
}
