// The link from a group assignment or peer assessment config to a space group set (docs/rules/group-work.md#group-set-link,
// docs/rules/spaces.md#group-sets): who may link a set, whether a link still works, and the groups
// and members behind it. Peer assessments use these too.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { members, profiles } from "../../schema/members";
import { spaceGroupMembers, spaceGroupSets, spaceGroups, spaceMembers } from "../../schema/spaces";
import { groupAssignmentConfigs } from "./tables";

export type StoredLink = {
  spaceGroupSetId: string | null;
  spaceGroupSetName: string | null;
  linkInvalidReason: "GROUP_SET_DELETED" | null;
};
export type LinkStatus = {
  spaceGroupSetName: string | null;
  isLinkValid: boolean;
  linkInvalidReason: "NOT_LINKED" | "GROUP_SET_DELETED" | null;
};

/**
 * The set a config may link: one created in a space where the caller is ADMIN, else 400 naming the
 * field (unknown, another tenant's and a set of a space the caller does not administer alike).
 */
export function requireLinkableSet(db: Db, actor: Actor, setId: string, field = "spaceGroupSetId") {
  const set = db
    .select({ id: spaceGroupSets.id, name: spaceGroupSets.name })
    .from(spaceGroupSets)
    .innerJoin(
      spaceMembers,
      and(eq(spaceMembers.spaceId, spaceGroupSets.spaceId), eq(spaceMembers.memberId, actor.memberId), eq(spaceMembers.role, "ADMIN")),
    )
    .where(eq(spaceGroupSets.id, setId))
    .get();
  if (!set) throw invalid(field, "must be a group set of a space where you are ADMIN");
  return set;
}

/**
 * The link as the config results show it. A set that is gone counts as GROUP_SET_DELETED even when
 * the delete hook did not run (a deleted space takes its sets with it). The live name wins over the copy.
 */
export function linkStatus(db: Db, link: StoredLink): LinkStatus {
  if (link.spaceGroupSetId === null) return { spaceGroupSetName: null, isLinkValid: false, linkInvalidReason: "NOT_LINKED" };
  const live =
    link.linkInvalidReason === null
      ? db.select({ name: spaceGroupSets.name }).from(spaceGroupSets).where(eq(spaceGroupSets.id, link.spaceGroupSetId)).get()
      : undefined;
  if (!live) return { spaceGroupSetName: link.spaceGroupSetName, isLinkValid: false, linkInvalidReason: "GROUP_SET_DELETED" };
  return { spaceGroupSetName: live.name, isLinkValid: true, linkInvalidReason: null };
}

/**
 * Called by deleteSpaceGroupSet inside its transaction, before the set row goes: group-assignment
 * configs linked to it keep the link and its name and become GROUP_SET_DELETED.
 */
export function markGroupAssignmentLinksDeleted(tx: Db, setId: string) {
  tx.update(groupAssignmentConfigs)
    .set({ linkInvalidReason: "GROUP_SET_DELETED" })
    .where(eq(groupAssignmentConfigs.spaceGroupSetId, setId))
    .run();
}

export type SetGroup = { id: string; name: string };

/** The caller's group in a set (a member is in at most one), or null. */
export function memberGroup(db: Db, setId: string, memberId: string): SetGroup | null {
  return (
    db
      .select({ id: spaceGroups.id, name: spaceGroups.name })
      .from(spaceGroupMembers)
      .innerJoin(spaceGroups, eq(spaceGroups.id, spaceGroupMembers.groupId))
      .where(and(eq(spaceGroupMembers.setId, setId), eq(spaceGroupMembers.memberId, memberId)))
      .get() ?? null
  );
}

/** The groups of a set in their order. */
export function setGroups(db: Db, setId: string): SetGroup[] {
  return db
    .select({ id: spaceGroups.id, name: spaceGroups.name })
    .from(spaceGroups)
    .where(eq(spaceGroups.setId, setId))
    .orderBy(asc(spaceGroups.position))
    .all();
}

export type GroupPerson = { setId: string; groupId: string; memberId: string; profileId: string; displayName: string };

/** The current members of some groups (one query), each with the main profile, in group order. */
export function groupPeople(db: Db, by: { setId: string } | { setIds: string[] } | { groupIds: string[] }): GroupPerson[] {
  const where =
    "setId" in by
      ? eq(spaceGroupMembers.setId, by.setId)
      : "setIds" in by
        ? by.setIds.length
          ? inArray(spaceGroupMembers.setId, by.setIds)
          : undefined
        : by.groupIds.length
          ? inArray(spaceGroupMembers.groupId, by.groupIds)
          : undefined;
  if (!where) return [];
  return db
    .select({
      setId: spaceGroupMembers.setId,
      groupId: spaceGroupMembers.groupId,
      memberId: spaceGroupMembers.memberId,
      profileId: profiles.id,
      displayName: members.displayName,
    })
    .from(spaceGroupMembers)
    .innerJoin(members, eq(members.id, spaceGroupMembers.memberId))
    .innerJoin(profiles, and(eq(profiles.memberId, spaceGroupMembers.memberId), eq(profiles.isMain, true)))
    .where(where)
    .orderBy(asc(spaceGroupMembers.groupId), asc(spaceGroupMembers.position))
    .all();
}
