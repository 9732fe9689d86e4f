import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { members } from "./members";

export const SPACE_ROLES = ["ADMIN", "PARTICIPANT"] as const;
export type SpaceRole = (typeof SPACE_ROLES)[number];

/** Learning spaces. listSpaces walks (created_at, id) newest first; each equality filter has its own keyset index. */
export const spaces = sqliteTable(
  "spaces",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    representativeName: text("representative_name"),
    description: text("description"),
    thumbnailFileId: text("thumbnail_file_id"),
    semester: text("semester"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
    autoJoin: integer("auto_join", { mode: "boolean" }).notNull().default(false),
    exitRestricted: integer("exit_restricted", { mode: "boolean" }).notNull().default(false),
    allowFileDownload: integer("allow_file_download", { mode: "boolean" }).notNull().default(true),
    vodConcurrentLimit: integer("vod_concurrent_limit", { mode: "boolean" }).notNull().default(false),
    retainEnrollmentHistory: integer("retain_enrollment_history", { mode: "boolean" }).notNull().default(false),
    startMenu: text("start_menu").notNull(),
    enabledMenus: text("enabled_menus", { mode: "json" }).$type<string[]>().notNull(),
    messageEnabled: integer("message_enabled", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("spaces_created_idx").on(t.createdAt, t.id),
    index("spaces_active_created_idx").on(t.isActive, t.createdAt, t.id),
    index("spaces_semester_created_idx").on(t.semester, t.createdAt, t.id),
    index("spaces_auto_join_created_idx").on(t.autoJoin, t.createdAt, t.id),
    index("spaces_exit_restricted_created_idx").on(t.exitRestricted, t.createdAt, t.id),
    index("spaces_public_created_idx").on(t.isPublic, t.createdAt, t.id),
    index("spaces_thumbnail_idx").on(t.thumbnailFileId),
  ],
);

/**
 * Enrolments. (member_id, space_id) serves visibility probes and the member list's space counts;
 * (space_id, created_at, member_id) the members' keyset list; (space_id, role) the role counts.
 */
export const spaceMembers = sqliteTable(
  "space_members",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    role: text("role", { enum: SPACE_ROLES }).notNull(),
    isOwner: integer("is_owner", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.memberId] }),
    index("space_members_member_idx").on(t.memberId, t.spaceId),
    index("space_members_list_idx").on(t.spaceId, t.createdAt, t.memberId),
    index("space_members_role_idx").on(t.spaceId, t.role),
  ],
);

/**
 * Superseded by space_enrollment_events (its rows were copied there by the migration that added
 * it); kept only because migrations are additive. Nothing reads or writes it.
 */
export const spaceEnrollmentHistory = sqliteTable(
  "space_enrollment_history",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    role: text("role", { enum: SPACE_ROLES }).notNull(),
    joinedAt: integer("joined_at").notNull(),
    leftAt: integer("left_at").notNull(),
    reason: text("reason", { enum: ["LEFT", "REMOVED", "BLOCKED"] }).notNull(),
  },
  (t) => [index("space_enrollment_history_space_idx").on(t.spaceId, t.leftAt), index("space_enrollment_history_member_idx").on(t.memberId)],
);

export const ENROLMENT_EVENTS = ["JOINED", "LEFT", "REMOVED", "BLOCKED", "ROLE_CHANGED"] as const;
export type EnrolmentEvent = (typeof ENROLMENT_EVENTS)[number];

/**
 * Every enrolment change of a space with `retainEnrollmentHistory` (listSpaceEnrollmentHistory):
 * a separate table, so space_members stays "currently enrolled" for every count and check. `role`
 * is the role the member had after the event (before it, for LEFT/REMOVED/BLOCKED).
 */
export const spaceEnrollmentEvents = sqliteTable(
  "space_enrollment_events",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    event: text("event", { enum: ENROLMENT_EVENTS }).notNull(),
    role: text("role", { enum: SPACE_ROLES }).notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("space_enrollment_events_list_idx").on(t.spaceId, t.at, t.id), index("space_enrollment_events_member_idx").on(t.memberId)],
);

/** Space join codes; `code` is unique in the tenant together with tenant_join_codes (checked on create). */
export const spaceJoinCodes = sqliteTable(
  "space_join_codes",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    code: text("code").notNull().unique(),
    role: text("role", { enum: SPACE_ROLES }).notNull(),
    /** Shown to the space's ADMINs (listSpaceJoinCodes), so it is kept as sent. */
    password: text("password"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("space_join_codes_space_idx").on(t.spaceId, t.createdAt, t.id)],
);

export const spaceBlocks = sqliteTable(
  "space_blocks",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    reason: text("reason"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("space_blocks_space_member_idx").on(t.spaceId, t.memberId),
    index("space_blocks_list_idx").on(t.spaceId, t.createdAt),
  ],
);

export const spaceGroupSets = sqliteTable(
  "space_group_sets",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("space_group_sets_space_idx").on(t.spaceId, t.createdAt, t.id)],
);

export const spaceGroups = sqliteTable(
  "space_groups",
  {
    id: text("id").primaryKey(),
    setId: text("set_id")
      .notNull()
      .references(() => spaceGroupSets.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    position: integer("position").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("space_groups_set_idx").on(t.setId, t.position)],
);

/** (set_id, member_id) is unique: a member is in at most one group of a set. */
export const spaceGroupMembers = sqliteTable(
  "space_group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => spaceGroups.id, { onDelete: "cascade" }),
    setId: text("set_id")
      .notNull()
      .references(() => spaceGroupSets.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.memberId] }),
    uniqueIndex("space_group_members_set_member_idx").on(t.setId, t.memberId),
    index("space_group_members_member_idx").on(t.memberId),
  ],
);

/** Tenant-wide space defaults (getSpaceDefaults): one row (id = 1); no row = the built-in defaults. */
export const spaceDefaults = sqliteTable("space_defaults", {
  id: integer("id").primaryKey(),
  defaultAutoJoin: integer("default_auto_join", { mode: "boolean" }).notNull(),
  defaultExitRestricted: integer("default_exit_restricted", { mode: "boolean" }).notNull(),
  defaultAllowFileDownload: integer("default_allow_file_download", { mode: "boolean" }).notNull(),
  defaultVodConcurrentLimit: integer("default_vod_concurrent_limit", { mode: "boolean" }).notNull(),
  enforceFileDownloadDisabled: integer("enforce_file_download_disabled", { mode: "boolean" }).notNull(),
  enforceVodConcurrentLimit: integer("enforce_vod_concurrent_limit", { mode: "boolean" }).notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** The scalar part of space-categories: one row (id = 1); no row = the built-in defaults. */
export const spaceCategorySettings = sqliteTable("space_category_settings", {
  id: integer("id").primaryKey(),
  semesterEnabled: integer("semester_enabled", { mode: "boolean" }).notNull(),
  semesterWithYear: integer("semester_with_year", { mode: "boolean" }).notNull(),
  tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
  roles: text("roles", { mode: "json" }).$type<string[]>().notNull(),
  startMenu: text("start_menu").notNull(),
  enabledMenus: text("enabled_menus", { mode: "json" }).$type<string[]>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const spaceCategories = sqliteTable(
  "space_categories",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    order: integer("order").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("space_categories_order_idx").on(t.order, t.id)],
);
