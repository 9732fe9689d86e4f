import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export type AttributeMapping = { fieldId: string; samlAttribute: string };
/** A partner's OpenID Connect client; the secret is sealed with the server secret (platform/crypto seal). */
export type StoredOidc = { issuer: string; clientId: string; scopes: string; clientSecretSealed: string };
export type PartnerProvider = {
  key: string;
  labelKo: string;
  labelEn: string;
  partnerKey: string;
  enabled: boolean;
  oidc?: StoredOidc | null;
};

/** The tenant's single sign-on settings: one row (id = 1); absent until first saved (defaults apply). */
export const ssoSettings = sqliteTable("sso_settings", {
  id: integer("id").primaryKey(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  allowedLoginMethods: text("allowed_login_methods", { enum: ["ALL", "SSO_ONLY"] })
    .notNull()
    .default("ALL"),
  idpSsoUrl: text("idp_sso_url"),
  idpEntityUrl: text("idp_entity_url"),
  /** Base64 DER body of the IdP's signing certificate, one line, no armour. */
  x509Cert: text("x509_cert"),
  provisionMembers: integer("provision_members", { mode: "boolean" }).notNull().default(false),
  attributeMappings: text("attribute_mappings", { mode: "json" }).$type<AttributeMapping[]>().notNull(),
  partnerProviders: text("partner_providers", { mode: "json" }).$type<PartnerProvider[]>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** One-use SP-initiated sign-in states, named by RelayState (10 minutes). */
export const samlRequests = sqliteTable(
  "saml_requests",
  {
    relayState: text("relay_state").primaryKey(),
    requestId: text("request_id").notNull(),
    returnTo: text("return_to").notNull(),
    sessionType: text("session_type", { enum: ["personal", "public"] }),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("saml_requests_expires_idx").on(t.expiresAt)],
);

/** Assertion ids already consumed, kept until they could no longer be valid (replay defence). */
export const samlSeenAssertions = sqliteTable(
  "saml_seen_assertions",
  {
    assertionId: text("assertion_id").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("saml_seen_assertions_expires_idx").on(t.expiresAt)],
);

/** The external account (OpenID Connect provider key, `sub`) a member signed in with; matched before the e-mail (docs/rules/sign-in.md#openid-connect). */
export const externalLinks = sqliteTable(
  "external_links",
  {
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    memberId: text("member_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index("external_links_member_idx").on(t.memberId)],
);
