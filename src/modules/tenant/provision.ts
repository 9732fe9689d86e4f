import { rmSync } from "node:fs";
import { tenants } from "../../platform/db/platform-tables";
import { indexMember, tenantByKey } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import { conflict } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { insertMember } from "../members/create";
import { roleByKey, seedBuiltinRoles } from "../roles/builtin";
import { tenantSettings } from "./tables";

export type NewTenant = {
  key: string;
  name: string;
  /** `emailVerifiedAt`: absent at sign-up (verifySignUpCode proves it: docs/rules/trust.md#e-mails-an-administrator-typed). */
  owner: { email: string; displayName: string; passwordHash: string | null; userId?: string | null; emailVerifiedAt?: number };
};

/** Closes and deletes a tenant's file and its side files (a failed provisioning, a discarded sign-up tenant). */
export function removeTenantFile(rt: Runtime, tenantId: string) {
  rt.tenants.drop(tenantId);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(rt.tenants.fileOf(tenantId) + suffix, { force: true });
}

/**
 * Creates a tenant: its own file (roles, settings, the owner member) first, then the registry and
 * directory rows in the platform file. A failure removes the new file again. `opts.tenantId` is an
 * id chosen ahead (sign-up marks it pending first); `opts.registered` joins the registry's commit.
 */
export function provisionTenant(
  rt: Runtime,
  input: NewTenant,
  now = Date.now(),
  opts: { tenantId?: string; registered?: (tx: Db) => void } = {},
) {
  const made = provision(rt, input, now, opts);
  if (!made.owner) throw new Error("owner missing");
  return { ...made, memberId: made.owner.id, profileId: made.owner.profileId };
}

/**
 * A tenant whose owner is not a member yet (`learnspace tenant create`): the owner joins by an
 * invitation that lets them choose their password (docs/rules/trust.md#who-may-create-a-tenant).
 */
export function provisionTenantForInvitedOwner(rt: Runtime, input: { key: string; name: string; ownerEmail: string }, now = Date.now()) {
  const made = provision(
    rt,
    { key: input.key, name: input.name, owner: { email: input.ownerEmail, displayName: "", passwordHash: null } },
    now,
    {
      inviteOwner: true,
    },
  );
  return { id: made.tenantId, key: made.tenantKey, name: made.tenantName };
}

function provision(
  rt: Runtime,
  input: NewTenant,
  now: number,
  opts: { tenantId?: string; registered?: (tx: Db) => void; inviteOwner?: boolean },
) {
  if (tenantByKey(rt.platform.db, input.key)) throw conflict("ALREADY_EXISTS", "This tenantKey is taken.");
  const tenantId = opts.tenantId ?? crypto.randomUUID();
  try {
    const owner = rt.tenants.use(
      tenantId,
      (h) =>
        write(h.db, (tx) => {
          seedBuiltinRoles(tx, now);
          tx.insert(tenantSettings).values({ id: 1, tenantId, key: input.key, name: input.name, createdAt: now, updatedAt: now }).run();
          const role = roleByKey(tx, "owner");
          if (!role) throw new Error("owner role missing");
          return opts.inviteOwner ? null : insertMember(tx, { ...input.owner, roleId: role.id }, now);
        }),
      { create: true },
    );
    write(rt.platform.db, (tx) => {
      tx.insert(tenants)
        .values({ id: tenantId, key: input.key, name: input.name, ownerEmail: input.owner.email.toLowerCase(), createdAt: now })
        .run();
      if (owner) indexMember(tx, input.owner.email, tenantId, owner.id);
      opts.registered?.(tx);
    });
    return { tenantId, tenantKey: input.key, tenantName: input.name, owner };
  } catch (e) {
    removeTenantFile(rt, tenantId);
    if ((e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
      throw conflict("ALREADY_EXISTS", "This tenantKey is taken.");
    }
    throw e;
  }
}
