// Who is enrolled where: the gradebook's active participants (DECISIONS §13 Gradebook, §6 Members 4), a member's spaces.
import { and, asc, eq, inArray } from "drizzle-orm";
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
