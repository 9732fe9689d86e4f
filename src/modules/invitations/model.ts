import { t } from "elysia";
import { DisplayName, Email, Enum, Id, Nullable, PageFields, PageQuery, Password, Timestamp, UserId } from "../../platform/http/schemas";
import { RoleRef } from "../roles/model";

export const INVITATION_STATUSES = ["pending", "accepted", "cancelled", "expired"] as const;
export const INVITATION_SORTS = ["email", "createdAt"] as const;

export const Invitation = t.Object({
  id: t.String(),
  email: t.String(),
  role: RoleRef,
  status: Enum(INVITATION_STATUSES),
  sentAt: Timestamp,
  expiresAt: Timestamp,
  acceptedAt: Nullable(Timestamp),
  createdAt: Timestamp,
});

const Emails = t.Array(Email, { minItems: 1, maxItems: 500, error: "must be 1..500 valid e-mail addresses" });

export const CreateInvitationsBody = t.Object({
  emails: Emails,
  roleKey: t.Optional(t.String({ minLength: 1, maxLength: 50, error: "must be a role key of 1..50 characters" })),
});

export const CreateInvitationsResult = t.Object({
  invited: t.Array(Invitation),
  failed: t.Array(t.Object({ email: t.String(), reason: Enum(["member", "invited"]) })),
});

export const ListInvitationsQuery = t.Object({
  ...PageQuery,
  status: t.Optional(Enum(INVITATION_STATUSES)),
  search: t.Optional(t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" })),
  // A plain string so that an unknown key gets UNKNOWN_SORT_FIELD, as in the member list.
  sortBy: t.Optional(t.String({ minLength: 1, maxLength: 100, description: "email or createdAt (default createdAt)" })),
  sortDir: t.Optional(Enum(["asc", "desc"], { description: "default desc" })),
});

export const InvitationPage = t.Object({ invitations: t.Array(Invitation), ...PageFields });

export const CheckEmailsBody = t.Object({ emails: Emails });
export const CheckEmailsResult = t.Object({
  results: t.Array(t.Object({ email: t.String(), status: Enum(["enable", "member", "invited"]) })),
});

export const BulkIdsBody = t.Object({
  ids: t.Array(Id, {
    minItems: 1,
    maxItems: 500,
    error: "must be 1..500 ids",
  }),
});
export const BulkResult = t.Object({
  succeeded: t.Array(t.String()),
  failed: t.Array(t.Object({ id: t.String(), reason: Enum(["cooldown", "not-found", "not-pending"]) })),
});

export const InvitationParams = t.Object({ invitationId: Id });
export const TokenParams = t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) });

export const AcceptInvitationBody = t.Object({
  displayName: DisplayName,
  password: Password,
  userId: t.Optional(UserId),
});
export const AcceptInvitationResult = t.Object({ tenantKey: t.String(), identifier: t.String() });
