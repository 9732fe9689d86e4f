// Clean-ups other modules call inside their own transaction.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { challengeCompletions, challengeMembers, challenges } from "./tables";

/**
 * An enrolment ended (left, removed or blocked): the member also leaves the space's challenges,
 * with their completions (DECISIONS §9.2 leaveSpace). Walks (member_id, …) indexes.
 */
export function leaveSpaceChallenges(tx: Db, spaceId: string, memberId: string): void {
  const ofSpace = tx.select({ id: challenges.id }).from(challenges).where(eq(challenges.spaceId, spaceId));
  tx.delete(challengeCompletions)
    .where(and(eq(challengeCompletions.memberId, memberId), inArray(challengeCompletions.challengeId, ofSpace)))
    .run();
  tx.delete(challengeMembers)
    .where(and(eq(challengeMembers.memberId, memberId), inArray(challengeMembers.challengeId, ofSpace)))
    .run();
}
