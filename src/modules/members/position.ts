import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { members } from "../../schema/members";

/** Sets or clears (null) a member's one position; false when the member does not exist. */
export function setMemberPosition(db: Db, memberId: string, positionId: string | null, now = Date.now()): boolean {
  return (
    db.update(members).set({ positionId, updatedAt: now }).where(eq(members.id, memberId)).returning({ id: members.id }).all().length > 0
  );
}

/** Unlinks every member from a position that is being deleted. */
export function clearPosition(db: Db, positionId: string, now = Date.now()) {
  db.update(members).set({ positionId: null, updatedAt: now }).where(eq(members.positionId, positionId)).run();
}
