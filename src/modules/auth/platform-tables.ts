import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A platform account: the e-mail identity made by signUp (docs/rules/sign-in.md#identity). */
export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    /** Lowercased e-mail. */
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    passwordHash: text("password_hash"),
    /** The tenant created at sign-up; verifySignUpCode signs into it. */
    signUpTenantId: text("sign_up_tenant_id"),
    verifiedAt: integer("verified_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("accounts_email_idx").on(t.email)],
);

/**
 * One-time codes: one row per (e-mail, purpose, tenant scope; "" = platform). The row outlives its
 * code (codeHash null) so that the resend cooldown also holds for unknown e-mails and used codes.
 */
export const oneTimeCodes = sqliteTable(
  "one_time_codes",
  {
    email: text("email").notNull(),
    purpose: text("purpose", { enum: ["sign-up", "password-reset", "sign-in", "tenant"] }).notNull(),
    scope: text("scope").notNull(),
    /** Keyed hash of the code; null when none is live (never issued, used, or tried 5 times wrong). */
    codeHash: text("code_hash"),
    failedTries: integer("failed_tries").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
    resendAvailableAt: integer("resend_available_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("one_time_codes_key_idx").on(t.email, t.purpose, t.scope), index("one_time_codes_expires_idx").on(t.expiresAt)],
);

/** Refresh tokens already rotated away: presenting one again revokes its session (reuse detection). */
export const rotatedRefreshTokens = sqliteTable(
  "rotated_refresh_tokens",
  {
    hash: text("hash").primaryKey(),
    sessionId: text("session_id").notNull(),
    rotatedAt: integer("rotated_at").notNull(),
  },
  (t) => [index("rotated_refresh_tokens_session_idx").on(t.sessionId), index("rotated_refresh_tokens_rotated_idx").on(t.rotatedAt)],
);

/**
 * A sign-up with a tenant in progress: written with the account, removed with the registry rows in
 * the same commits. A row found at start (or by the next sign-up of the e-mail) is a sign-up cut by
 * a crash between its commits: it is rolled back (account, tenant file and its leftovers removed).
 */
export const pendingSignUps = sqliteTable("pending_sign_ups", {
  tenantId: text("tenant_id").primaryKey(),
  accountId: text("account_id").notNull(),
  createdAt: integer("created_at").notNull(),
});
