import { t } from "elysia";
import { Enum, Id, Int, Nullable, PageFields, PageQuery } from "../../platform/http/schemas";

export const CodeParams = t.Object({ code: Id });

const SubjectType = Enum(["GROUP", "MEMBER"]);
const SubjectId = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });

export const SubjectBody = t.Object({ subjectType: SubjectType, subjectId: SubjectId });
export const BulkSubjectsBody = t.Object({
  subjectType: SubjectType,
  subjectIds: t.Array(SubjectId, { minItems: 1, maxItems: 500, error: "must be a list of 1..500 ids" }),
});
export const AllEnabledBody = t.Object({ enabled: t.Boolean({ error: "must be true or false" }) });

export const GrantQuery = t.Object({
  ...PageQuery,
  search: t.Optional(t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" })),
});

const GrantGroup = t.Object({ id: t.String(), name: t.String() });
const GrantMember = t.Object({ id: t.String(), userId: Nullable(t.String()), displayName: t.String() });

export const PermissionGrant = t.Object({
  code: t.String(),
  description: t.String(),
  allEnabled: t.Boolean(),
  groups: t.Array(GrantGroup),
  members: t.Array(GrantMember),
});

export const PermissionGrantExtended = t.Object({
  code: t.String(),
  label: t.String(),
  description: t.String(),
  allEnabled: t.Boolean(),
  disabled: t.Boolean(),
  groups: t.Array(GrantGroup),
  members: t.Array(t.Object({ ...GrantMember.properties, pictureUrl: Nullable(t.String()), externalMemberCode: Nullable(t.String()) })),
  groupTotal: Int(),
  memberTotal: Int(),
  page: Int(),
  pageSize: Int(),
});

export const GrantMemberList = t.Object({
  members: t.Array(
    t.Object({
      id: t.String(),
      userId: Nullable(t.String()),
      displayName: t.String(),
      email: Nullable(t.String()),
      pictureUrl: Nullable(t.String()),
      externalMemberCode: Nullable(t.String()),
      affiliation: Nullable(t.String()),
    }),
  ),
  ...PageFields,
});

export const BulkGrantResult = t.Object({
  granted: Int(),
  skipped: t.Array(t.Object({ subjectId: t.String(), reason: Enum(["ALREADY_GRANTED", "NOT_FOUND", "INACTIVE"]) })),
});
export const BulkRevokeResult = t.Object({ revoked: Int() });

export const GrantList = t.Object({
  grants: t.Array(
    t.Object({
      code: t.String(),
      label: t.String(),
      description: t.String(),
      allEnabled: t.Boolean(),
      disabled: t.Boolean(),
      groupTotal: Int(),
      memberTotal: Int(),
    }),
  ),
});
