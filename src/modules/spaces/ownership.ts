import { and, eq } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { forbidden, invalid } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { spaceMembers } from "../../schema/spaces";
import { TAKEOVER_PERMISSION, visibleSpace } from "./access";
import { enrol, enrolmentOf, isBlocked, recordEnrolment } from "./members";
import { spaceRecord } from "./service";

/** The space's owner enrolment, or undefined (an owner whose account was deleted). */
export function ownerOf(db: Actor["db"], spaceId: string) {
  return db
    .select()
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.isOwner, true)))
    .get();
}

/**
 * transferSpaceOwnership (DECISIONS §13): by the owner, or by a holder of tenant-settings:manage (a
 * tenant admin taking over a space whose owner left, docs/rules/members.md#takeover). The new owner, an active tenant member not blocked
 * here (400), becomes ADMIN with isOwner; the old owner stays ADMIN, or PARTICIPANT when inactive.
 */
export function transferSpaceOwnership(rt: Runtime, actor: Actor, spaceId: string, memberId: string, now = Date.now()) {
  return write(actor.db, (tx) => {
    const space = visibleSpace(actor, spaceId, tx);
    const owner = ownerOf(tx, spaceId);
    if (owner?.memberId !== actor.memberId && !actor.permissionSet.has(TAKEOVER_PERMISSION)) throw forbidden();
    const target = tx.select({ isActive: members.isActive }).from(members).where(eq(members.id, memberId)).get();
    if (!target?.isActive) throw invalid("memberId", "is not an active member of this tenant");
    if (isBlocked(tx, spaceId, memberId)) throw invalid("memberId", "is blocked in this space; unblock the member first");
    if (owner?.memberId === memberId) return spaceRecord(tx, { rt, actor }, space);
    if (owner) {
      const stillActive = tx.select({ isActive: members.isActive }).from(members).where(eq(members.id, owner.memberId)).get()?.isActive;
      const role = stillActive ? "ADMIN" : "PARTICIPANT";
      tx.update(spaceMembers)
        .set({ isOwner: false, role })
        .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.memberId, owner.memberId)))
        .run();
      if (role !== owner.role) recordEnrolment(tx, space, [{ memberId: owner.memberId, role }], "ROLE_CHANGED", now);
    }
    const enrolment = enrolmentOf(tx, spaceId, memberId);
    if (enrolment) {
      tx.update(spaceMembers)
        .set({ isOwner: true, role: "ADMIN" })
        .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.memberId, memberId)))
        .run();
      if (enrolment.role !== "ADMIN") recordEnrolment(tx, space, [{ memberId, role: "ADMIN" }], "ROLE_CHANGED", now);
    } else {
      enrol(tx, space, [memberId], "ADMIN", now, true);
    }
    return spaceRecord(tx, { rt, actor }, space);
  });
}
