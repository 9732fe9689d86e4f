import { PERMISSIONS, type Permission } from "../roles/permissions";

/** What each permission code lets its holder do, for the grant screens (label, description). */
export const PERMISSION_TEXT: Record<Permission, { label: string; description: string }> = {
  "member:read": { label: "View members", description: "See members, groups, organization units and positions." },
  "member:invite": { label: "Invite members", description: "Send and manage invitations and tenant join codes." },
  "member:manage-role": { label: "Change member roles", description: "Change the role of a member." },
  "member:manage": {
    label: "Manage members",
    description: "Create and edit members, groups, plain groups, organization units and positions.",
  },
  "member:remove": { label: "Remove members", description: "Delete members from the tenant." },
  "role:read": { label: "View roles and grants", description: "See roles and permission grants." },
  "role:manage": { label: "Manage roles and grants", description: "Create and edit roles and grant permissions." },
  "tenant-settings:manage": {
    label: "Manage tenant settings",
    description: "Edit tenant settings, the login page, single sign-on, terms and custom fields.",
  },
  "space:create": { label: "Create spaces", description: "Create learning spaces and see every space." },
  "library:upload": { label: "Upload to the library", description: "Create folders and contents in the library." },
};

export const isPermission = (code: string): code is Permission => (PERMISSIONS as readonly string[]).includes(code);
