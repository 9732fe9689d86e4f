/** The permission enumeration, in its published order (docs/rules/access.md#permissions). */
export const PERMISSIONS = [
  "member:read",
  "member:invite",
  "member:manage-role",
  "member:manage",
  "member:remove",
  "role:read",
  "role:manage",
  "tenant-settings:manage",
  "space:create",
  "library:upload",
] as const;
export type Permission = (typeof PERMISSIONS)[number];
