import type { Static } from "elysia";
import { tenantByKey } from "../../platform/db/registry";
import type { Db } from "../../platform/db/types";
import { ANONYMOUS_READER } from "../../platform/files/tokens";
import { notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { fileDownloadUrl, readyFilesByIds } from "../files/attachments";
import { socialOffered } from "../sso/oidc-providers";
import { loginProviders } from "../sso/service";
import { tenantDisplayName } from "../tenant/settings";
import type { LoginPageSettingsRecord, PublicLoginPage } from "./model";
import { getLoginPageSettings, LOGIN_PAGE_RECORD } from "./service";

/**
 * The login page's images as shown: an image with a ready file shows the file (a 1-hour download
 * URL anyone may use), else its configured URL.
 */
function pageImages(rt: Runtime, tenantId: string, db: Db, page: LoginPageSettingsRecord) {
  const ready = readyFilesByIds(
    db,
    [page.logoImageFileId, page.backgroundImageFileId].filter((id) => id !== null),
  );
  const image = (fileId: string | null, url: string | null) =>
    fileId && ready.has(fileId)
      ? fileDownloadUrl(rt, { tenantId, fileId, readerId: ANONYMOUS_READER, attachedTo: `login-page:${LOGIN_PAGE_RECORD}` })
      : url;
  return {
    logoImageUrl: image(page.logoImageFileId, page.logoImageUrl),
    backgroundImageUrl: image(page.backgroundImageFileId, page.backgroundImageUrl),
  };
}

/** The tenant's logo (TenantInfo, AuthTenant): the login page's logo as the page shows it. */
export function tenantLogoUrl(rt: Runtime, tenantId: string, db: Db): string | null {
  return pageImages(rt, tenantId, db, getLoginPageSettings(db)).logoImageUrl;
}

/**
 * The hosted login page's data for a tenant key; an unknown key is 404.
 */
export function getPublicLoginPage(rt: Runtime, tenantKey: string): Static<typeof PublicLoginPage> {
  const tenant = tenantByKey(rt.platform.db, tenantKey);
  if (!tenant) throw notFound();
  return rt.tenants.use(tenant.id, (h) => {
    const name = tenantDisplayName(h.db);
    const page = getLoginPageSettings(h.db);
    const available = loginProviders(rt, h.db, tenant.key).filter((p) => p.available);
    const images = pageImages(rt, tenant.id, h.db, page);
    return {
      name: name ?? tenant.name,
      logoImageUrl: images.logoImageUrl,
      titleKo: page.titleKo,
      titleEn: page.titleEn,
      backgroundImageUrl: images.backgroundImageUrl,
      backgroundTitleEnabled: page.backgroundTitleEnabled,
      backgroundTitleKo: page.backgroundTitleKo,
      backgroundTitleEn: page.backgroundTitleEn,
      backgroundTitleColor: page.backgroundTitleColor,
      loginIdentifier: "userId",
      allowUserSelfSignUp: page.allowUserSelfSignUp,
      // A social method shows only while it can be used (DECISIONS §10): configured by the operator, ALL methods allowed.
      methods: { ...page.methods, social_a: socialOffered(rt, h.db, "social_a"), social_b: socialOffered(rt, h.db, "social_b") },
      buttonLabels: page.buttonLabels,
      ssoEnabled: available.some((p) => p.kind === "saml"),
      ssoProviders: available,
      externalFeed: page.externalFeed,
    };
  });
}
