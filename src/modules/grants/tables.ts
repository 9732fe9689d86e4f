import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row per permission code that has been touched; absent = no subjects, allEnabled false. */
export const grants = sqliteTable("grants", {
  code: text("code").primaryKey(),
  allEnabled: integer("all_enabled", { mode: "boolean" }).notNull().default(false),
});

export const grantSubjects = sqliteTable(
  "grant_subjects",
  {
    code: text("code").notNull(),
    subjectType: text("subject_type", { enum: ["GROUP", "MEMBER"] }).notNull(),
    subjectId: text("subject_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.code, t.subjectType, t.subjectId] }),
    index("grant_subjects_subject_idx").on(t.subjectType, t.subjectId),
  ],
);
