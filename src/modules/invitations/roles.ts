// What the roles module needs of invitations: whether a role is still promised to someone.
import { and, count, eq, gt } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { invitations } from "./tables";

/** Pending, unexpired invitations that would give this role. */
export function pendingInvitationsWithRole(db: Db, roleId: string, now: number): number {
  return (
    db
      .select({ n: count() })
      .from(invitations)
      .where(and(eq(invitations.roleId, roleId), eq(invitations.status, "pending"), gt(invitations.expiresAt, now)))
      .get()?.n ?? 0
  );
}
