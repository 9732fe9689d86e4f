// What other modules need of grant subjects, so grant_subjects stays queried only here.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { grantSubjects } from "./tables";

type SubjectType = (typeof grantSubjects.$inferSelect)["subjectType"];

/** The permission codes granted to one subject (a group or a member). */
export function codesGrantedTo(db: Db, subjectType: SubjectType, subjectId: string): string[] {
  return db
    .select({ code: grantSubjects.code })
    .from(grantSubjects)
    .where(and(eq(grantSubjects.subjectType, subjectType), eq(grantSubjects.subjectId, subjectId)))
    .all()
    .map((g) => g.code);
}

/** Removes a subject from every grant (subjects have no foreign key: they name groups or members). */
export function forgetGrantSubject(tx: Db, subjectType: SubjectType, subjectId: string) {
  tx.delete(grantSubjects)
    .where(and(eq(grantSubjects.subjectType, subjectType), eq(grantSubjects.subjectId, subjectId)))
    .run();
}
