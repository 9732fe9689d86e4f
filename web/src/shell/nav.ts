import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/** One screen of the console: its path, its i18n label key, and the permission its list operation needs. */
export type Screen = { path: string; label: string; permission: string; page: LazyExoticComponent<ComponentType> };

// Each screen is its own chunk, so the first load carries only the shell.
export const SCREENS: Screen[] = [
  { path: "/members", label: "nav.members", permission: "member:read", page: lazy(() => import("../features/members/MembersPage")) },
  { path: "/groups", label: "nav.groups", permission: "member:read", page: lazy(() => import("../features/groups/GroupsPage")) },
  { path: "/org", label: "nav.org", permission: "member:read", page: lazy(() => import("../features/org/OrgPage")) },
  {
    path: "/invitations",
    label: "nav.invitations",
    permission: "member:invite",
    page: lazy(() => import("../features/invitations/InvitationsPage")),
  },
  {
    path: "/join-codes",
    label: "nav.joinCodes",
    permission: "member:invite",
    page: lazy(() => import("../features/join-codes/JoinCodesPage")),
  },
  { path: "/roles", label: "nav.roles", permission: "role:read", page: lazy(() => import("../features/roles/RolesPage")) },
  { path: "/fields", label: "nav.fields", permission: "tenant-settings:manage", page: lazy(() => import("../features/fields/FieldsPage")) },
  { path: "/terms", label: "nav.terms", permission: "tenant-settings:manage", page: lazy(() => import("../features/terms/TermsPage")) },
  {
    path: "/login-page",
    label: "nav.loginPage",
    permission: "tenant-settings:manage",
    page: lazy(() => import("../features/login-page/LoginPagePage")),
  },
  { path: "/sso", label: "nav.sso", permission: "tenant-settings:manage", page: lazy(() => import("../features/sso/SsoPage")) },
  {
    path: "/settings",
    label: "nav.settings",
    permission: "tenant-settings:manage",
    page: lazy(() => import("../features/tenant/TenantPage")),
  },
];
