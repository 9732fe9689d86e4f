import { t } from "elysia";
import {
  DateTimeInput,
  Email,
  Enum,
  Id,
  Int,
  Nullable,
  PageFields,
  PageQuery,
  Password,
  QueryBool,
  Timestamp,
  UserId,
} from "../../platform/http/schemas";

export const FieldValue = t.Object({
  fieldId: t.String(),
  valueText: Nullable(t.String()),
  valueNumber: Nullable(t.Number()),
  valueDate: Nullable(Timestamp),
});

export const Member = t.Object({
  id: t.String(),
  userId: Nullable(t.String()),
  displayName: t.String(),
  email: Nullable(t.String()),
  role: t.Object({ key: t.String(), name: t.String() }),
  isActive: t.Boolean(),
  lastLoginAt: Nullable(Timestamp),
  createdAt: Timestamp,
  pictureUrl: Nullable(t.String()),
  affiliation: Nullable(t.String()),
  externalMemberCode: Nullable(t.String()),
  bio: Nullable(t.String()),
  isIssuedAccount: t.Boolean(),
  positionId: Nullable(t.String()),
  /** Only with include=spaceCounts. */
  activeSpaceCount: t.Optional(Int()),
  inactiveSpaceCount: t.Optional(Int()),
  fieldValues: t.Array(FieldValue),
});

const MemberDisplayName = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
const Text255 = t.String({ maxLength: 255, error: "must be at most 255 characters" });

const RoleKey = t.String({ minLength: 1, maxLength: 100, error: "must be a role key" });

export const CreateMemberBody = t.Object({
  displayName: MemberDisplayName,
  userId: t.Optional(UserId),
  email: t.Optional(Email),
  roleKey: t.Optional(RoleKey),
  password: t.Optional(Password),
});
export const CreateMemberResult = t.Object({ member: Member, tempPassword: t.String() });

/** One item of createMembers: createMember's body with roleKey required, checked per item (a broken item fails alone). */
export const CreateMembersItem = t.Object({ ...CreateMemberBody.properties, roleKey: RoleKey });
const described = (description: string) => t.Optional(t.Unknown({ description }));
export const CreateMembersBody = t.Object({
  members: t.Array(
    t.Object(
      {
        displayName: described("Required. 1..255 characters."),
        userId: described("1..255 letters, digits, _ or -. userId or email is required."),
        email: described("E-mail address, max 255."),
        roleKey: described("Required. An existing role key; other than member needs member:manage-role."),
        password: described("8..255 characters; absent: one is generated and returned as tempPassword."),
      },
      { description: "Checked per item like createMember's body; a broken item goes to failed with reason INVALID." },
    ),
    { minItems: 1, maxItems: 500, error: "must have 1..500 members" },
  ),
});
export const CreateMembersResult = t.Object({
  created: t.Array(t.Object({ index: Int(), member: Member, tempPassword: t.String() })),
  failed: t.Array(
    t.Object({
      index: Int(),
      reason: t.String({ description: "ALREADY_EXISTS, FORBIDDEN_ROLE, or INVALID: <field> <message> (the first broken rule)." }),
    }),
  ),
});

export const UpdateMemberBody = t.Object({
  displayName: t.Optional(MemberDisplayName),
  affiliation: t.Optional(Nullable(Text255)),
  externalMemberCode: t.Optional(Nullable(Text255)),
  email: t.Optional(Nullable(Email)),
  userId: t.Optional(UserId),
  isActive: t.Optional(t.Boolean({ description: "false: the member's sessions end and sign-in is refused; true restores it." })),
});

export const SetMemberRoleBody = t.Object({ roleKey: RoleKey });

export const DeleteMembersBody = t.Object({
  userPkIds: t.Array(Id, { minItems: 1, maxItems: 10, error: "must be 1..10 member ids" }),
});
export const DeleteMembersResult = t.Object({
  deleted: t.Array(t.String()),
  failed: t.Array(t.Object({ userPkId: t.String(), reason: t.String() })),
});

export const ResetPasswordBody = t.Object({
  password: t.Optional(
    t.String({
      format: "ls-password",
      minLength: 8,
      maxLength: 128,
      error: "must be 8..128 characters of letters, digits and allowed punctuation, with at least two of these kinds",
    }),
  ),
});
export const ResetPasswordResult = t.Object({ tempPassword: t.String() });

export const SetFieldValuesBody = t.Object({
  values: t.Array(
    t.Object({
      fieldId: t.String({ minLength: 1, maxLength: 100 }),
      valueText: t.Optional(Nullable(t.String({ maxLength: 10000 }))),
      valueNumber: t.Optional(Nullable(t.Number())),
      valueDate: t.Optional(Nullable(DateTimeInput)),
    }),
    { maxItems: 200 },
  ),
});
export const FieldValues = t.Object({ values: t.Array(FieldValue) });

const Count = t.Integer({ minimum: 0, maximum: 9007199254740991 });
export const MEMBER_STATUSES = ["active", "inactive"] as const;

/** listMembers' query; getMember takes and validates the same (only `include` has an effect there). */
export const ListMembersQuery = t.Object({
  ...PageQuery,
  search: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
  roleKey: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  // Array items are checked on the raw repeated keys: Elysia splits a single value at its commas,
  // and an item failing its own schema there would end in a 500.
  roleKeys: t.Optional(t.Array(t.String(), { maxItems: 50, description: "1..50 role keys." })),
  status: t.Optional(Enum(MEMBER_STATUSES)),
  statuses: t.Optional(t.Array(t.String(), { maxItems: 2, description: "1..2 of active, inactive." })),
  fieldFilters: t.Optional(t.Array(t.String(), { description: 'At most 10 items "<fieldId>:<value>", value 1..255.' })),
  lastLoginFrom: t.Optional(DateTimeInput),
  lastLoginTo: t.Optional(DateTimeInput),
  isIssuedAccount: t.Optional(QueryBool),
  activeSpaceCountMin: t.Optional(Count),
  activeSpaceCountMax: t.Optional(Count),
  inactiveSpaceCountMin: t.Optional(Count),
  inactiveSpaceCountMax: t.Optional(Count),
  sortBy: t.Optional(t.String({ description: "A default column or a member field id; default createdAt." })),
  sortDir: t.Optional(Enum(["asc", "desc"])),
  filterFieldId: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  filterValue: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
  include: t.Optional(Enum(["spaceCounts"])),
});

export const MemberPage = t.Object({ members: t.Array(Member), ...PageFields });

export const GuardianParams = t.Object({ userPkId: Id, guardianId: Id });
export const AddGuardianBody = t.Object({
  guardianId: Id,
});
export const Guardians = t.Object({
  guardians: t.Array(t.Object({ id: t.String(), userId: Nullable(t.String()), displayName: t.String(), email: Nullable(t.String()) }), {
    description: "Oldest link first; at most 4",
  }),
});

export const HandOverBody = t.Object({ toMemberId: Id });
export const HandOverResult = t.Object({
  spaces: t.Array(t.String(), { description: "The spaces whose ownership moved" }),
  contents: t.Array(t.String(), { description: "The contents whose author changed" }),
});
export const MemberOwnership = t.Object({
  spaces: t.Array(t.Object({ id: t.String(), name: t.String(), isActive: t.Boolean() }), { description: "Owned spaces, by name" }),
  contents: t.Array(t.Object({ id: t.String(), title: t.String(), type: t.String(), spaceId: Nullable(t.String()) }), {
    description: "Authored contents (tenant library: spaceId null), oldest first",
  }),
});

/** A field value of the bulk operations: `value` goes to the column of the field's type (a DATE takes a date-time). */
export const BulkFieldValue = t.Object({
  fieldId: t.String({ minLength: 1, maxLength: 100 }),
  value: Nullable(t.Union([t.String({ maxLength: 10000 }), t.Number()])),
});
const BulkFieldValues = t.Array(BulkFieldValue, { maxItems: 200, error: "must be at most 200 field values" });

/** One item of updateMembers, checked per item (a broken item fails alone). */
export const UpdateMembersItem = t.Object({
  id: Id,
  ...UpdateMemberBody.properties,
  roleKey: t.Optional(RoleKey),
  fieldValues: t.Optional(BulkFieldValues),
});
export const UpdateMembersBody = t.Object({
  members: t.Array(
    t.Object(
      {
        id: described("Required. The member's id."),
        displayName: described("1..255 characters."),
        email: described("E-mail address or null."),
        userId: described("1..255 letters, digits, _ or -."),
        externalMemberCode: described("Max 255, or null."),
        affiliation: described("Max 255, or null."),
        isActive: described("false deactivates (sessions end); true restores."),
        roleKey: described("An existing role key, as setMemberRole (needs member:manage-role)."),
        fieldValues: described("[{fieldId, value}]: set these member fields (null clears), the others stay."),
      },
      { description: "Each item alone as updateMember, setMemberRole and setMemberFieldValues would; a refused item goes to failed." },
    ),
    { minItems: 1, maxItems: 500, error: "must have 1..500 members" },
  ),
});
export const UpdateMembersResult = t.Object({
  updated: t.Array(t.Object({ index: Int(), member: Member })),
  failed: t.Array(
    t.Object({
      index: Int(),
      reason: t.String({
        description: "NOT_FOUND, ALREADY_EXISTS, FORBIDDEN, INVALID_STATE, or INVALID: <field> <message> (the first broken rule).",
      }),
    }),
  ),
});
