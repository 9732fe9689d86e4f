import type { TenantHandle } from "../../platform/db/tenant-store";
import type { Runtime } from "../../platform/runtime";
import { loginProviders, readSso } from "../sso/service";

/**
 * Reads of settings that the sso module owns, kept behind these functions so that the sign-in code
 * does not depend on their storage.
 */
export type LoginMethods = "ALL" | "SSO_ONLY";

/** The tenant's `allowedLoginMethods` (SSO settings; ALL when never saved). */
export function allowedLoginMethods(h: TenantHandle): LoginMethods {
  return readSso(h.db).allowedLoginMethods;
}

export type ExternalProvider = { key: string; url(input: { sessionType?: string; returnTo: string }): string };

/**
 * The SAML provider startExternalSignIn may start: the tenant's IdP while available (its `loginUrl`,
 * startSamlSignIn). Social and partner providers speak OpenID Connect (sso/oidc.ts).
 */
export function externalProviders(rt: Runtime, tenant: { id: string; key: string } | null): ExternalProvider[] {
  if (!tenant) return [];
  const providers = rt.tenants.use(tenant.id, (h) => loginProviders(rt, h.db, tenant.key));
  return providers
    .filter((p) => p.kind === "saml" && p.available && p.loginUrl)
    .map((p) => ({
      key: p.key,
      url: ({ sessionType, returnTo }) => {
        const url = new URL(p.loginUrl as string);
        url.searchParams.set("returnTo", returnTo);
        if (sessionType) url.searchParams.set("sessionType", sessionType);
        return url.toString();
      },
    }));
}
