import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One-use OpenID Connect sign-in states (10 minutes), in the platform file because a social
 * provider may start without a tenant (docs/rules/sign-in.md#openid-connect).
 */
export const oidcStates = sqliteTable(
  "oidc_states",
  {
    state: text("state").primaryKey(),
    provider: text("provider").notNull(),
    /** Null: a social sign-in started without tenantKey; the tenant is chosen at the callback. */
    tenantId: text("tenant_id"),
    returnTo: text("return_to").notNull(),
    sessionType: text("session_type", { enum: ["personal", "public"] }),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("oidc_states_expires_idx").on(t.expiresAt)],
);
