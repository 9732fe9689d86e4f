import { t } from "elysia";
import { Enum, Nullable } from "../../platform/http/schemas";
import { ProviderItem } from "../login-page/model";

export const LoginMethodsSetting = Enum(["ALL", "SSO_ONLY"]);
const AttributeMapping = t.Object({
  fieldId: t.String({ minLength: 1, maxLength: 100, error: "must be 1..100 characters" }),
  samlAttribute: t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" }),
});
const PartnerProvider = t.Object({
  key: t.String(),
  labelKo: t.String(),
  labelEn: t.String(),
  partnerKey: t.String(),
  enabled: t.Boolean(),
  oidc: Nullable(
    t.Object({
      issuer: t.String(),
      clientId: t.String(),
      scopes: t.String(),
      clientSecretSet: t.Boolean({ description: "The client secret is stored (it is write-only)" }),
    }),
  ),
});
const OidcInput = t.Object({
  issuer: t.String({ minLength: 1, maxLength: 2000, error: "must be an https URL of at most 2000 characters" }),
  clientId: t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" }),
  clientSecret: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 1000,
      error: "must be 1..1000 characters",
      description: "Write-only; absent keeps the stored one",
    }),
  ),
  scopes: t.Optional(t.String({ minLength: 1, maxLength: 1000, error: "must be 1..1000 characters", default: "openid email profile" })),
});

export const SsoSettings = t.Object({
  enabled: t.Boolean(),
  idpSsoUrl: Nullable(t.String()),
  idpEntityUrl: Nullable(t.String()),
  x509Cert: Nullable(t.String()),
  attributeMappings: t.Array(AttributeMapping),
  spAcsUrl: t.String(),
  spEntityId: t.String(),
  mappingLabels: t.Record(t.String(), t.String()),
  idpConfigured: t.Boolean(),
  partnerProviders: t.Array(PartnerProvider),
  allowedLoginMethods: LoginMethodsSetting,
  providers: t.Array(ProviderItem),
  provisionMembers: t.Boolean(),
});

const Label = t.String({ maxLength: 255, error: "must be at most 255 characters" });
export const UpdateSsoBody = t.Object({
  enabled: t.Optional(t.Boolean()),
  allowedLoginMethods: t.Optional(LoginMethodsSetting),
  idpSsoUrl: t.Optional(
    Nullable(t.String({ minLength: 1, maxLength: 2000, error: "must be null or an http(s) URL of at most 2000 characters" })),
  ),
  idpEntityUrl: t.Optional(Nullable(t.String({ minLength: 1, maxLength: 2000, error: "must be null or 1..2000 characters" }))),
  x509Cert: t.Optional(Nullable(t.String({ minLength: 1, maxLength: 20000, error: "must be null or one X.509 certificate" }))),
  provisionMembers: t.Optional(t.Boolean()),
  attributeMappings: t.Optional(t.Array(AttributeMapping, { maxItems: 200, error: "must have at most 200 mappings" })),
  partnerProviders: t.Optional(
    t.Array(
      t.Object({
        key: t.String({
          minLength: 1,
          maxLength: 50,
          pattern: "^[a-z0-9][a-z0-9_-]*$",
          error: "must be 1..50 lowercase letters, digits, _ or -",
        }),
        labelKo: t.Optional(Label),
        labelEn: t.Optional(Label),
        partnerKey: t.Optional(t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" })),
        enabled: t.Optional(t.Boolean()),
        // OpenID Connect client: absent keeps the stored one, null removes it.
        oidc: t.Optional(Nullable(OidcInput)),
      }),
      { maxItems: 10, error: "must have at most 10 providers" },
    ),
  ),
});
