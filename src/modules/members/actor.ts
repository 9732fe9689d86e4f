import type { ActorMember, MemberResolver } from "../../platform/auth/actor";
import { changeGuardedCache } from "../../platform/db/sqlite";
import { prepared, type TenantHandle } from "../../platform/db/tenant-store";
import { grantedCodes } from "../grants/effective";
import { PERMISSIONS } from "../roles/permissions";

const LOAD = `
  SELECT m.id, m.user_id, m.email, m.display_name, m.is_active, m.must_change_password,
         r.key AS role_key, r.name AS role_name, r.permissions,
         (SELECT p.id FROM profiles p WHERE p.member_id = m.id AND p.is_main = 1 LIMIT 1) AS profile_id
  FROM members m JOIN roles r ON r.id = m.role_id WHERE m.id = ?`;

type Row = {
  id: string;
  user_id: string | null;
  email: string | null;
  display_name: string;
  is_active: number;
  must_change_password: number;
  role_key: string;
  role_name: string;
  permissions: string;
  profile_id: string;
};

/**
 * Effective permissions = role permissions ∪ grants, in enumeration order (docs/rules/access.md#permissions). Cached
 * per handle until the next write on that file: every write of this process goes through the
 * handle's one connection, so its total_changes() moves whenever anything may have changed.
 */
export const resolveMember: MemberResolver = (handle, memberId) =>
  prepared(handle, "members.actorCache", () => changeGuardedCache<ActorMember | null>(handle.sqlite))(memberId, () =>
    loadMember(handle, memberId),
  );

function loadMember(handle: TenantHandle, memberId: string): ActorMember | null {
  const row = handle.sqlite.query(LOAD).get(memberId) as Row | null;
  if (!row) return null;
  const held = new Set<string>([...(JSON.parse(row.permissions) as string[]), ...grantedCodes(handle.sqlite, memberId)]);
  return {
    memberId: row.id,
    profileId: row.profile_id,
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    roleKey: row.role_key,
    roleName: row.role_name,
    permissions: PERMISSIONS.filter((p) => held.has(p)),
    mustChangePassword: row.must_change_password === 1,
    isActive: row.is_active === 1,
  };
}
