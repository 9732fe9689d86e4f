import { t } from "elysia";
import { DisplayName, Email, Enum, Nullable, Password, Timestamp, UserId } from "../../platform/http/schemas";

export const SessionType = Enum(["personal", "public"]);
export const Code = t.String({ minLength: 6, maxLength: 6, error: "must be exactly 6 characters" });
export const TenantKey = t.String({
  minLength: 1,
  maxLength: 255,
  pattern: "^[a-z0-9-]+$",
  error: "must be 1..255 lowercase letters, digits or hyphens",
});
const NonEmpty = (max = 255) => t.String({ minLength: 1, maxLength: max, error: `must be 1..${max} characters` });

// Records (docs/rules/sign-in.md#identity).
export const RoleRef = t.Object({ key: t.String(), name: t.String() });
export const SessionUser = t.Object({
  id: t.String({ description: "Member.id; the platform account id in a session without a tenant" }),
  userId: Nullable(t.String({ description: "Login identifier; null when the member has none" })),
  tenantKey: Nullable(t.String({ description: "null only in a session without a tenant (sign-up without tenantKey)" })),
  email: t.String(),
  displayName: t.String(),
  role: Nullable(RoleRef),
  permissions: t.Array(t.String()),
  mustChangePassword: t.Boolean(),
  needsAgreementConsent: t.Boolean(),
});
export const AuthTenant = t.Object({
  key: t.String(),
  name: t.String(),
  kind: t.String({ description: "owner (the e-mail created the tenant) or member" }),
  logoImageUrl: Nullable(t.String()),
});
export const AuthResult = t.Object({
  result: t.Literal("authenticated"),
  accessToken: t.String(),
  accessTokenExpiresAt: Timestamp,
  user: SessionUser,
  tenants: t.Array(AuthTenant),
  hasOwnedTenant: t.Boolean(),
  email: t.String(),
});
export const SessionRefresh = t.Object({ accessToken: t.String(), accessTokenExpiresAt: Timestamp, user: SessionUser });
export const CodeIssued = t.Object({
  nextResendAvailableAt: Timestamp,
  devCode: t.Optional(t.String({ description: "Only with dev codes on (--dev-codes)" })),
});
export const Profile = t.Object({
  id: t.String(),
  displayName: t.String(),
  pictureUrl: Nullable(t.String()),
  affiliation: Nullable(t.String()),
  externalMemberCode: Nullable(t.String()),
  isMain: t.Boolean(),
  isNew: t.Boolean(),
});

// Inputs.
export const SignUpBody = t.Object({
  email: Email,
  password: Password,
  displayName: DisplayName,
  tenantKey: t.Optional(TenantKey),
  tenantName: t.Optional(NonEmpty()),
});
export const SignUpResult = t.Object({ email: t.String(), verificationRequired: t.Boolean(), devCode: t.Optional(t.String()) });
export const EmailBody = t.Object({ email: Email });
export const EmailCodeBody = t.Object({ email: Email, code: Code });
export const VerifySignUpBody = t.Object({ email: Email, code: Code, sessionType: t.Optional(SessionType) });
export const ConfirmResetBody = t.Object({ email: Email, code: Code, newPassword: Password });
export const CodeTenantsResult = t.Object({ tenants: t.Array(AuthTenant), hasOwnedTenant: t.Boolean() });
export const SignInWithCodeBody = t.Object({
  email: Email,
  tenantKey: NonEmpty(),
  code: Code,
  sessionType: t.Optional(SessionType),
});
export const SignInWithPasswordBody = t.Object({
  identifier: NonEmpty(),
  password: t.String({ minLength: 1, maxLength: 1024, error: "must be 1..1024 characters" }),
  tenantKey: t.Optional(NonEmpty()),
  sessionType: t.Optional(SessionType),
});
export const SetSessionTypeBody = t.Object({ sessionType: SessionType });
export const SessionTypeResult = t.Object({ sessionType: SessionType, absoluteExpiresAt: Timestamp, confirmed: t.Boolean() });
export const TenantKeyParams = t.Object({ tenantKey: NonEmpty() });
export const JoinTenantBody = t.Object({
  email: Email,
  code: Code,
  password: Password,
  displayName: DisplayName,
  userId: t.Optional(UserId),
  sessionType: t.Optional(SessionType),
});
export const JoinWithJoinCodeBody = t.Object({ ...JoinTenantBody.properties, joinCode: NonEmpty(100) });
export const ChangePasswordBody = t.Object({
  currentPassword: t.String({ minLength: 1, maxLength: 1024, error: "must be 1..1024 characters" }),
  newPassword: Password,
});
// docs/rules/sign-in.md#browser-redirects: one leading "/", not "//" or "/\", no control characters.
export const ReturnTo = t.String({
  maxLength: 2000,
  pattern: "^/(?![/\\\\])[^\\u0000-\\u001f\\u007f]*$",
  error: "must be a relative path starting with a single / (max 2000)",
});
export const StartExternalBody = t.Object({
  tenantKey: t.Optional(t.String({ maxLength: 255, error: "must be at most 255 characters" })),
  sessionType: t.Optional(SessionType),
  returnTo: t.Optional(ReturnTo),
});
export const ProviderParams = t.Object({ provider: NonEmpty(100) });
export const IdentifierBody = t.Object({ identifier: NonEmpty() });
export const IdentifierLookupResult = t.Object({
  exists: t.Boolean(),
  methods: t.Array(t.String()),
  allowUserSelfSignUp: t.Boolean(),
});

export const CompleteExternalQuery = t.Object({
  state: t.Optional(t.String({ maxLength: 2000 })),
  code: t.Optional(t.String({ maxLength: 4000 })),
  error: t.Optional(t.String({ maxLength: 2000 })),
});
