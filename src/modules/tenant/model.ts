import { t } from "elysia";
import { Enum, Int, Nullable, Timestamp } from "../../platform/http/schemas";

export const SessionPolicy = t.Object({
  defaultSessionType: Enum(["personal", "public"]),
  publicAbsoluteTimeoutMinutes: Int(),
});

export const TenantInfo = t.Object({
  id: t.String(),
  key: t.String(),
  name: t.String(),
  description: Nullable(t.String()),
  contactInfo: Nullable(t.String()),
  loginIdentifier: t.String(),
  currentPlan: t.String(),
  logoImageUrl: Nullable(t.String()),
  customFieldMaxCount: Int(),
  currentContractPeriod: t.Object({ startedAt: Timestamp, expiredAt: Nullable(Timestamp) }),
  sessionPolicy: SessionPolicy,
  timeZone: t.String({
    description: "IANA time zone of the school (default Asia/Seoul): digests and the console's dates follow it",
    examples: ["Asia/Seoul"],
  }),
});

/** Public sessions last 5 minutes to 30 days. */
export const PUBLIC_TIMEOUT_MIN = 5;
export const PUBLIC_TIMEOUT_MAX = 43200;

export const UpdateTenantBody = t.Object({
  timeZone: t.Optional(t.String({ minLength: 1, maxLength: 64, error: "must be an IANA time zone name" })),
  name: t.Optional(t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" })),
  description: t.Optional(Nullable(t.String({ maxLength: 5000, error: "must be at most 5000 characters" }))),
  contactInfo: t.Optional(Nullable(t.String({ maxLength: 1000, error: "must be at most 1000 characters" }))),
  sessionPolicy: t.Optional(
    t.Object({
      defaultSessionType: t.Optional(Enum(["personal", "public"])),
      publicAbsoluteTimeoutMinutes: t.Optional(
        Int({
          minimum: PUBLIC_TIMEOUT_MIN,
          maximum: PUBLIC_TIMEOUT_MAX,
          error: `must be an integer ${PUBLIC_TIMEOUT_MIN}..${PUBLIC_TIMEOUT_MAX}`,
        }),
      ),
    }),
  ),
});
