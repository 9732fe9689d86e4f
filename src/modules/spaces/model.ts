import { t } from "elysia";
import {
  CursorQuery,
  Email,
  Enum,
  FreeText,
  Id,
  Int,
  NextCursor,
  Nullable,
  QueryBool,
  SafeInt,
  Timestamp,
} from "../../platform/http/schemas";
import { ENROLMENT_EVENTS, SPACE_ROLES } from "../../schema/spaces";
import { FieldValue } from "../members/model";

export const SpaceParams = t.Object({ spaceId: Id });
export const SpaceMemberParams = t.Object({ spaceId: Id, userPkId: Id });
export const SpaceJoinCodeParams = t.Object({ spaceId: Id, joinCodeId: Id });
export const SpaceGroupSetParams = t.Object({ spaceId: Id, groupSetId: Id });
export const CategoryParams = t.Object({ categoryId: Id });

export const SpaceRoleSchema = Enum(SPACE_ROLES);
/** The menus of a space (docs/rules/spaces.md#creation). */
export const MENUS = ["announcement", "content", "community", "team", "challenge", "grade"] as const;

export const Space = t.Object({
  id: t.String(),
  name: t.String(),
  representativeName: Nullable(t.String()),
  description: Nullable(t.String()),
  thumbnailUrl: Nullable(t.String()),
  semester: Nullable(t.String()),
  isActive: t.Boolean(),
  isPublic: t.Boolean(),
  autoJoin: t.Boolean(),
  exitRestricted: t.Boolean(),
  allowFileDownload: t.Boolean(),
  vodConcurrentLimit: t.Boolean(),
  retainEnrollmentHistory: t.Boolean(),
  startMenu: t.String(),
  enabledMenus: t.Array(t.String()),
  messageEnabled: t.Boolean(),
  adminCount: Int(),
  participantCount: Int(),
  postCount: Int(),
  contentCount: Int(),
  createdAt: Timestamp,
  fieldValues: t.Array(FieldValue),
});

const Name = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
// Only the name has a bound of its own: representativeName, description and semester are free text or null.
const Text = Nullable(FreeText);
const FileId = Nullable(t.String({ minLength: 1, maxLength: 100, error: "must be a file id" }));

export const CreateSpaceBody = t.Object({
  name: Name,
  representativeName: t.Optional(Text),
  description: t.Optional(Text),
  thumbnailFileId: t.Optional(FileId),
  semester: t.Optional(Text),
  isPublic: t.Optional(t.Boolean()),
  autoJoin: t.Optional(t.Boolean()),
  exitRestricted: t.Optional(t.Boolean()),
  allowFileDownload: t.Optional(t.Boolean()),
  vodConcurrentLimit: t.Optional(t.Boolean()),
  retainEnrollmentHistory: t.Optional(t.Boolean()),
});

const Menu = Enum(MENUS);
/** enabledMenus, of a space or of the space-category settings: menus of MENUS, each at most once. */
const MenuList = t.Array(Menu, { maxItems: 10, uniqueItems: true, error: "must be at most 10 distinct menus" });

export const UpdateSpaceBody = t.Object({
  name: t.Optional(Name),
  representativeName: t.Optional(Text),
  description: t.Optional(Text),
  thumbnailFileId: t.Optional(FileId),
  semester: t.Optional(Text),
  isActive: t.Optional(t.Boolean()),
  isPublic: t.Optional(t.Boolean()),
  startMenu: t.Optional(Menu),
  enabledMenus: t.Optional(MenuList),
  messageEnabled: t.Optional(t.Boolean()),
  autoJoin: t.Optional(t.Boolean()),
  exitRestricted: t.Optional(t.Boolean()),
  allowFileDownload: t.Optional(t.Boolean()),
  vodConcurrentLimit: t.Optional(t.Boolean()),
  retainEnrollmentHistory: t.Optional(t.Boolean()),
});

export const ListSpacesQuery = t.Object({
  search: t.Optional(t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" })),
  isActive: t.Optional(QueryBool),
  semester: t.Optional(t.String()),
  autoJoin: t.Optional(QueryBool),
  exitRestricted: t.Optional(QueryBool),
  myRole: t.Optional(
    Enum(SPACE_ROLES, { description: "Only the spaces the caller is enrolled in with this role (a teacher's own classes: ADMIN)" }),
  ),
  ...CursorQuery,
});
export const SpacePage = t.Object({ spaces: t.Array(Space), total: Int(), nextCursor: NextCursor });

export const SpaceMember = t.Object({
  id: t.String(),
  userId: Nullable(t.String()),
  displayName: t.String(),
  email: Nullable(t.String()),
  role: SpaceRoleSchema,
  isOwner: t.Boolean(),
});
export const SpaceMemberPage = t.Object({ members: t.Array(SpaceMember), nextCursor: NextCursor });
export const SpaceMembersQuery = t.Object({ ...CursorQuery });

const UserIds = t.Array(Id, { minItems: 1, maxItems: 500, error: "must be 1..500 member ids" });
export const AddSpaceMembersBody = t.Object({ userIds: UserIds, role: t.Optional(SpaceRoleSchema) });
export const UpdateSpaceMemberRoleBody = t.Object({ role: SpaceRoleSchema });

export const SpaceJoinCode = t.Object({
  id: t.String(),
  role: SpaceRoleSchema,
  code: t.String(),
  link: t.String({ description: "URL carrying the code; it leads to joinSpaceWithCode." }),
  enabled: t.Boolean(),
  password: Nullable(t.String()),
  expiresAt: Nullable(Timestamp),
  createdAt: Timestamp,
});
export const SpaceJoinCodeList = t.Object({ joinCodes: t.Array(SpaceJoinCode) });
/** A join code's password is a shared word, not an account password (spec: s|null); "" means none. */
const CodePassword = Nullable(t.String());
export const CreateSpaceJoinCodeBody = t.Object({
  role: t.Optional(SpaceRoleSchema),
  password: t.Optional(CodePassword),
  expiresInDays: t.Optional(Nullable(Int({ minimum: 1, maximum: 3650, error: "must be an integer 1..3650" }))),
});
export const UpdateSpaceJoinCodeBody = t.Object({
  enabled: t.Optional(t.Boolean({ error: "must be true or false" })),
  password: t.Optional(CodePassword),
});
export const JoinSpaceBody = t.Object({
  code: t.String({ minLength: 1, maxLength: 100, error: "must be 1..100 characters" }),
  password: t.Optional(Nullable(t.String())),
});
export const JoinSpaceResult = t.Object({ space: Space, member: SpaceMember });

export const SpaceBlock = t.Object({
  id: t.String(),
  userId: t.String({ description: "Member.id of the blocked member." }),
  displayName: t.String(),
  reason: Nullable(t.String()),
  createdAt: Timestamp,
});
export const SpaceBlockList = t.Object({ blocks: t.Array(SpaceBlock) });
export const BlockSpaceUserBody = t.Object({
  userId: Id,
  reason: t.Optional(Nullable(t.String())),
});

const GroupName = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
const GroupItem = t.Object({
  id: t.Optional(Id),
  name: GroupName,
  memberIds: t.Array(Id, { maxItems: 500, error: "must be at most 500 member ids" }),
});
const Groups = t.Array(GroupItem, { minItems: 1, maxItems: 200, error: "must be 1..200 groups" });
export const CreateGroupSetBody = t.Object({ name: GroupName, groups: Groups });
export const UpdateGroupSetBody = t.Object({ name: GroupName, groups: Groups });
export const SpaceGroupSet = t.Object({
  id: t.String(),
  spaceId: t.String(),
  name: t.String(),
  groups: t.Array(
    t.Object({
      id: t.String(),
      name: t.String(),
      members: t.Array(t.Object({ id: t.String(), userId: Nullable(t.String()), displayName: t.String() })),
    }),
  ),
  createdAt: Timestamp,
});
export const SpaceGroupSetList = t.Object({ groupSets: t.Array(SpaceGroupSet) });

export const EmailCountBody = t.Object({ email: Email });
export const EmailCountResult = t.Object({ email: t.String(), count: Int() });

export const SpaceDefaults = t.Object({
  defaultAutoJoin: t.Boolean(),
  defaultExitRestricted: t.Boolean(),
  defaultAllowFileDownload: t.Boolean(),
  defaultVodConcurrentLimit: t.Boolean(),
  enforceFileDownloadDisabled: t.Boolean(),
  enforceVodConcurrentLimit: t.Boolean(),
});
export const UpdateSpaceDefaultsBody = t.Partial(SpaceDefaults);

const Words = t.Array(t.String({ maxLength: 50, error: "must be at most 50 characters" }), {
  maxItems: 100,
  error: "must be at most 100 items of at most 50 characters",
});
const CategoryName = t.String({ minLength: 1, maxLength: 100, error: "must be 1..100 characters" });
export const Category = t.Object({ id: t.String(), name: t.String(), order: Int() });
export const SpaceCategories = t.Object({
  semesterEnabled: t.Boolean(),
  semesterWithYear: t.Boolean(),
  tags: t.Array(t.String()),
  roles: t.Array(t.String()),
  startMenu: t.String(),
  enabledMenus: t.Array(t.String()),
  categories: t.Array(Category),
});
export const UpdateSpaceCategoriesBody = t.Object({
  semesterEnabled: t.Optional(t.Boolean()),
  semesterWithYear: t.Optional(t.Boolean()),
  tags: t.Optional(Words),
  roles: t.Optional(Words),
  startMenu: t.Optional(Menu),
  enabledMenus: t.Optional(MenuList),
  categories: t.Optional(
    t.Array(t.Object({ id: t.Optional(Id), name: CategoryName, order: t.Optional(SafeInt()) }), {
      maxItems: 20,
      error: "must be at most 20 categories",
    }),
  ),
});
export const UpdateSpaceCategoryBody = t.Object({ name: t.Optional(CategoryName), order: t.Optional(SafeInt()) });

export const TransferOwnershipBody = t.Object({ memberId: Id });

export const MemberCandidatesQuery = t.Object({
  keyword: t.Optional(
    t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters", description: "Matches displayName or userId." }),
  ),
  ...CursorQuery,
});
export const MemberCandidates = t.Object({
  candidates: t.Array(t.Object({ id: t.String(), userId: Nullable(t.String()), displayName: t.String() })),
  nextCursor: NextCursor,
});

export const EnrollmentHistoryQuery = t.Object({ ...CursorQuery });
export const EnrollmentHistory = t.Object({
  entries: t.Array(
    t.Object({
      memberId: t.String(),
      displayName: t.String(),
      event: Enum(ENROLMENT_EVENTS),
      role: Enum(SPACE_ROLES),
      at: Timestamp,
    }),
  ),
  nextCursor: NextCursor,
});
