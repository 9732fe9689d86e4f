import { and, asc, eq } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import { members } from "../../schema/members";
import { spaceBlocks } from "../../schema/spaces";
import { requireSpaceAdmin } from "./access";
import { endEnrolment, enrolmentOf } from "./members";

/** All blocks of the space, oldest first. */
function blocksOf(db: Db, spaceId: string) {
  const rows = db
    .select({
      id: spaceBlocks.id,
      userId: spaceBlocks.memberId,
      displayName: members.displayName,
      reason: spaceBlocks.reason,
      createdAt: spaceBlocks.createdAt,
    })
    .from(spaceBlocks)
    .innerJoin(members, eq(members.id, spaceBlocks.memberId))
    .where(eq(spaceBlocks.spaceId, spaceId))
    .orderBy(asc(spaceBlocks.createdAt), asc(spaceBlocks.id))
    .all();
  return { blocks: rows.map((r) => ({ ...r, createdAt: isoRequired(r.createdAt) })) };
}

export function listSpaceBlocks(actor: Actor, spaceId: string) {
  requireSpaceAdmin(actor, spaceId);
  return blocksOf(actor.db, spaceId);
}

/**
 * Blocks a member of the tenant (enrolled or not; unknown: 400) and ends their enrolment. The owner
 * cannot be blocked (409 INVALID_STATE); a block already present: 409 ALREADY_EXISTS.
 */
export function blockSpaceUser(actor: Actor, spaceId: string, input: { userId: string; reason?: string | null }, now = Date.now()) {
  return write(actor.db, (tx) => {
    const space = requireSpaceAdmin(actor, spaceId, tx);
    if (!tx.select({ id: members.id }).from(members).where(eq(members.id, input.userId)).get()) {
      throw invalid("userId", "is not a member of this tenant");
    }
    const enrolment = enrolmentOf(tx, spaceId, input.userId);
    if (enrolment?.isOwner) throw conflict("INVALID_STATE", "The owner of a space cannot be blocked.");
    const existing = tx
      .select({ id: spaceBlocks.id })
      .from(spaceBlocks)
      .where(and(eq(spaceBlocks.spaceId, spaceId), eq(spaceBlocks.memberId, input.userId)))
      .get();
    if (existing) throw conflict("ALREADY_EXISTS", "This member is already blocked in the space.");
    if (enrolment) endEnrolment(tx, space, enrolment, "BLOCKED", now);
    tx.insert(spaceBlocks)
      .values({ id: Bun.randomUUIDv7(), spaceId, memberId: input.userId, reason: input.reason ?? null, createdAt: now })
      .run();
    return blocksOf(tx, spaceId);
  });
}

/** Lifts a block (not blocked: 404); does not re-enrol. */
export function unblockSpaceUser(actor: Actor, spaceId: string, memberId: string) {
  return write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    const gone = tx
      .delete(spaceBlocks)
      .where(and(eq(spaceBlocks.spaceId, spaceId), eq(spaceBlocks.memberId, memberId)))
      .returning({ id: spaceBlocks.id })
      .all();
    if (gone.length === 0) throw notFound("This member is not blocked in the space.");
    return blocksOf(tx, spaceId);
  });
}
