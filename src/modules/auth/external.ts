import { invalid, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { readSettings } from "../tenant/service";
import { memberByIdentifier, tenantOfKey } from "./identity";
import { allowedLoginMethods, externalProviders } from "./providers";

/** startExternalSignIn: the URL of an available provider; an unknown or unavailable one is 404. */
export function startExternalSignIn(
  rt: Runtime,
  provider: string,
  input: { tenantKey?: string; sessionType?: "personal" | "public"; returnTo?: string },
) {
  const tenant = input.tenantKey ? tenantOfKey(rt, input.tenantKey) : null;
  if (input.tenantKey && !tenant) throw notFound();
  const found = externalProviders(rt, tenant).find((p) => p.key === provider);
  if (!found) throw notFound("No such sign-in provider is available.");
  return { url: found.url({ sessionType: input.sessionType, returnTo: input.returnTo ?? "/" }) };
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

/**
 * completeExternalSignIn: the return leg of startExternalSignIn. The only startable provider is the
 * tenant's SAML IdP, whose answer goes to the ACS instead; no partner or social provider has an
 * authorization endpoint configured, so no external state is ever issued and every `state` that
 * arrives here is unknown: 400 naming it, with no redirect (DECISIONS §9.1 Browser redirects).
 */
export function completeExternalSignIn(query: { state?: string; code?: string }): never {
  if (!query.state) throw invalid("state", "is required", "query");
  throw invalid("state", "is unknown, expired or already used", "query");
}
