import type { ActorMember, MemberResolver } from "../../platform/auth/actor";
import { cachedByTables } from "../../platform/db/sqlite";
import type { TenantHandle } from "../../platform/db/tenant-store";
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
 * The tables an actor is read from: a write to any other table keeps the cached actors. Up to 5,000
 * members a handle, least recently used out first (docs/rules/performance.md#caches): an exam of
 * 5,000 students keeps every one cached; an entry is ~0.2 KiB of JS heap (its permission list is
 * shared; bench/README.md), so a full cache is ~1 MiB, held only by a school with that many members
 * active since its handle opened.
 */
const ACTORS = {
  name: "actors",
  tables: ["members", "roles", "profiles", "grants", "grant_subjects", "group_members"],
  max: 5000,
} as const;

/**
 * Effective permissions = role permissions ∪ grants, in enumeration order (docs/rules/access.md#permissions).
 * Cached per handle until a write to one of the tables it is read from (docs/rules/performance.md#caches):
 * an exam's answers and attempts leave the students' actors cached.
 */
export const resolveMember: MemberResolver = (handle, memberId) =>
  cachedByTables(handle.db, ACTORS, memberId, () => loadMember(handle, memberId));

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
    permissions: sharedList(PERMISSIONS.filter((p) => held.has(p))),
    mustChangePassword: row.must_change_password === 1,
    isActive: row.is_active === 1,
  };
}

/**
 * One array for every cached member with the same permissions (a role's students): the request
 * path's permission set is built once per array (src/platform/auth/context.ts), not once per member.
 * Interned for the process, not per handle: a reopened handle (docs/rules/performance.md#reopen) finds
 * them made. The lists are subsets of
 * PERMISSIONS, frozen, no school's data; at most INTERNED of them, later ones go unshared.
 */
const INTERNED = 256;
const lists = new Map<string, readonly string[]>();
function sharedList(permissions: string[]): string[] {
  const key = permissions.join(" ");
  const known = lists.get(key);
  if (known) return known as string[];
  if (lists.size < INTERNED) lists.set(key, Object.freeze(permissions));
  return permissions;
}
