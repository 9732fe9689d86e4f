import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { markFormBody } from "../../platform/http/body";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { route } from "../../platform/http/route";
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
const ACS_PATH = /^\/api\/v1\/public\/tenants\/[^/]+\/saml\/acs\/?$/;

export function ssoModule(rt: Runtime) {
  return new Elysia({ name: "module.sso" })
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .onRequest(({ request }) => {
      if (request.method === "POST" && ACS_PATH.test(new URL(request.url).pathname)) markFormBody(request);
    })
    .get("/sso-settings", ({ actor }) => getSsoSettings(rt, actor.db, actor.tenantKey), {
      ...route("getSsoSettings", "sso", MANAGE),
      response: { 200: SsoSettings },
    })
    .patch("/sso-settings", ({ actor, body }) => updateSsoSettings(rt, actor.db, actor.tenantKey, body), {
      ...route("updateSsoSettings", "sso", MANAGE),
      detail: {
        ...route("updateSsoSettings", "sso", MANAGE).detail,
        description:
          "The IdP must release the member's e-mail as the NameID (format emailAddress, as the SP metadata says) or in an attribute mapped to `email`. A mapping to `userId` is refused. Partner providers speak OpenID Connect (`oidc`); `clientSecret` is write-only. Serve LEARNSPACE_PUBLIC_URL over https: see docs/sso.md.",
      },
      body: UpdateSsoBody,
      response: { 200: SsoSettings },
    })
    .get(
      "/public/tenants/:tenantKey/saml/metadata",
      ({ params }) =>
        new Response(samlMetadata(rt, params.tenantKey), { headers: { "content-type": "application/samlmetadata+xml; charset=utf-8" } }),
      {
        // A read, counted apart from sign-in attempts so that page loads never use up their budget.
        ...saml("getSamlMetadata", { "x-response-media": "application/samlmetadata+xml" }, "auth-page"),
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
        ...saml("startSamlSignIn"),
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
        ...saml("consumeSamlAssertion", { "x-body-media": "application/x-www-form-urlencoded" }),
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
 * count against the per-IP limit of the public auth operations (DECISIONS §0).
 */
function saml(operationId: string, extra: Record<string, string> = {}, bucket = "auth") {
  const r = route(operationId, "auth", "public");
  return { ...r, detail: { ...r.detail, ...extra }, ipRateLimit: bucket };
}
