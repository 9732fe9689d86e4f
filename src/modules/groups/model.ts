import { t } from "elysia";
import { Id, Int, Nullable, PageFields, PageQuery, Timestamp } from "../../platform/http/schemas";

const Name = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
// No bound of its own; 2000 keeps a free-text field from growing without limit.
const Description = Nullable(t.String({ maxLength: 2000, error: "must be at most 2000 characters or null" }));

/** A member reference in a group's member list: `id` = Member.id, `userId` = login identifier. */
export const GroupMemberItem = t.Object({
  id: t.String(),
  userId: Nullable(t.String()),
  displayName: t.String(),
  email: Nullable(t.String()),
});

export const Group = t.Object({
  id: t.String(),
  name: t.String(),
  description: Nullable(t.String()),
  memberCount: Int(),
  createdAt: Timestamp,
});
export const GroupDetail = t.Object({ ...Group.properties, members: t.Array(GroupMemberItem) });

export const PlainGroup = t.Object({
  id: t.String(),
  name: t.String(),
  description: Nullable(t.String()),
  memberCount: Int(),
});
export const PlainGroupDetail = t.Object({ ...PlainGroup.properties, members: t.Array(GroupMemberItem) });

export const CreateGroupBody = t.Object({ name: Name, description: t.Optional(Description) });
export const UpdateGroupBody = t.Object({ name: t.Optional(Name), description: t.Optional(Description) });

/** Member ids (Member.id) to add: 1..500. */
export const UserIdsBody = t.Object({
  userIds: t.Array(t.String({ minLength: 1, maxLength: 255, error: "must be a member id" }), {
    minItems: 1,
    maxItems: 500,
    error: "must be a list of 1..500 member ids",
  }),
});

export const GroupParams = t.Object({ groupId: Id });
export const GroupMemberParams = t.Object({ groupId: Id, userPkId: Id });
export const PlainGroupParams = t.Object({ plainGroupId: Id });
export const PlainGroupMemberParams = t.Object({ plainGroupId: Id, userPkId: Id });

export const Search = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
export const ListGroupsQuery = t.Object({ ...PageQuery, search: t.Optional(Search) });

export const GroupList = t.Object({ groups: t.Array(Group), ...PageFields });
export const PlainGroupList = t.Object({ plainGroups: t.Array(PlainGroup), ...PageFields });
