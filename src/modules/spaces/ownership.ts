import { and, asc, eq, sql } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { forbidden, invalid } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { spaceMembers, spaces } from "../../schema/spaces";
import { type SpaceRow, TAKEOVER_PERMISSION, visibleSpace } from "./access";
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
 * transferSpaceOwnership (docs/rules/spaces.md#ownership): by the owner, or by a holder of tenant-settings:manage (a
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
    moveOwnership(tx, space, owner, memberId, now);
    return spaceRecord(tx, { rt, actor }, space);
  });
}

type Owner = ReturnType<typeof ownerOf>;

/** The move itself (checks done): the new owner becomes ADMIN with isOwner; the old one stays ADMIN, or PARTICIPANT when inactive. */
function moveOwnership(tx: Db, space: SpaceRow, owner: Owner, memberId: string, now: number) {
  if (owner?.memberId === memberId) return;
  if (owner) {
    const stillActive = tx.select({ isActive: members.isActive }).from(members).where(eq(members.id, owner.memberId)).get()?.isActive;
    const role = stillActive ? "ADMIN" : "PARTICIPANT";
    tx.update(spaceMembers)
      .set({ isOwner: false, role })
      .where(and(eq(spaceMembers.spaceId, space.id), eq(spaceMembers.memberId, owner.memberId)))
      .run();
    if (role !== owner.role) recordEnrolment(tx, space, [{ memberId: owner.memberId, role }], "ROLE_CHANGED", now);
  }
  const enrolment = enrolmentOf(tx, space.id, memberId);
  if (enrolment) {
    tx.update(spaceMembers)
      .set({ isOwner: true, role: "ADMIN" })
      .where(and(eq(spaceMembers.spaceId, space.id), eq(spaceMembers.memberId, memberId)))
      .run();
    if (enrolment.role !== "ADMIN") recordEnrolment(tx, space, [{ memberId, role: "ADMIN" }], "ROLE_CHANGED", now);
  } else {
    enrol(tx, space, [memberId], "ADMIN", now, true);
  }
}

/** The spaces a member owns, by name (listMemberOwnership). */
export function ownedSpaces(db: Db, memberId: string) {
  return db
    .select({ id: spaces.id, name: spaces.name, isActive: spaces.isActive })
    .from(spaceMembers)
    .innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId))
    .where(and(eq(spaceMembers.memberId, memberId), eq(spaceMembers.isOwner, true)))
    .orderBy(asc(spaces.name), asc(spaces.id))
    .all();
}

/**
 * handOverMember's spaces (docs/rules/members.md#hand-over): every space `fromId` owns goes to
 * `toId` as transferSpaceOwnership would, in the caller's transaction. A space where `toId` is
 * blocked refuses the whole hand-over (400 naming toMemberId). Returns the space ids.
 */
export function handOverSpaces(tx: Db, fromId: string, toId: string, now: number): string[] {
  const owned = tx
    .select()
    .from(spaces)
    .where(sql`${spaces.id} IN (SELECT space_id FROM space_members WHERE member_id = ${fromId} AND is_owner = 1)`)
    .all();
  for (const space of owned) {
    if (isBlocked(tx, space.id, toId)) throw invalid("toMemberId", "is blocked in a space the member owns; unblock first");
    moveOwnership(tx, space, ownerOf(tx, space.id), toId, now);
  }
  return owned.map((o) => o.id);
}
