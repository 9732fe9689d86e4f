import { t } from "elysia";
import { Int, Nullable, Timestamp } from "../../platform/http/schemas";

export const JoinCode = t.Object({
  id: t.String(),
  code: t.String(),
  enabled: t.Boolean(),
  expiresAt: Nullable(Timestamp),
  createdAt: Timestamp,
  link: t.String({ description: "URL carrying the code; it leads to joinTenantWithJoinCode." }),
});

export const CreateJoinCodeBody = t.Object({
  expiresInDays: t.Optional(Int({ minimum: 1, maximum: 3650, error: "must be an integer 1..3650" })),
});

export const UpdateJoinCodeBody = t.Object({ enabled: t.Boolean({ error: "must be true or false" }) });

export const JoinCodeList = t.Object({ joinCodes: t.Array(JoinCode) });
