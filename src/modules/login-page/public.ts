import type { Static } from "elysia";
import { tenantByKey } from "../../platform/db/registry";
import { notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { loginProviders } from "../sso/service";
import { tenantSettings } from "../tenant/tables";
import type { PublicLoginPage } from "./model";
import { getLoginPageSettings } from "./service";

/** The hosted login page's data for a tenant key; an unknown key is 404. */
export function getPublicLoginPage(rt: Runtime, tenantKey: string): Static<typeof PublicLoginPage> {
  const tenant = tenantByKey(rt.platform.db, tenantKey);
  if (!tenant) throw notFound();
  return rt.tenants.use(tenant.id, (h) => {
    const settings = h.db
      .select({ name: tenantSettings.name, allowUserSelfSignUp: tenantSettings.allowUserSelfSignUp })
      .from(tenantSettings)
      .get();
    const page = getLoginPageSettings(h.db);
    const available = loginProviders(rt, h.db, tenant.key).filter((p) => p.available);
    return {
      name: settings?.name ?? tenant.name,
      logoImageUrl: page.logoImageUrl,
      titleKo: page.titleKo,
      titleEn: page.titleEn,
      backgroundImageUrl: page.backgroundImageUrl,
      backgroundTitleEnabled: page.backgroundTitleEnabled,
      backgroundTitleKo: page.backgroundTitleKo,
      backgroundTitleEn: page.backgroundTitleEn,
      backgroundTitleColor: page.backgroundTitleColor,
      loginIdentifier: "userId",
      allowUserSelfSignUp: settings?.allowUserSelfSignUp ?? false,
      methods: page.methods,
      buttonLabels: page.buttonLabels,
      ssoEnabled: available.some((p) => p.kind === "saml"),
      ssoProviders: available,
      externalFeed: page.externalFeed,
    };
  });
}
