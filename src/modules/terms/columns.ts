import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Tenant terms (tables.ts) and platform terms (platform-tables.ts) have one shape, so one service
// serves both scopes; only the file and the table names differ.

/** One topic and the version that is current. */
export function termTopicTable(name: string) {
  return sqliteTable(name, {
    topic: text("topic").primaryKey(),
    currentVersion: integer("current_version").notNull(),
    latestVersion: integer("latest_version").notNull(),
    createdAt: integer("created_at").notNull(),
  });
}

/** One version of a topic: every attribute is per version (updateTerm edits the current one). */
export function termVersionTable(name: string) {
  return sqliteTable(
    name,
    {
      topic: text("topic").notNull(),
      version: integer("version").notNull(),
      isEssential: integer("is_essential", { mode: "boolean" }).notNull(),
      isVisible: integer("is_visible", { mode: "boolean" }).notNull(),
      order: integer("sort_order").notNull(),
      titleKo: text("title_ko").notNull(),
      titleEn: text("title_en").notNull(),
      documentUrlKo: text("document_url_ko").notNull(),
      documentUrlEn: text("document_url_en").notNull(),
      consentTtlDays: integer("consent_ttl_days"),
      isActive: integer("is_active", { mode: "boolean" }).notNull(),
      createdAt: integer("created_at").notNull(),
      updatedAt: integer("updated_at").notNull(),
    },
    (t) => [primaryKey({ columns: [t.topic, t.version] })],
  );
}

/**
 * A consent record. `subject` is the member id for tenant terms; for platform terms it is the
 * lowercased e-mail (the platform identity), or `member:<tenantId>:<memberId>` without one.
 */
export function termConsentTable(name: string) {
  return sqliteTable(
    name,
    {
      id: text("id").primaryKey(),
      subject: text("subject").notNull(),
      topic: text("topic").notNull(),
      version: integer("version").notNull(),
      isEssential: integer("is_essential", { mode: "boolean" }).notNull(),
      agreedAt: integer("agreed_at").notNull(),
      expiresAt: integer("expires_at"),
      withdrawnAt: integer("withdrawn_at"),
    },
    (t) => [index(`${name}_subject_idx`).on(t.subject, t.topic, t.agreedAt), index(`${name}_topic_idx`).on(t.topic, t.version)],
  );
}

export type TermTopicTable = ReturnType<typeof termTopicTable>;
export type TermVersionTable = ReturnType<typeof termVersionTable>;
export type TermConsentTable = ReturnType<typeof termConsentTable>;
export type TermTables = { scope: "platform" | "tenant"; topics: TermTopicTable; versions: TermVersionTable; consents: TermConsentTable };
