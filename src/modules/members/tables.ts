import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { members } from "../../schema/members";

/**
 * Guardian links (docs/rules/members.md#guardian-links): `guardianId` may see `studentId`'s
 * overview and gets copies of the student's notifications. Both go with their member. The primary
 * key serves a student's guardians; (guardian_id, student_id) a guardian's students.
 */
export const memberGuardians = sqliteTable(
  "member_guardians",
  {
    studentId: text("student_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    guardianId: text("guardian_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.guardianId] }), index("member_guardians_guardian_idx").on(t.guardianId, t.studentId)],
);
