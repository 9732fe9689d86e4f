import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { LoginPageDraftInput, LoginPageSettingsRecord } from "./model";

/** The login page of the tenant: one row (id = 1); absent until first saved (defaults apply). */
export const loginPageSettings = sqliteTable("login_page_settings", {
  id: integer("id").primaryKey(),
  /** The live settings (a complete LoginPageSettings), or null while only a draft exists. */
  live: text("live", { mode: "json" }).$type<LoginPageSettingsRecord>(),
  /** The saved draft: only the fields it sets. */
  draft: text("draft", { mode: "json" }).$type<LoginPageDraftInput>(),
  updatedAt: integer("updated_at").notNull(),
});
