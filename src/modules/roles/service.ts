import { asc, count, desc, eq } from "drizzle-orm";
import type { Static } from "elysia";
import { requirePermissionsHeld } from "../../platform/access";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, notFound } from "../../platform/http/errors";
import { members } from "../../schema/members";
import { roles } from "../../schema/roles";
import { pendingInvitationsWithRole } from "../invitations/roles";
import type { CreateRoleBody, Role, UpdateRoleBody } from "./model";
import { PERMISSIONS } from "./permissions";

type RoleRow = typeof roles.$inferSelect;

export function toRole(row: RoleRow): Static<typeof Role> {
  return { id: row.id, key: row.key, name: row.name, scope: "tenant", isBuiltin: row.isBuiltin, permissions: row.permissions };
}

/** Deduplicated, in enumeration order. */
const normalize = (codes: readonly string[]) => PERMISSIONS.filter((p) => codes.includes(p));

const isUnique = (e: unknown) => (e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE";
const keyTaken = () => conflict("ALREADY_EXISTS", "A role with this key already exists.");

function roleById(db: Db, id: string): RoleRow {
  const row = db.select().from(roles).where(eq(roles.id, id)).get();
  if (!row) throw notFound();
  return row;
}

/** Every permission of the new role must be held by the caller itself (403). */
export function createRole(actor: Actor, input: Static<typeof CreateRoleBody>, now = Date.now()) {
  const permissions = normalize(input.permissions ?? []);
  requirePermissionsHeld(actor, permissions);
  try {
    return write(actor.db, (tx) => {
      if (tx.select({ id: roles.id }).from(roles).where(eq(roles.key, input.key)).get()) throw keyTaken();
      const row = tx
        .insert(roles)
        .values({
          id: Bun.randomUUIDv7(),
          key: input.key,
          name: input.name,
          isBuiltin: false,
          permissions,
          createdAt: now,
        })
        .returning()
        .get();
      return toRole(row);
    });
  } catch (e) {
    if (isUnique(e)) throw keyTaken();
    throw e;
  }
}

/** A permission added to the role must be held by the caller itself (403); removing one needs no such check. */
export function updateRole(actor: Actor, id: string, input: Static<typeof UpdateRoleBody>) {
  return write(actor.db, (tx) => {
    const row = roleById(tx, id);
    const permissions = input.permissions ? normalize(input.permissions) : row.permissions;
    // A builtin role may be renamed; sending its current permissions unchanged is not a change.
    if (row.isBuiltin && permissions.join() !== normalize(row.permissions).join()) {
      throw conflict("INVALID_STATE", "The permissions of a builtin role cannot be changed.");
    }
    requirePermissionsHeld(
      actor,
      permissions.filter((p) => !row.permissions.includes(p)),
    );
    const updated = tx
      .update(roles)
      .set({ name: input.name ?? row.name, permissions })
      .where(eq(roles.id, id))
      .returning()
      .get();
    return toRole(updated as RoleRow);
  });
}

export function listRoles(db: Db) {
  const rows = db.select().from(roles).orderBy(desc(roles.isBuiltin), asc(roles.name), asc(roles.id)).all();
  return { roles: rows.map(toRole) };
}

export function deleteRole(db: Db, id: string, now = Date.now()) {
  write(db, (tx) => {
    const row = roleById(tx, id);
    if (row.isBuiltin) throw conflict("INVALID_STATE", "A builtin role cannot be deleted.");
    const held = tx.select({ n: count() }).from(members).where(eq(members.roleId, id)).get()?.n ?? 0;
    const invited = pendingInvitationsWithRole(tx, id, now);
    if (held > 0 || invited > 0) throw conflict("IN_USE", "The role is held by a member or a pending invitation.");
    tx.delete(roles).where(eq(roles.id, id)).run();
  });
}
