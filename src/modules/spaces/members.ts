import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { type Cursors, decodeKeyset } from "../../platform/http/cursor";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { members } from "../../schema/members";
import {
  type EnrolmentEvent,
  type SpaceRole,
  spaceBlocks,
  spaceEnrollmentEvents,
  spaceGroupMembers,
  spaceGroupSets,
  spaceMembers,
} from "../../schema/spaces";
import { requireMemberIds } from "../groups/lookup";
import { requireSpaceAdmin, requireSpaceMember, type SpaceRow, spaceForTakeover } from "./access";
import { enrolmentEnded } from "./hooks";
import type { SpaceMember, SpaceMemberPage } from "./model";

const MEMBERS_OP = "listSpaceMembers";
export const FIRST_PAGE = 30;

type MemberItem = Static<typeof SpaceMember>;

const memberColumns = {
  id: members.id,
  userId: members.userId,
  displayName: members.displayName,
  email: members.email,
  role: spaceMembers.role,
  isOwner: spaceMembers.isOwner,
  createdAt: spaceMembers.createdAt,
};

const toSpaceMember = ({ createdAt: _c, ...m }: MemberItem & { createdAt: number }): MemberItem => m;

/**
 * Whether the member holds a space together: it owns one (the owner cannot be removed), or it is
 * the only ADMIN of one. Deleting such a member would leave a space nobody can manage.
 */
export function holdsASpace(db: Db, memberId: string): boolean {
  const otherAdmin = sql`EXISTS (SELECT 1 FROM ${spaceMembers} o WHERE o.space_id = ${spaceMembers.spaceId}
    AND o.role = 'ADMIN' AND o.member_id <> ${spaceMembers.memberId})`;
  const row = db
    .select({ spaceId: spaceMembers.spaceId })
    .from(spaceMembers)
    .where(
      and(
        eq(spaceMembers.memberId, memberId),
        sql`(${spaceMembers.isOwner} = 1 OR (${spaceMembers.role} = 'ADMIN' AND NOT ${otherAdmin}))`,
      ),
    )
    .limit(1)
    .get();
  return row !== undefined;
}

/** One page of a space's members in enrolment order (created_at, member id). */
export function membersPage(db: Db, cursors: Cursors, spaceId: string, after: [number, string] | null, limit: number) {
  const rows = db
    .select(memberColumns)
    .from(spaceMembers)
    .innerJoin(members, eq(members.id, spaceMembers.memberId))
    .where(
      and(
        eq(spaceMembers.spaceId, spaceId),
        after ? sql`(${spaceMembers.createdAt}, ${spaceMembers.memberId}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(spaceMembers.createdAt), asc(spaceMembers.memberId))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? cursors.encode(MEMBERS_OP, { spaceId }, [last.createdAt, last.id]) : null;
  return { members: page.map(toSpaceMember), nextCursor } satisfies Static<typeof SpaceMemberPage>;
}

export function listSpaceMembers(actor: Actor, cursors: Cursors, spaceId: string, q: { cursor?: string; limit?: number }) {
  const after = decodeKeyset(cursors, MEMBERS_OP, { spaceId }, q.cursor);
  requireSpaceMember(actor, spaceId);
  return membersPage(actor.db, cursors, spaceId, after, q.limit ?? FIRST_PAGE);
}

/** The caller's (or anyone's) enrolment as a SpaceMember item, or null. */
export function spaceMemberItem(db: Db, spaceId: string, memberId: string): MemberItem | null {
  const row = db
    .select(memberColumns)
    .from(spaceMembers)
    .innerJoin(members, eq(members.id, spaceMembers.memberId))
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.memberId, memberId)))
    .get();
  return row ? toSpaceMember(row) : null;
}

/** Records enrolment changes while the space retains its enrolment history (docs/rules/spaces.md#enrolment-history). */
export function recordEnrolment(
  tx: Db,
  space: Pick<SpaceRow, "id" | "retainEnrollmentHistory">,
  changes: { memberId: string; role: SpaceRole }[],
  event: EnrolmentEvent,
  now: number,
) {
  if (!space.retainEnrollmentHistory || changes.length === 0) return;
  tx.insert(spaceEnrollmentEvents)
    .values(changes.map((c) => ({ id: Bun.randomUUIDv7(), spaceId: space.id, memberId: c.memberId, event, role: c.role, at: now })))
    .run();
}

/** Enrols the members not enrolled yet (the enrolled stay unchanged) and records their JOINED. */
export function enrol(
  tx: Db,
  space: Pick<SpaceRow, "id" | "retainEnrollmentHistory">,
  memberIds: string[],
  role: SpaceRole,
  now: number,
  isOwner = false,
) {
  if (memberIds.length === 0) return;
  const joined = tx
    .insert(spaceMembers)
    .values(memberIds.map((memberId) => ({ spaceId: space.id, memberId, role, isOwner, createdAt: now })))
    .onConflictDoNothing()
    .returning({ memberId: spaceMembers.memberId })
    .all();
  recordEnrolment(
    tx,
    space,
    joined.map((j) => ({ memberId: j.memberId, role })),
    "JOINED",
    now,
  );
}

export function isBlocked(db: Db, spaceId: string, memberId: string): boolean {
  return (
    db
      .select({ id: spaceBlocks.id })
      .from(spaceBlocks)
      .where(and(eq(spaceBlocks.spaceId, spaceId), eq(spaceBlocks.memberId, memberId)))
      .get() !== undefined
  );
}

/**
 * Enrols members; the enrolled stay unchanged, inactive ones are skipped (docs/rules/spaces.md#enrolment).
 * A blocked member is refused (400): unblock first. A holder of tenant-settings:manage may add to
 * any space of the tenant, itself included, as ADMIN (docs/rules/members.md#takeover).
 */
export function addSpaceMembers(actor: Actor, cursors: Cursors, spaceId: string, userIds: string[], role: SpaceRole, now = Date.now()) {
  return write(actor.db, (tx) => {
    const space = role === "ADMIN" ? spaceForTakeover(actor, spaceId, tx) : requireSpaceAdmin(actor, spaceId, tx);
    const ids = requireMemberIds(tx, userIds);
    const blocked = new Set(
      tx
        .select({ id: spaceBlocks.memberId })
        .from(spaceBlocks)
        .where(and(eq(spaceBlocks.spaceId, spaceId), inArray(spaceBlocks.memberId, ids)))
        .all()
        .map((r) => r.id),
    );
    const i = userIds.findIndex((id) => blocked.has(id));
    if (i >= 0) throw invalid(`userIds[${i}]`, "is blocked in this space; unblock the member first");
    enrol(tx, space, ids, role, now);
    return membersPage(tx, cursors, spaceId, null, FIRST_PAGE);
  });
}

export type EndReason = "LEFT" | "REMOVED" | "BLOCKED";

/**
 * Ends an enrolment: the member leaves the space's groups (sets only hold enrolled members) and
 * the space's challenges; the end is recorded while the space retains enrolment history.
 */
export function endEnrolment(tx: Db, space: SpaceRow, enrolment: { memberId: string; role: SpaceRole }, reason: EndReason, now: number) {
  tx.delete(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, space.id), eq(spaceMembers.memberId, enrolment.memberId)))
    .run();
  tx.delete(spaceGroupMembers)
    .where(
      and(
        eq(spaceGroupMembers.memberId, enrolment.memberId),
        inArray(
          spaceGroupMembers.setId,
          tx.select({ id: spaceGroupSets.id }).from(spaceGroupSets).where(eq(spaceGroupSets.spaceId, space.id)),
        ),
      ),
    )
    .run();
  enrolmentEnded(tx, space.id, enrolment.memberId);
  recordEnrolment(tx, space, [enrolment], reason, now);
}

export function enrolmentOf(db: Db, spaceId: string, memberId: string) {
  return db
    .select()
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.memberId, memberId)))
    .get();
}

/** Not enrolled: 404. The owner cannot be removed (409). Removal is not a block. */
export function removeSpaceMember(actor: Actor, spaceId: string, memberId: string, now = Date.now()) {
  write(actor.db, (tx) => {
    const space = requireSpaceAdmin(actor, spaceId, tx);
    const enrolment = enrolmentOf(tx, spaceId, memberId);
    if (!enrolment) throw notFound("This member is not enrolled in the space.");
    if (enrolment.isOwner) throw conflict("INVALID_STATE", "The owner of a space cannot be removed.");
    endEnrolment(tx, space, enrolment, "REMOVED", now);
  });
}

export function updateSpaceMemberRole(actor: Actor, spaceId: string, memberId: string, role: SpaceRole, now = Date.now()) {
  return write(actor.db, (tx) => {
    const space = requireSpaceAdmin(actor, spaceId, tx);
    const enrolment = enrolmentOf(tx, spaceId, memberId);
    if (!enrolment) throw notFound("This member is not enrolled in the space.");
    if (enrolment.isOwner) throw conflict("INVALID_STATE", "The owner's role cannot be changed.");
    tx.update(spaceMembers)
      .set({ role })
      .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.memberId, memberId)))
      .run();
    if (enrolment.role !== role) recordEnrolment(tx, space, [{ memberId, role }], "ROLE_CHANGED", now);
    return spaceMemberItem(tx, spaceId, memberId) as MemberItem;
  });
}

/** A PARTICIPANT of an exitRestricted space may not leave; the owner never (409). */
export function leaveSpace(actor: Actor, spaceId: string, now = Date.now()) {
  write(actor.db, (tx) => {
    const space = requireSpaceMember(actor, spaceId, tx);
    const enrolment = enrolmentOf(tx, spaceId, actor.memberId);
    if (!enrolment) throw notFound();
    if (enrolment.isOwner) throw conflict("INVALID_STATE", "The owner cannot leave the space.");
    if (space.exitRestricted && enrolment.role === "PARTICIPANT") {
      throw conflict("EXIT_RESTRICTED", "Participants may not leave this space.");
    }
    endEnrolment(tx, space, enrolment, "LEFT", now);
  });
}
