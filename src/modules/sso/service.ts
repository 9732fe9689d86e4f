import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import { nodeCrypto, seal } from "../../platform/crypto";
import { type Db, write } from "../../platform/db/types";
import { forbidden, invalid } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { fieldsOf } from "../fields/lookup";
import type { ProviderItem } from "../login-page/model";
import { getLoginPageSettings } from "../login-page/service";
import type { SsoSettings, UpdateSsoBody } from "./model";
import { issuerProblem } from "./oidc-client";
import { type PartnerProvider, ssoSettings } from "./tables";

export type SsoRow = typeof ssoSettings.$inferSelect;
export type LoginProvider = Static<typeof ProviderItem>;
export type AllowedLoginMethods = SsoRow["allowedLoginMethods"];

/** Provider keys that name the built-in methods (docs/rules/sign-in.md#login-providers). */
const RESERVED_KEYS = new Set(["saml", "social_a", "social_b", "partner"]);
/** Member columns an attribute may be mapped to besides custom fields, with their labels. */
const COLUMN_LABELS: Record<string, string> = {
  email: "E-mail",
  displayName: "Display name",
  userId: "User ID",
  affiliation: "Affiliation",
  externalMemberCode: "External member code",
  bio: "Bio",
};
const columnLabel = (fieldId: string) => (Object.hasOwn(COLUMN_LABELS, fieldId) ? COLUMN_LABELS[fieldId] : undefined);

const DEFAULTS: SsoRow = {
  id: 1,
  enabled: false,
  allowedLoginMethods: "ALL",
  idpSsoUrl: null,
  idpEntityUrl: null,
  x509Cert: null,
  provisionMembers: false,
  attributeMappings: [],
  partnerProviders: [],
  updatedAt: 0,
};

export function readSso(db: Db): SsoRow {
  return db.select().from(ssoSettings).where(eq(ssoSettings.id, 1)).get() ?? DEFAULTS;
}

export const isIdpConfigured = (row: SsoRow) => Boolean(row.idpSsoUrl && row.idpEntityUrl && row.x509Cert);

/** SP endpoints on LEARNSPACE_PUBLIC_URL (docs/rules/sign-in.md#saml-settings). */
export function spUrls(rt: Runtime, tenantKey: string) {
  const base = `${rt.schoolUrl({ key: tenantKey })}/api/v1/public/tenants/${encodeURIComponent(tenantKey)}/saml`;
  return { spAcsUrl: `${base}/acs`, spEntityId: `${base}/metadata`, loginUrl: `${base}/login` };
}

/**
 * The sign-in providers of a tenant (docs/rules/sign-in.md#login-providers): the SAML IdP first, then each partner
 * provider in order; `available` says whether it can be used now.
 */
export function loginProviders(rt: Runtime, db: Db, tenantKey: string, row = readSso(db)): LoginProvider[] {
  const page = getLoginPageSettings(db);
  const samlAvailable = row.enabled && isIdpConfigured(row);
  return [
    {
      key: "saml",
      kind: "saml",
      labelKo: page.buttonLabels.sso.ko,
      labelEn: page.buttonLabels.sso.en,
      enabled: row.enabled,
      available: samlAvailable,
      loginUrl: samlAvailable ? spUrls(rt, tenantKey).loginUrl : null,
    },
    ...row.partnerProviders.map((p) => ({
      key: p.key,
      kind: "partner" as const,
      labelKo: p.labelKo,
      labelEn: p.labelEn,
      enabled: p.enabled,
      available: p.enabled && page.methods.partner && row.allowedLoginMethods === "ALL" && !!p.oidc,
      loginUrl: null,
    })),
  ];
}

/** What the auth module needs to decide a sign-in: the tenant's policy and its providers. */
export function loginPolicy(
  rt: Runtime,
  db: Db,
  tenantKey: string,
): { allowedLoginMethods: AllowedLoginMethods; providers: LoginProvider[] } {
  const row = readSso(db);
  return { allowedLoginMethods: row.allowedLoginMethods, providers: loginProviders(rt, db, tenantKey, row) };
}

/** Code and password sign-in: 403 SSO_ONLY while the tenant allows SSO only (docs/rules/sign-in.md#sso-only). */
export function assertPasswordOrCodeSignInAllowed(db: Db) {
  if (readSso(db).allowedLoginMethods === "SSO_ONLY") throw forbidden("SSO_ONLY", "This tenant allows single sign-on only.");
}

/** An available provider by key (a partner or `saml`), or null: unknown and unavailable are alike (404). */
export function availableProvider(rt: Runtime, db: Db, tenantKey: string, key: string): LoginProvider | null {
  return loginProviders(rt, db, tenantKey).find((p) => p.key === key && p.available) ?? null;
}

/** Each mapped field's label: a member column's, else the custom field's (its id if the field is gone). */
function mappingLabels(db: Db, row: SsoRow): Record<string, string> {
  const custom = row.attributeMappings.some((m) => !columnLabel(m.fieldId))
    ? new Map(fieldsOf(db, "member").map((f) => [f.id, f.label]))
    : new Map<string, string>();
  return Object.fromEntries(row.attributeMappings.map((m) => [m.fieldId, columnLabel(m.fieldId) ?? custom.get(m.fieldId) ?? m.fieldId]));
}

export function toSsoSettings(rt: Runtime, db: Db, tenantKey: string, row: SsoRow): Static<typeof SsoSettings> {
  const { spAcsUrl, spEntityId } = spUrls(rt, tenantKey);
  return {
    enabled: row.enabled,
    idpSsoUrl: row.idpSsoUrl,
    idpEntityUrl: row.idpEntityUrl,
    x509Cert: row.x509Cert,
    attributeMappings: row.attributeMappings,
    spAcsUrl,
    spEntityId,
    mappingLabels: mappingLabels(db, row),
    idpConfigured: isIdpConfigured(row),
    partnerProviders: row.partnerProviders.map(({ oidc, ...p }) => ({
      ...p,
      oidc: oidc ? { issuer: oidc.issuer, clientId: oidc.clientId, scopes: oidc.scopes, clientSecretSet: !!oidc.clientSecretSealed } : null,
    })),
    allowedLoginMethods: row.allowedLoginMethods,
    providers: loginProviders(rt, db, tenantKey, row),
    provisionMembers: row.provisionMembers,
  };
}

export function getSsoSettings(rt: Runtime, db: Db, tenantKey: string) {
  return toSsoSettings(rt, db, tenantKey, readSso(db));
}

const PEM = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/**
 * The IdP certificate as its one-line base64 DER body. Accepts the bare base64 body (whitespace
 * ignored) or PEM; anything that is not exactly one X.509 certificate gets 400 naming x509Cert.
 */
export function normalizeCertificate(input: string): string {
  const bad = () => invalid("x509Cert", "must be one X.509 certificate (PEM or base64 DER)");
  let body = input;
  if (input.includes("-----")) {
    const blocks = [...input.matchAll(PEM)];
    if (blocks.length !== 1 || input.replace(PEM, "").trim() !== "") throw bad();
    body = blocks[0]?.[1] ?? "";
  }
  body = body.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) throw bad();
  const der = Buffer.from(body, "base64");
  try {
    const cert = new (nodeCrypto().X509Certificate)(der);
    if (cert.raw.length !== der.length) throw bad();
  } catch {
    throw bad();
  }
  return der.toString("base64");
}

function checkUrl(field: string, value: string) {
  try {
    const u = new URL(value);
    if (u.protocol === "https:" || u.protocol === "http:") return;
  } catch {}
  throw invalid(field, "must be an absolute http(s) URL");
}

export const OIDC_SECRET_PURPOSE = "partner-oidc-client-secret";

/** A partner's OpenID Connect client as stored: absent keeps the stored one; no secret keeps the stored secret. */
function partnerOidc(
  rt: Runtime,
  input: { issuer: string; clientId: string; clientSecret?: string; scopes?: string } | null | undefined,
  previous: PartnerProvider["oidc"],
  field: string,
): PartnerProvider["oidc"] {
  if (input === undefined) return previous;
  if (input === null) return null;
  const issuerError = issuerProblem(input.issuer);
  if (issuerError) throw invalid(`${field}.issuer`, issuerError);
  const scopes = (input.scopes ?? "openid email profile").trim().split(/\s+/);
  if (!scopes.includes("openid")) throw invalid(`${field}.scopes`, "must include openid");
  const clientSecretSealed = input.clientSecret ? seal(rt.secret, OIDC_SECRET_PURPOSE, input.clientSecret) : previous?.clientSecretSealed;
  if (!clientSecretSealed) throw invalid(`${field}.clientSecret`, "is required when the provider has no stored secret");
  return { issuer: input.issuer, clientId: input.clientId, scopes: scopes.join(" "), clientSecretSealed };
}

/** PATCH: absent fields stay; a present array replaces the whole array. */
export function updateSsoSettings(rt: Runtime, db: Db, tenantKey: string, input: Static<typeof UpdateSsoBody>, now = Date.now()) {
  if (input.idpSsoUrl) checkUrl("idpSsoUrl", input.idpSsoUrl);
  const x509Cert = input.x509Cert ? normalizeCertificate(input.x509Cert) : input.x509Cert;
  const seenFields = new Set<string>();
  const customIds =
    input.attributeMappings?.some((m) => !columnLabel(m.fieldId)) === true
      ? new Set(fieldsOf(db, "member").map((f) => f.id))
      : new Set<string>();
  input.attributeMappings?.forEach((m, i) => {
    if (!columnLabel(m.fieldId) && !customIds.has(m.fieldId))
      throw invalid(`attributeMappings[${i}].fieldId`, "must be a member field id or a member column key");
    // Sign-in never changes a login identifier, so a mapping to it would silently do nothing.
    if (m.fieldId === "userId")
      throw invalid(`attributeMappings[${i}].fieldId`, "cannot be userId: sign-in never changes a member's user ID");
    if (seenFields.has(m.fieldId)) throw invalid(`attributeMappings[${i}].fieldId`, "is mapped twice");
    seenFields.add(m.fieldId);
  });
  const seenKeys = new Set<string>();
  const stored = new Map(readSso(db).partnerProviders.map((p) => [p.key, p]));
  const partnerProviders = input.partnerProviders?.map((p, i): PartnerProvider => {
    if (RESERVED_KEYS.has(p.key)) throw invalid(`partnerProviders[${i}].key`, "is reserved (saml, social_a, social_b, partner)");
    if (seenKeys.has(p.key)) throw invalid(`partnerProviders[${i}].key`, "is used twice");
    seenKeys.add(p.key);
    return {
      key: p.key,
      labelKo: p.labelKo ?? "",
      labelEn: p.labelEn ?? "",
      partnerKey: p.partnerKey ?? p.key,
      enabled: p.enabled ?? true,
      oidc: partnerOidc(rt, p.oidc, stored.get(p.key)?.oidc ?? null, `partnerProviders[${i}].oidc`),
    };
  });
  const row = write(db, (tx) => {
    const next: SsoRow = {
      ...readSso(tx),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.allowedLoginMethods !== undefined ? { allowedLoginMethods: input.allowedLoginMethods } : {}),
      ...(input.idpSsoUrl !== undefined ? { idpSsoUrl: input.idpSsoUrl } : {}),
      ...(input.idpEntityUrl !== undefined ? { idpEntityUrl: input.idpEntityUrl } : {}),
      ...(x509Cert !== undefined ? { x509Cert } : {}),
      ...(input.provisionMembers !== undefined ? { provisionMembers: input.provisionMembers } : {}),
      ...(input.attributeMappings !== undefined ? { attributeMappings: input.attributeMappings.map((m) => ({ ...m })) } : {}),
      ...(partnerProviders !== undefined ? { partnerProviders } : {}),
      id: 1,
      updatedAt: now,
    };
    // SSO only while SAML cannot be used would lock every member out.
    if (next.allowedLoginMethods === "SSO_ONLY" && !(next.enabled && isIdpConfigured(next)))
      throw invalid("allowedLoginMethods", "can be SSO_ONLY only while SSO is enabled and the IdP is configured");
    tx.insert(ssoSettings).values(next).onConflictDoUpdate({ target: ssoSettings.id, set: next }).run();
    return next;
  });
  return toSsoSettings(rt, db, tenantKey, row);
}
