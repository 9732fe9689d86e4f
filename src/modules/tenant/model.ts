import { t } from "elysia";
import { Enum, Nullable, Timestamp } from "../../platform/http/schemas";

export const SessionPolicy = t.Object({
  defaultSessionType: Enum(["personal", "public"]),
  publicAbsoluteTimeoutMinutes: t.Integer(),
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
  customFieldMaxCount: t.Integer(),
  currentContractPeriod: t.Object({ startedAt: Timestamp, expiredAt: Nullable(Timestamp) }),
  sessionPolicy: SessionPolicy,
});
