import type { Static } from "elysia";
import { tenantByKey } from "../../platform/db/registry";
import { ANONYMOUS_READER } from "../../platform/files/tokens";
import { notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { fileDownloadUrl, readyFilesByIds } from "../files/attachments";
import { socialOffered } from "../sso/oidc-providers";
import { loginProviders } from "../sso/service";
import { tenantSettings } from "../tenant/tables";
import type { PublicLoginPage } from "./model";
import { getLoginPageSettings, LOGIN_PAGE_RECORD } from "./service";

/**
 * The hosted login page's data for a tenant key; an unknown key is 404. An image with a ready file
 * shows the file (a 1-hour download URL anyone may use), else its configured URL.
 */
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
    const ready = readyFilesByIds(
      h.db,
      [page.logoImageFileId, page.backgroundImageFileId].filter((id) => id !== null),
    );
    const image = (fileId: string | null, url: string | null) =>
      fileId && ready.has(fileId)
        ? fileDownloadUrl(rt, { tenantId: tenant.id, fileId, readerId: ANONYMOUS_READER, attachedTo: `login-page:${LOGIN_PAGE_RECORD}` })
        : url;
    return {
      name: settings?.name ?? tenant.name,
      logoImageUrl: image(page.logoImageFileId, page.logoImageUrl),
      titleKo: page.titleKo,
      titleEn: page.titleEn,
      backgroundImageUrl: image(page.backgroundImageFileId, page.backgroundImageUrl),
      backgroundTitleEnabled: page.backgroundTitleEnabled,
      backgroundTitleKo: page.backgroundTitleKo,
      backgroundTitleEn: page.backgroundTitleEn,
      backgroundTitleColor: page.backgroundTitleColor,
      loginIdentifier: "userId",
      allowUserSelfSignUp: settings?.allowUserSelfSignUp ?? false,
      // A social method shows only while it can be used (DECISIONS §10): configured by the operator, ALL methods allowed.
      methods: { ...page.methods, social_a: socialOffered(rt, h.db, "social_a"), social_b: socialOffered(rt, h.db, "social_b") },
      buttonLabels: page.buttonLabels,
      ssoEnabled: available.some((p) => p.kind === "saml"),
      ssoProviders: available,
      externalFeed: page.externalFeed,
    };
  });
}
