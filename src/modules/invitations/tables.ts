import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * An invitation to become a member. `expired` is not stored: it is a pending row past expiresAt.
 * The role is kept by id (no foreign key: a role may be deleted once no live invitation holds it)
 * and by a key/name snapshot shown after that.
 */
export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    /** Lowercased e-mail. */
    email: text("email").notNull(),
    roleId: text("role_id").notNull(),
    roleKey: text("role_key").notNull(),
    roleName: text("role_name").notNull(),
    status: text("status", { enum: ["pending", "accepted", "cancelled"] }).notNull(),
    /** Keyed hash of the accept token; the token itself is only in the e-mail. */
    tokenHash: text("token_hash").notNull(),
    sentAt: integer("sent_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    memberId: text("member_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("invitations_token_idx").on(t.tokenHash),
    index("invitations_email_idx").on(t.email, t.id),
    index("invitations_created_idx").on(t.createdAt, t.id),
    index("invitations_status_idx").on(t.status, t.expiresAt),
    index("invitations_role_idx").on(t.roleId, t.status),
  ],
);
