// Who is enrolled where: the gradebook's active participants (docs/rules/spaces.md#roster), a member's spaces.
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { members, profiles } from "../../schema/members";
import { spaceMembers, spaces } from "../../schema/spaces";

export type RosterEntry = { memberId: string; profileId: string; displayName: string; userId: string | null };

/** Enrolled PARTICIPANTs whose member is active, each with the main profile, by name: one query. */
export function activeParticipants(db: Db, spaceId: string): RosterEntry[] {
  return db
    .select({ memberId: members.id, profileId: profiles.id, displayName: members.displayName, userId: members.userId })
    .from(spaceMembers)
    .innerJoin(members, and(eq(members.id, spaceMembers.memberId), eq(members.isActive, true)))
    .innerJoin(profiles, and(eq(profiles.memberId, spaceMembers.memberId), eq(profiles.isMain, true)))
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.role, "PARTICIPANT")))
    .orderBy(asc(members.displayName), asc(members.id))
    .all();
}

export type Enrolment = { id: string; name: string; isActive: boolean };

/** Each member's enrolled spaces (any role), by name: one query over space_members(member_id, space_id). */
export function enrolledSpaces(db: Db, memberIds: string[]): Map<string, Enrolment[]> {
  const out = new Map<string, Enrolment[]>(memberIds.map((id) => [id, []]));
  if (memberIds.length === 0) return out;
  const rows = db
    .select({ memberId: spaceMembers.memberId, id: spaces.id, name: spaces.name, isActive: spaces.isActive })
    .from(spaceMembers)
    .innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId))
    .where(inArray(spaceMembers.memberId, memberIds))
    .orderBy(asc(spaces.name), asc(spaces.id))
    .all();
  for (const { memberId, ...space } of rows) out.get(memberId)?.push(space);
  return out;
}

export type GradebookEntry = RosterEntry & { isActive: boolean };

/**
 * The gradebook's rows with `includeInactive` (docs/rules/next-year.md#gradebook): the active
 * participants, then (isActive false) enrolled participants who were deactivated, members whose
 * enrolment as PARTICIPANT ended (enrolment events), and any other profile named in `profileIds`
 * (those with a grade in the space). One query.
 */
export function gradebookRoster(db: Db, spaceId: string, profileIds: string[]): GradebookEntry[] {
  const enrolled = sql`(SELECT sm.member_id FROM space_members sm WHERE sm.space_id = ${spaceId} AND sm.role = 'PARTICIPANT')`;
  const former = sql`(SELECT e.member_id FROM space_enrollment_events e WHERE e.space_id = ${spaceId} AND e.role = 'PARTICIPANT')`;
  const named = profileIds.length ? inArray(profiles.id, profileIds) : sql`0`;
  const rows = db
    .select({
      memberId: members.id,
      profileId: profiles.id,
      displayName: members.displayName,
      userId: members.userId,
      isMain: profiles.isMain,
      memberActive: members.isActive,
      isEnrolled: sql<number>`${members.id} IN ${enrolled}`,
    })
    .from(profiles)
    .innerJoin(members, eq(members.id, profiles.memberId))
    .where(or(and(eq(profiles.isMain, true), sql`(${members.id} IN ${enrolled} OR ${members.id} IN ${former})`), named))
    .orderBy(asc(members.displayName), asc(members.id))
    .all();
  return rows.map((r) => ({
    memberId: r.memberId,
    profileId: r.profileId,
    displayName: r.displayName,
    userId: r.userId,
    isActive: r.memberActive && Boolean(r.isEnrolled),
  }));
}

/** The main profiles of the space's enrolled PARTICIPANTs (active or not): one query. */
export function enrolledParticipantProfiles(db: Db, spaceId: string): Set<string> {
  return new Set(
    db
      .select({ profileId: profiles.id })
      .from(spaceMembers)
      .innerJoin(profiles, and(eq(profiles.memberId, spaceMembers.memberId), eq(profiles.isMain, true)))
      .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.role, "PARTICIPANT")))
      .all()
      .map((r) => r.profileId),
  );
}
