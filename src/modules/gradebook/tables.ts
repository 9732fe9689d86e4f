import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";
import { spaces } from "../../schema/spaces";

/** Manual gradebook columns (offline marks) of a space, oldest first after the content columns. */
export const gradeColumns = sqliteTable(
  "grade_columns",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    maxScore: real("max_score").notNull(),
    weight: real("weight").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("grade_columns_space_idx").on(t.spaceId, t.createdAt, t.id)],
);

/** A manual column's score per participant profile (no row = no score). */
export const gradeColumnScores = sqliteTable(
  "grade_column_scores",
  {
    columnId: text("column_id")
      .notNull()
      .references(() => gradeColumns.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    score: real("score").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.columnId, t.profileId] })],
);

/** The weight of a content column in its space's total (no row = 1). */
export const gradebookWeights = sqliteTable("gradebook_weights", {
  contentId: text("content_id")
    .primaryKey()
    .references(() => libraryContents.id, { onDelete: "cascade" }),
  weight: real("weight").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
