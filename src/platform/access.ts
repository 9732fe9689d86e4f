import type { Actor } from "./auth/actor";
import { forbidden } from "./http/errors";

/**
 * Access decisions that a route's `auth` value cannot make alone (docs/rules/access.md#auth-values). Permission rules
 * are enforced by the auth macro before validation; record rules (space and content roles) are
 * decided here by the services once the record is found: invisible → 404 (the service's lookup),
 * visible but not allowed → 403.
 */
export function hasPermission(actor: Actor, code: string): boolean {
  return actor.permissionSet.has(code);
}

export function requirePermission(actor: Actor, code: string): void {
  if (!actor.permissionSet.has(code)) throw forbidden();
}

/**
 * Handing out a role other than the default `member` (creating a member, inviting) needs
 * `member:manage-role` too: otherwise `member:invite` alone could mint owners. And nobody hands
 * out a role carrying a permission the caller does not hold itself (effective permissions).
 */
export function requireRoleAssignable(actor: Actor, role: { key: string; permissions: string[] }): void {
  if (role.key !== "member" && !actor.permissionSet.has("member:manage-role")) {
    throw forbidden("FORBIDDEN", "Assigning this role needs the member:manage-role permission.");
  }
  requirePermissionsHeld(actor, role.permissions);
}

/**
 * Nobody hands out a permission it does not hold itself (effective permissions: role and grants):
 * assigning a role, granting a permission (or enabling it for all), adding it to a role. Taking
 * one away needs no such check.
 */
export function requirePermissionsHeld(actor: Pick<Actor, "permissionSet">, codes: Iterable<string>): void {
  for (const code of codes) {
    if (!actor.permissionSet.has(code)) throw forbidden("FORBIDDEN", "You cannot hand out a permission you do not hold.");
  }
}
