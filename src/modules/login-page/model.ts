import { type Static, t } from "elysia";
import { Enum, LinkUrl, Nullable } from "../../platform/http/schemas";

const Text255 = t.String({ maxLength: 255, error: "must be at most 255 characters" });
const ImageUrl = Nullable(t.String({ maxLength: 2000, error: "must be null or at most 2000 characters" }));
/** Input: images and links the login page shows are http(s) or a same-origin path only (no javascript: or data:). */
const ImageUrlInput = t.Union([LinkUrl(2000), t.Null()], {
  error: "must be null or an http(s) URL or a path starting with a single /, of at most 2000 characters",
});
const FileId = Nullable(t.String({ minLength: 1, maxLength: 100 }));
const Label = t.Object({ ko: Text255, en: Text255 });

const ExternalLink = t.Object({
  labelKo: Text255,
  labelEn: Text255,
  url: t.String({ minLength: 1, maxLength: 1000, error: "must be 1..1000 characters" }),
});
const ExternalLinks = t.Array(ExternalLink, { maxItems: 4, error: "must have at most 4 links" });
const ExternalLinksInput = t.Array(t.Object({ ...ExternalLink.properties, url: LinkUrl(1000) }), {
  maxItems: 4,
  error: "must have at most 4 links",
});
const ExternalFeed = t.Union([t.Object({ titleKo: Text255, titleEn: Text255 }), t.Null()], {
  error: "must be null or {titleKo, titleEn}, each at most 255 characters",
});
const Color = t.String({ maxLength: 20, error: "must be at most 20 characters" });

export const LoginMethods = t.Object({ email: t.Boolean(), social_a: t.Boolean(), social_b: t.Boolean(), partner: t.Boolean() });
export const ButtonLabels = t.Object({ email: Label, sso: Label, social_a: Label, social_b: Label, partner: Label });
const MethodsInput = t.Object({
  email: t.Optional(t.Boolean()),
  social_a: t.Optional(t.Boolean()),
  social_b: t.Optional(t.Boolean()),
  partner: t.Optional(t.Boolean()),
});
const ButtonLabelsInput = t.Object({
  email: t.Optional(Label),
  sso: t.Optional(Label),
  social_a: t.Optional(Label),
  social_b: t.Optional(Label),
  partner: t.Optional(Label),
});

export const LoginPageSettings = t.Object({
  logoImageUrl: ImageUrl,
  logoImageFileId: FileId,
  titleKo: Text255,
  titleEn: Text255,
  backgroundImageUrl: ImageUrl,
  backgroundImageFileId: FileId,
  backgroundTitleEnabled: t.Boolean(),
  backgroundTitleKo: Text255,
  backgroundTitleEn: Text255,
  backgroundTitleColor: Color,
  methods: LoginMethods,
  buttonLabels: ButtonLabels,
  externalLinksEnabled: t.Boolean(),
  externalLinks: ExternalLinks,
  externalFeed: ExternalFeed,
  allowUserSelfSignUp: t.Boolean(),
});
export type LoginPageSettingsRecord = Static<typeof LoginPageSettings>;

/** PUT: the required fields (docs/rules/tenant.md#login-page); absent optional ones take their defaults. */
export const ReplaceLoginPageBody = t.Object({
  logoImageUrl: ImageUrlInput,
  logoImageFileId: t.Optional(FileId),
  titleKo: Text255,
  titleEn: Text255,
  backgroundImageUrl: ImageUrlInput,
  backgroundImageFileId: t.Optional(FileId),
  backgroundTitleEnabled: t.Boolean(),
  backgroundTitleKo: Text255,
  backgroundTitleEn: Text255,
  backgroundTitleColor: Color,
  methods: MethodsInput,
  buttonLabels: t.Optional(ButtonLabelsInput),
  externalLinksEnabled: t.Optional(t.Boolean()),
  externalLinks: ExternalLinksInput,
  externalFeed: t.Optional(ExternalFeed),
  allowUserSelfSignUp: t.Optional(
    t.Boolean({ description: "Default false. While true, anyone with a proved e-mail may joinTenant; otherwise 403." }),
  ),
});
export type ReplaceLoginPageInput = Static<typeof ReplaceLoginPageBody>;

/** The draft: any field of the settings, each optional, with the same bounds. */
export const LoginPageDraftBody = t.Partial(ReplaceLoginPageBody);
export type LoginPageDraftInput = Static<typeof LoginPageDraftBody>;
export const LoginPageDraft = t.Object({ draft: LoginPageSettings });

export const ProviderItem = t.Object({
  key: t.String(),
  kind: Enum(["saml", "partner"]),
  labelKo: t.String(),
  labelEn: t.String(),
  enabled: t.Boolean(),
  available: t.Boolean(),
  loginUrl: Nullable(t.String()),
});

export const PublicLoginPage = t.Object({
  name: t.String(),
  logoImageUrl: Nullable(t.String()),
  titleKo: t.String(),
  titleEn: t.String(),
  backgroundImageUrl: Nullable(t.String()),
  backgroundTitleEnabled: t.Boolean(),
  backgroundTitleKo: t.String(),
  backgroundTitleEn: t.String(),
  backgroundTitleColor: t.String(),
  loginIdentifier: t.String(),
  allowUserSelfSignUp: t.Boolean(),
  methods: LoginMethods,
  buttonLabels: ButtonLabels,
  ssoEnabled: t.Boolean(),
  ssoProviders: t.Array(ProviderItem),
  externalFeed: Nullable(t.Object({ titleKo: t.String(), titleEn: t.String() })),
});
export const TenantKeyParams = t.Object({ tenantKey: t.String({ minLength: 1, maxLength: 255 }) });
