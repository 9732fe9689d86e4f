import { t } from "elysia";
import { CursorQuery, Id, Int, NextCursor, Nullable, SafeInt } from "../../platform/http/schemas";

const RefId = t.String({ minLength: 1, maxLength: 255, error: "must be an id" });
const Name = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
/** Positions: 0..9999 (docs/rules/members.md#positions); org units: "order (integer)", any safe integer. */
const PositionOrder = Int({ minimum: 0, maximum: 9999, error: "must be an integer 0..9999" });
const UnitOrder = SafeInt();

export const OrgUnitParams = t.Object({ orgUnitId: Id });
export const OrgUnitMemberParams = t.Object({ orgUnitId: Id, userPkId: Id });
export const PositionParams = t.Object({ positionId: Id });
export const MemberParams = t.Object({ userPkId: Id });

/** `leaderUserId` is the leader's Member.id, `leaderName` its display name. */
export const OrgUnit = t.Object({
  id: t.String(),
  parentId: Nullable(t.String()),
  name: t.String(),
  order: Int(),
  leaderUserId: Nullable(t.String()),
  leaderName: Nullable(t.String()),
  memberCount: Int(),
});
export const OrgUnitList = t.Object({ orgUnits: t.Array(OrgUnit) });

export const CreateOrgUnitBody = t.Object({ name: Name, parentId: t.Optional(Nullable(RefId)) });
export const UpdateOrgUnitBody = t.Object({
  name: t.Optional(Name),
  parentId: t.Optional(Nullable(RefId)),
  order: t.Optional(UnitOrder),
  leaderUserId: t.Optional(Nullable(RefId)),
});

export const OrgMemberItem = t.Object({
  id: t.String(),
  userId: Nullable(t.String()),
  displayName: t.String(),
  email: Nullable(t.String()),
});
export const OrgMemberPage = t.Object({ members: t.Array(OrgMemberItem), nextCursor: NextCursor });
export const OrgMembersQuery = t.Object({ ...CursorQuery });

export const Position = t.Object({ id: t.String(), name: t.String(), order: Int(), memberCount: Int() });
export const CreatePositionBody = t.Object({ name: Name });
export const UpdatePositionBody = t.Object({ name: t.Optional(Name), order: t.Optional(PositionOrder) });
export const PositionSettings = t.Object({ enabled: t.Boolean(), positions: t.Array(Position) });
export const PositionSettingsBody = t.Object({ enabled: t.Boolean({ error: "must be true or false" }) });
export const PositionSettingsResult = t.Object({ enabled: t.Boolean() });

export const AssignPositionBody = t.Object({ positionId: Nullable(RefId) });
