import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { roles } from "./roles";

/** A tenant member is its own account for this tenant (docs/rules/sign-in.md#identity). */
export const members = sqliteTable(
  "members",
  {
    id: text("id").primaryKey(),
    /** Login identifier; unique in the tenant, compared case-insensitively (stored lowercased in userIdKey). */
    userId: text("user_id"),
    userIdKey: text("user_id_key"),
    /** Lowercased e-mail. */
    email: text("email"),
    /**
     * When the member proved its e-mail (a code to it, an invitation link, its own sign-up); null
     * while it is only typed by an administrator (docs/rules/trust.md#e-mails-an-administrator-typed).
     */
    emailVerifiedAt: integer("email_verified_at"),
    displayName: text("display_name").notNull(),
    roleId: text("role_id")
      .notNull()
      .references(() => roles.id),
    passwordHash: text("password_hash"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isIssuedAccount: integer("is_issued_account", { mode: "boolean" }).notNull().default(false),
    mustChangePassword: integer("must_change_password", { mode: "boolean" }).notNull().default(false),
    lastLoginAt: integer("last_login_at"),
    pictureUrl: text("picture_url"),
    affiliation: text("affiliation"),
    externalMemberCode: text("external_member_code"),
    bio: text("bio"),
    positionId: text("position_id"),
    /** Failed password sign-ins in a row and the lock-out they earned. */
    failedLogins: integer("failed_logins").notNull().default(0),
    lockedUntil: integer("locked_until"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("members_user_id_key_idx").on(t.userIdKey),
    uniqueIndex("members_email_idx").on(t.email),
    index("members_created_idx").on(t.createdAt, t.id),
    index("members_role_idx").on(t.roleId),
    index("members_display_name_idx").on(t.displayName, t.id),
    index("members_position_idx").on(t.positionId),
    // listMembers filters: status (with the default sort), last-login range, issued accounts.
    index("members_active_created_idx").on(t.isActive, t.createdAt, t.id),
    index("members_last_login_idx").on(t.lastLoginAt, t.id),
    // listMembers sorts (ORDER BY col NULLS LAST, id): the unique indexes lack the id tie-break.
    index("members_active_sort_idx").on(t.isActive, t.id),
    index("members_email_sort_idx").on(t.email, t.id),
    index("members_user_id_sort_idx").on(t.userIdKey, t.id),
    index("members_issued_created_idx").on(t.isIssuedAccount, t.createdAt, t.id),
    // Covering probe for lists driven from a field-value index: one search per row instead of two.
    index("members_lookup_idx").on(t.id, t.isActive, t.isIssuedAccount, t.roleId, t.lastLoginAt),
  ],
);

/** Learning profiles of a member; the main one is created with the member. */
export const profiles = sqliteTable(
  "profiles",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    isMain: integer("is_main", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("profiles_member_idx").on(t.memberId)],
);
