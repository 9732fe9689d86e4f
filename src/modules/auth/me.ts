import { and, asc, desc, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { hashPassword, verifyPassword } from "../../platform/auth/password";
import { badRequest } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members, profiles } from "../../schema/members";
import { sessionUserOf } from "./identity";
import type { Profile } from "./model";
import { revokeMemberSessions } from "./session";
import { recordFailure, refuseWhileLocked } from "./sign-in";

export function getCurrentUser(rt: Runtime, actor: Actor) {
  return sessionUserOf(rt, actor.handle, { id: actor.tenantId, key: actor.tenantKey }, actor, actor.accountId);
}

/**
 * changeOwnPassword: checks the current password; the member's other sessions end. Wrong current
 * passwords count toward the same lock-out as sign-in (429 RATE_LIMITED while locked).
 */
export async function changeOwnPassword(rt: Runtime, actor: Actor, input: { currentPassword: string; newPassword: string }) {
  const row = actor.db
    .select({ hash: members.passwordHash, lockedUntil: members.lockedUntil })
    .from(members)
    .where(eq(members.id, actor.memberId))
    .get();
  refuseWhileLocked(row?.lockedUntil ?? null, Date.now());
  if (!(await verifyPassword(input.currentPassword, row?.hash ?? null))) {
    recordFailure(rt, actor.tenantId, actor.memberId, Date.now());
    throw badRequest("INVALID_CURRENT_PASSWORD", "The current password is wrong.");
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = Date.now();
  actor.db
    .update(members)
    .set({ passwordHash, mustChangePassword: false, failedLogins: 0, lockedUntil: null, updatedAt: now })
    .where(eq(members.id, actor.memberId))
    .run();
  revokeMemberSessions(rt, actor.tenantId, actor.memberId, actor.sessionId, now);
}

/**
 * listMyProfiles: the member's learning profiles, main first. `isNew`: the profile was made at or
 * after the member's latest sign-in (it has not been seen in an earlier session).
 */
export function listMyProfiles(actor: Actor): { profiles: Static<typeof Profile>[] } {
  const rows = actor.db
    .select({
      id: profiles.id,
      isMain: profiles.isMain,
      createdAt: profiles.createdAt,
      displayName: members.displayName,
      pictureUrl: members.pictureUrl,
      affiliation: members.affiliation,
      externalMemberCode: members.externalMemberCode,
      lastLoginAt: members.lastLoginAt,
    })
    .from(profiles)
    .innerJoin(members, eq(members.id, profiles.memberId))
    .where(and(eq(profiles.memberId, actor.memberId)))
    .orderBy(desc(profiles.isMain), asc(profiles.createdAt))
    .all();
  return {
    profiles: rows.map((r) => ({
      id: r.id,
      displayName: r.displayName,
      pictureUrl: r.pictureUrl,
      affiliation: r.affiliation,
      externalMemberCode: r.externalMemberCode,
      isMain: r.isMain,
      isNew: r.lastLoginAt === null || r.createdAt >= r.lastLoginAt,
    })),
  };
}
