import { and, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { tenants } from "../../platform/db/platform-tables";
import { indexMember, unindexMember } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { roles } from "../../schema/roles";
import { revokeMemberSessions } from "../auth/session";
import { loadMember } from "./list";
import type { UpdateMemberBody } from "./model";
import { checkNoEscalation, existingConflicts } from "./service";

/** The member with its role, or null: what role changes and deactivation are decided on. */
export function memberWithRole(db: Db, id: string) {
  return (
    db
      .select({
        id: members.id,
        email: members.email,
        userId: members.userId,
        isActive: members.isActive,
        roleKey: roles.key,
        isBuiltin: roles.isBuiltin,
        permissions: roles.permissions,
      })
      .from(members)
      .innerJoin(roles, eq(roles.id, members.roleId))
      .where(eq(members.id, id))
      .get() ?? null
  );
}

export const holdsOwnerRole = (r: { roleKey: string; isBuiltin: boolean }) => r.isBuiltin && r.roleKey === "owner";

/**
 * PATCH (docs/rules/members.md#login-identity, docs/rules/members.md#deactivation): absent fields unchanged. Changing the login identity or the
 * active flag takes the member over, so it needs the caller to hold every permission the member
 * has (403), as resetMemberPassword. A member keeps an e-mail or a userId (400); a taken one is
 * 409. Deactivating the caller or an owner is 409; deactivation ends the member's sessions here.
 */
export function updateMember(rt: Runtime, actor: Actor, id: string, input: Static<typeof UpdateMemberBody>, now = Date.now()) {
  const change = write(actor.db, (tx) => applyMemberUpdate(tx, actor, id, input, now));
  afterMemberUpdate(rt, actor, id, change, now);
  return loadMember(actor.handle.sqlite, id);
}

export type MemberChange = ReturnType<typeof applyMemberUpdate>;

/** updateMember's checks and write in the caller's transaction; afterMemberUpdate follows once it commits. */
export function applyMemberUpdate(tx: Db, actor: Actor, id: string, input: Static<typeof UpdateMemberBody>, now: number) {
  const takesOver = input.email !== undefined || input.userId !== undefined || input.isActive !== undefined;
  {
    const row = memberWithRole(tx, id);
    if (!row) throw notFound();
    if (takesOver) checkNoEscalation(actor, id, row.permissions);
    const email = input.email === undefined ? row.email : (input.email?.toLowerCase() ?? null);
    const userId = input.userId === undefined ? row.userId : input.userId;
    if (!email && !userId) throw invalid(input.email === null ? "email" : "userId", "a member keeps an e-mail or a userId");
    if (input.isActive === false && (id === actor.memberId || holdsOwnerRole(row))) {
      throw conflict("INVALID_STATE", "The caller and holders of the owner role cannot be deactivated.");
    }
    // Checked inside the IMMEDIATE transaction: no other write can take the value meanwhile.
    existingConflicts({ db: tx }, input.userId, input.email, id);
    tx.update(members)
      .set({
        ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
        ...(input.affiliation !== undefined ? { affiliation: input.affiliation } : {}),
        ...(input.externalMemberCode !== undefined ? { externalMemberCode: input.externalMemberCode } : {}),
        ...(input.userId !== undefined ? { userId, userIdKey: input.userId.toLowerCase() } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        email,
        // A typed e-mail is unproved (docs/rules/trust.md#e-mails-an-administrator-typed).
        ...(email !== row.email ? { emailVerifiedAt: null } : {}),
        updatedAt: now,
      })
      .where(eq(members.id, id))
      .run();
    return { oldEmail: row.email, email, deactivated: input.isActive === false && row.isActive };
  }
}

/** What follows a committed member update: the platform directory, and the sessions of a deactivated member. */
export function afterMemberUpdate(rt: Runtime, actor: Actor, id: string, change: MemberChange, now: number) {
  if (change.oldEmail !== change.email) {
    // The directory follows at once: code sign-in and tenant lists find the member by its new e-mail.
    write(rt.platform.db, (tx) => {
      unindexMember(tx, change.oldEmail, actor.tenantId);
      indexMember(tx, change.email, actor.tenantId, id);
      if (change.oldEmail && change.email) {
        tx.update(tenants)
          .set({ ownerEmail: change.email })
          .where(and(eq(tenants.id, actor.tenantId), eq(tenants.ownerEmail, change.oldEmail)))
          .run();
      }
    });
  }
  if (change.deactivated) revokeMemberSessions(rt, actor.tenantId, id, null, now);
}
