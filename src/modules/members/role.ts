import { and, count, eq } from "drizzle-orm";
import { requirePermissionsHeld } from "../../platform/access";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, forbidden, invalid, notFound } from "../../platform/http/errors";
import { members } from "../../schema/members";
import { roles } from "../../schema/roles";
import { roleByKey } from "../roles/builtin";
import { loadMember } from "./list";
import { holdsOwnerRole, memberWithRole } from "./update";

/**
 * setMemberRole (docs/rules/members.md#role): the role must exist (400) and hold only permissions the caller
 * holds (403); only an owner changes another owner's role (403); nobody changes their own, and the
 * last active owner keeps it (409). Permissions are resolved per request, so the member's next
 * request already has the new role.
 */
export function setMemberRole(actor: Actor, id: string, roleKey: string, now = Date.now()) {
  write(actor.db, (tx) => applyMemberRole(tx, actor, id, roleKey, now));
  return loadMember(actor.handle.sqlite, id);
}

/** setMemberRole's checks and write in the caller's transaction. */
export function applyMemberRole(tx: Db, actor: Actor, id: string, roleKey: string, now: number) {
  {
    const role = roleByKey(tx, roleKey);
    if (!role) throw invalid("roleKey", "does not name an existing role");
    const target = memberWithRole(tx, id);
    if (!target) throw notFound();
    requirePermissionsHeld(actor, role.permissions);
    if (holdsOwnerRole(target) && actor.roleKey !== "owner") {
      throw forbidden("FORBIDDEN", "Only a holder of the owner role changes the role of another owner.");
    }
    if (id === actor.memberId) throw conflict("INVALID_STATE", "Nobody changes their own role.");
    if (holdsOwnerRole(target) && !holdsOwnerRole({ roleKey: role.key, isBuiltin: role.isBuiltin })) {
      const owners =
        tx
          .select({ n: count() })
          .from(members)
          .innerJoin(roles, eq(roles.id, members.roleId))
          .where(and(eq(roles.key, "owner"), eq(roles.isBuiltin, true), eq(members.isActive, true)))
          .get()?.n ?? 0;
      if (owners - (target.isActive ? 1 : 0) < 1) throw conflict("INVALID_STATE", "The last active owner keeps the owner role.");
    }
    tx.update(members).set({ roleId: role.id, updatedAt: now }).where(eq(members.id, id)).run();
  }
}
