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

/** Where a login-page image comes from: a ready file, else its configured URL. */
export type ImageSource = { fileId: string | null; url: string | null };

/** The login page's logo and background sources; a file counts only once its upload is ready. */
function pageImageSources(db: Db, page: LoginPageSettingsRecord) {
  const ready = readyFilesByIds(
    db,
    [page.logoImageFileId, page.backgroundImageFileId].filter((id) => id !== null),
  );
  const source = (fileId: string | null, url: string | null): ImageSource => ({ fileId: fileId && ready.has(fileId) ? fileId : null, url });
  return { logo: source(page.logoImageFileId, page.logoImageUrl), background: source(page.backgroundImageFileId, page.backgroundImageUrl) };
}

/** An image as shown: a ready file as a 1-hour download URL anyone may use, else its configured URL. */
export function imageUrl(rt: Runtime, tenantId: string, src: ImageSource): string | null {
  return src.fileId
    ? fileDownloadUrl(rt, { tenantId, fileId: src.fileId, readerId: ANONYMOUS_READER, attachedTo: `login-page:${LOGIN_PAGE_RECORD}` })
    : src.url;
}

function pageImages(rt: Runtime, tenantId: string, db: Db, page: LoginPageSettingsRecord) {
  const { logo, background } = pageImageSources(db, page);
  return { logoImageUrl: imageUrl(rt, tenantId, logo), backgroundImageUrl: imageUrl(rt, tenantId, background) };
}

/** The tenant's logo source (TenantInfo, AuthTenant show it as the login page does). */
export function tenantLogoSource(db: Db): ImageSource {
  return pageImageSources(db, getLoginPageSettings(db)).logo;
}

/** The tenant's logo (TenantInfo, AuthTenant): the login page's logo as the page shows it. */
export function tenantLogoUrl(rt: Runtime, tenantId: string, db: Db): string | null {
  return imageUrl(rt, tenantId, tenantLogoSource(db));
}

/** The public page's data from an open tenant file (the settings passed in, read once by the caller). */
function publicPage(rt: Runtime, tenant: { id: string; key: string; name: string }, db: Db, page: LoginPageSettingsRecord) {
  const name = tenantDisplayName(db);
  const available = loginProviders(rt, db, tenant.key).filter((p) => p.available);
  const images = pageImages(rt, tenant.id, db, page);
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
    // A social method shows only while it can be used (docs/rules/sign-in.md#login-providers): configured by the operator, ALL methods allowed.
    methods: { ...page.methods, social_a: socialOffered(rt, db, "social_a"), social_b: socialOffered(rt, db, "social_b") },
    buttonLabels: page.buttonLabels,
    ssoEnabled: available.some((p) => p.kind === "saml"),
    ssoProviders: available,
    externalFeed: page.externalFeed,
  };
}

/**
 * The hosted login page's data for a tenant key; an unknown key is 404.
 */
export function getPublicLoginPage(rt: Runtime, tenantKey: string): Static<typeof PublicLoginPage> {
  const tenant = tenantByKey(rt.platform.db, tenantKey);
  if (!tenant) throw notFound();
  return rt.tenants.use(tenant.id, (h) => publicPage(rt, tenant, h.db, getLoginPageSettings(h.db)));
}

export type HostedLoginPage = Static<typeof PublicLoginPage> & { externalLinks: LoginPageSettingsRecord["externalLinks"] };

/** The hosted pages' data: the public page plus the external links while they are switched on (PublicLoginPage has none). */
export function getHostedLoginPage(rt: Runtime, tenantKey: string): HostedLoginPage {
  const tenant = tenantByKey(rt.platform.db, tenantKey);
  if (!tenant) throw notFound();
  return rt.tenants.use(tenant.id, (h) => {
    const page = getLoginPageSettings(h.db);
    return { ...publicPage(rt, tenant, h.db, page), externalLinks: page.externalLinksEnabled ? page.externalLinks : [] };
  });
}
