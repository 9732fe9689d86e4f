// The space's active participants, for the gradebook (DECISIONS §13 Gradebook, §6 Members 4).
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { members, profiles } from "../../schema/members";
import { spaceMembers } from "../../schema/spaces";

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
