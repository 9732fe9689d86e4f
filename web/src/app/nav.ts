import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/** One screen of the console: its path, its i18n label key, and the permission its list operation needs (null: every member; GUARDIAN: a guardian of a student). */
export type Screen = {
  path: string;
  label: string;
  permission: string | null;
  load: () => Promise<{ default: ComponentType }>;
  page: LazyExoticComponent<ComponentType>;
};

const screen = (path: string, label: string, permission: string | null, load: () => Promise<{ default: ComponentType }>): Screen => ({
  path,
  label,
  permission,
  load,
  page: lazy(load),
});

/** Not a permission: the screen is for members who are a student's guardian (listMyStudents is not empty). */
export const GUARDIAN = "guardian";

// Each screen is its own chunk, so the first load carries only the shell.
export const SCREENS: Screen[] = [
  screen("/members", "nav.members", "member:read", () => import("../features/members/MembersPage")),
  screen("/rollover", "nav.rollover", "member:manage", () => import("../features/rollover/RolloverPage")),
  screen("/groups", "nav.groups", "member:read", () => import("../features/groups/GroupsPage")),
  screen("/org", "nav.org", "member:read", () => import("../features/org/OrgPage")),
  screen("/invitations", "nav.invitations", "member:invite", () => import("../features/invitations/InvitationsPage")),
  screen("/join-codes", "nav.joinCodes", "member:invite", () => import("../features/join-codes/JoinCodesPage")),
  screen("/roles", "nav.roles", "role:read", () => import("../features/roles/RolesPage")),
  screen("/fields", "nav.fields", "tenant-settings:manage", () => import("../features/fields/FieldsPage")),
  screen("/terms", "nav.terms", "tenant-settings:manage", () => import("../features/terms/TermsPage")),
  screen("/login-page", "nav.loginPage", "tenant-settings:manage", () => import("../features/login-page/LoginPagePage")),
  screen("/sso", "nav.sso", "tenant-settings:manage", () => import("../features/sso/SsoPage")),
  screen("/settings", "nav.settings", "tenant-settings:manage", () => import("../features/tenant/TenantPage")),
  // Teaching and learning: every member has these (what they show depends on their role in each space).
  screen("/classes", "nav.classes", "space:create", () => import("../features/classes/MyClassesPage")),
  // A guardian lands on their children (it comes first of the screens every member has).
  screen("/children", "nav.children", GUARDIAN, () => import("../features/guardians/ChildrenPage")),
  screen("/todo", "nav.todo", null, () => import("../features/learner/TodoPage")),
  screen("/spaces", "nav.spaces", null, () => import("../features/spaces/SpacesPage")),
  screen("/agreements", "nav.agreements", null, () => import("../features/agreements/MyAgreementsPage")),
  screen("/notifications", "nav.notifications", null, () => import("../features/notifications/InboxPage")),
  screen("/account", "nav.account", null, () => import("../features/notifications/AccountPage")),
];

/** Starts fetching the chunk of the screen at `path` (called before sign-in is known, so the two overlap). */
export function preloadScreen(path: string) {
  void SCREENS.find((s) => path === s.path || path.startsWith(`${s.path}/`))?.load();
}

/**
 * Where "/" (or a screen the member may not open) leads: a teacher (creates spaces, does not run the
 * school) to their classes, everyone else to the first screen they may open.
 */
export function homeOf(screens: Screen[], can: (permission: string) => boolean): string | null {
  if (can("space:create") && !can("tenant-settings:manage") && screens.some((s) => s.path === "/classes")) return "/classes";
  return screens[0]?.path ?? null;
}
