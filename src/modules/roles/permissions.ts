/** The permission enumeration, in the spec's order. */
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
