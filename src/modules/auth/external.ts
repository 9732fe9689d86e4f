import { notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { completeOidcSignIn, startOidcSignIn } from "../sso/oidc";
import { readSettings } from "../tenant/service";
import { memberByIdentifier, tenantOfKey } from "./identity";
import { allowedLoginMethods, externalProviders } from "./providers";

/**
 * startExternalSignIn: the URL of an available provider (and, for OpenID Connect, the cookie binding
 * its state to this browser); an unknown or unavailable one is 404. The SAML IdP's URL is its
 * startSamlSignIn link, which sets its own binding.
 */
export async function startExternalSignIn(
  rt: Runtime,
  provider: string,
  input: { tenantKey?: string; sessionType?: "personal" | "public"; returnTo?: string },
): Promise<{ url: string; cookie: string | null }> {
  if (provider !== "saml") return startOidcSignIn(rt, provider, input);
  const tenant = input.tenantKey ? tenantOfKey(rt, input.tenantKey) : null;
  if (input.tenantKey && !tenant) throw notFound();
  const found = externalProviders(rt, tenant).find((p) => p.key === provider);
  if (!found) throw notFound("No such sign-in provider is available.");
  return { url: found.url({ sessionType: input.sessionType, returnTo: input.returnTo ?? "/" }), cookie: null };
}

/** lookupLoginIdentifier: whether the identifier names an active member, and how it may sign in. */
export function lookupLoginIdentifier(rt: Runtime, tenantKey: string, identifier: string) {
  const tenant = tenantOfKey(rt, tenantKey);
  if (!tenant) throw notFound();
  return rt.tenants.use(tenant.id, (h) => {
    const m = memberByIdentifier(h.db, identifier);
    const exists = !!m?.isActive;
    const password = exists && !!m?.passwordHash && allowedLoginMethods(h) === "ALL";
    return { exists, methods: password ? ["password"] : [], allowUserSelfSignUp: readSettings(h.db).allowUserSelfSignUp };
  });
}

/** completeExternalSignIn: the return leg of an OpenID Connect startExternalSignIn (docs/rules/sign-in.md#openid-connect). */
export const completeExternalSignIn = completeOidcSignIn;
