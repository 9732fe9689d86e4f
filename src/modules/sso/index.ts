import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { takeFormBodiesOf } from "../../platform/http/body";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { apiModule, type RouteDoc, route } from "../../platform/http/route";
import { Enum } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { TenantKeyParams } from "../login-page/model";
import { SsoSettings, UpdateSsoBody } from "./model";
import { consumeSamlAssertion, samlMetadata, startSamlSignIn } from "./saml";
import { getSsoSettings, updateSsoSettings } from "./service";

export {
  type AllowedLoginMethods,
  assertPasswordOrCodeSignInAllowed,
  availableProvider,
  type LoginProvider,
  loginPolicy,
  loginProviders,
} from "./service";

const MANAGE = "permission:tenant-settings:manage" as const;

/** The SAML ACS is the one form endpoint (docs/rules/trust.md#json-bodies-only): the IdP's page posts it. */
const ACS_URL = /^[a-z]+:\/\/[^/]+\/api\/v1\/public\/tenants\/[^/?#]+\/saml\/acs\/?(?:[?#]|$)/;

export function ssoModule(rt: Runtime) {
  takeFormBodiesOf("POST", ACS_URL);
  return apiModule("module.sso")
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .get("/sso-settings", ({ actor }) => getSsoSettings(rt, actor.db, actor.tenantKey), {
      ...route("getSsoSettings", "sso", MANAGE, {
        summary: "Get the single sign-on settings",
        description:
          "The SAML IdP settings, the read-only `spAcsUrl` and `spEntityId` to give the IdP, partner OpenID Connect providers (never their client secret) and the provider list.",
      }),
      response: { 200: SsoSettings },
    })
    .patch("/sso-settings", ({ actor, body }) => updateSsoSettings(rt, actor.db, actor.tenantKey, body), {
      ...route("updateSsoSettings", "sso", MANAGE, {
        summary: "Update the single sign-on settings",
        description:
          "Changes the SAML IdP settings, `allowedLoginMethods` and member provisioning; `attributeMappings` and `partnerProviders` replace their whole array when present. The IdP must release the member's e-mail as the NameID (format emailAddress) or in an attribute mapped to `email`. Partner providers speak OpenID Connect (`oidc`); `clientSecret` is write-only and kept when omitted. Serve LEARNSPACE_PUBLIC_URL over https: see docs/sso.md.",
        errors: [
          "400 `VALIDATION_FAILED` for a certificate that does not parse, a mapping to `userId`, a reserved or repeated partner key, or an issuer URL that is not https (or not allowed)",
        ],
      }),
      body: UpdateSsoBody,
      response: { 200: SsoSettings },
    })
    .get(
      "/public/tenants/:tenantKey/saml/metadata",
      ({ params }) =>
        new Response(samlMetadata(rt, params.tenantKey), { headers: { "content-type": "application/samlmetadata+xml; charset=utf-8" } }),
      {
        // A read, counted apart from sign-in attempts so that page loads never use up their budget.
        ...saml(
          "getSamlMetadata",
          {
            summary: "Get the SAML service-provider metadata",
            description:
              "The SP metadata XML (`application/samlmetadata+xml`) to give the IdP: entityID = `spEntityId`, the ACS (HTTP-POST) = `spAcsUrl`. Served while SSO is disabled too.",
            errors: [
              "404 `NOT_FOUND` for an unknown tenant",
              "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
            ],
          },
          { "x-response-media": "application/samlmetadata+xml" },
          "auth-page",
        ),
        params: TenantKeyParams,
        response: { 200: t.String({ description: "SAML 2.0 SP metadata (XML)" }) },
      },
    )
    .get(
      "/public/tenants/:tenantKey/saml/login",
      ({ params, query }) => {
        const started = startSamlSignIn(rt, params.tenantKey, query);
        return new Response(null, { status: 302, headers: { location: started.location, "set-cookie": started.cookie } });
      },
      {
        ...saml("startSamlSignIn", {
          summary: "Start a SAML sign-in",
          description:
            "The target of the SAML provider's `loginUrl`: saves a one-use state (10 min) and redirects (302) to the IdP with a SAMLRequest and RelayState (HTTP-Redirect binding), setting a short-lived cookie that binds the state to this browser.",
          errors: [
            "400 `VALIDATION_FAILED` when `returnTo` is not a relative path",
            "404 `NOT_FOUND` for an unknown tenant, or while SSO is disabled or the IdP is not configured",
            "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
          ],
        }),
        params: TenantKeyParams,
        query: t.Object({
          returnTo: t.Optional(t.String({ maxLength: 2000, error: "must be a relative path of at most 2000 characters" })),
          sessionType: t.Optional(Enum(["personal", "public"])),
        }),
        response: {
          302: t.Void({
            description:
              "Redirect to the IdP with SAMLRequest and RelayState; sets the short-lived cookie binding the RelayState to this browser",
          }),
        },
      },
    )
    .post(
      "/public/tenants/:tenantKey/saml/acs",
      async ({ params, body, request }) => {
        const done = await consumeSamlAssertion(rt, params.tenantKey, body, request);
        const headers = new Headers({ location: done.location });
        for (const cookie of done.cookies) headers.append("set-cookie", cookie);
        return new Response(null, { status: 303, headers });
      },
      {
        ...saml(
          "consumeSamlAssertion",
          {
            summary: "Receive a SAML assertion (ACS)",
            description:
              "The IdP posts its signed response here (form `SAMLResponse`, `RelayState`). After the signature, issuer, audience, destination, InResponseTo, time and replay checks, the member whose e-mail is the NameID is signed in: the refresh cookie is set and the browser redirected (303) to `returnTo`. A refusal after a valid RelayState redirects to `returnTo` with `error=` `SSO_FAILED`, `SSO_DISABLED`, `NOT_A_MEMBER` or `MEMBER_INACTIVE` and no cookie.",
            errors: [
              "400 `VALIDATION_FAILED` naming `RelayState` when it is missing, unknown, expired or used (no redirect)",
              "404 `NOT_FOUND` for an unknown tenant",
              "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
            ],
          },
          { "x-body-media": "application/x-www-form-urlencoded" },
        ),
        params: TenantKeyParams,
        body: t.Object({
          SAMLResponse: t.String({ minLength: 1, maxLength: 4 * 1024 * 1024 }),
          RelayState: t.String({ minLength: 1, maxLength: 200 }),
        }),
        response: { 303: t.Void({ description: "Redirect to returnTo (with error=CODE on refusal); sets the refresh cookie" }) },
      },
    );
}

/**
 * Public SAML routes (catalog area `auth`), with extra OpenAPI detail for their media types; they
 * count against the per-IP limit of the public auth operations (docs/rules/sign-in.md#rate-limits).
 */
function saml(operationId: string, doc: RouteDoc, extra: Record<string, string> = {}, bucket = "auth") {
  const r = route(operationId, "auth", "public", doc);
  return { ...r, detail: { ...r.detail, ...extra }, ipRateLimit: bucket };
}
