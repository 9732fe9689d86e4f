// The space gradebook and a participant's own grades (DECISIONS §13 Gradebook). A fixed number of
// queries per gradebook, whatever its size: each area hands over all its cells at once.
import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { members } from "../../schema/members";
import { assignmentGrades } from "../assignments/grades";
import { groupAssignmentGrades } from "../group-assignments/grades";
import { type GradableType, gradableContents } from "../library/access";
import { quizGrades } from "../quizzes/grades";
import { requireSpaceAdmin, requireSpaceMember } from "../spaces/access";
import { activeParticipants, type RosterEntry } from "../spaces/roster";
import type { GradeColumn } from "./cells";
import type { Gradebook, GradebookColumn, GradebookRow, MyGrades } from "./model";

type Column = Static<typeof GradebookColumn>;
/** Managers see every score; a participant only released ones (§9.1 Returned grades). */
type View = "manager" | "participant";

/** The columns and every cell of the space (of one profile when given). */
function gradesOf(db: Db, spaceId: string, profileId: string | null) {
  const contents = gradableContents(db, spaceId);
  const ids = (type: GradableType) => contents.filter((c) => c.type === type).map((c) => c.id);
  const grades = new Map<string, GradeColumn>([
    ...assignmentGrades(db, ids("ASSIGNMENT"), profileId),
    ...groupAssignmentGrades(db, ids("GROUP_ASSIGNMENT"), profileId),
    ...quizGrades(db, ids("QUIZ"), profileId),
  ]);
  const columns: Column[] = contents.map((c) => ({
    contentId: c.id,
    type: c.type,
    title: c.title,
    maxScore: grades.get(c.id)?.maxScore ?? null,
  }));
  return { columns, grades };
}

function rowOf(who: RosterEntry, columns: Column[], grades: Map<string, GradeColumn>, view: View): Static<typeof GradebookRow> {
  return {
    profileId: who.profileId,
    displayName: who.displayName,
    userId: who.userId,
    cells: columns.map((c) => {
      const cell = grades.get(c.contentId)?.cells.get(who.profileId);
      if (!cell) return { contentId: c.contentId, score: null, status: "NOT_SUBMITTED" };
      return { contentId: c.contentId, score: view === "manager" || cell.released ? cell.score : null, status: cell.status };
    }),
  };
}

/** getSpaceGradebook: one row per active PARTICIPANT (spaceAdmin). */
export function getSpaceGradebook(actor: Actor, spaceId: string): Static<typeof Gradebook> {
  requireSpaceAdmin(actor, spaceId);
  const { columns, grades } = gradesOf(actor.db, spaceId, null);
  const rows = activeParticipants(actor.db, spaceId).map((p) => rowOf(p, columns, grades, "manager"));
  return { columns, rows };
}

/** getMyGrades: the caller's own row (any enrolled member), released scores only. */
export function getMyGrades(actor: Actor, spaceId: string): Static<typeof MyGrades> {
  requireSpaceMember(actor, spaceId);
  const me = actor.db
    .select({ displayName: members.displayName, userId: members.userId })
    .from(members)
    .where(eq(members.id, actor.memberId))
    .get();
  const who = { memberId: actor.memberId, profileId: actor.profileId, displayName: me?.displayName ?? "", userId: me?.userId ?? null };
  return studentGrades(actor.db, spaceId, who);
}

/**
 * What getMyGrades shows `who` in the space (released scores only), for a reader whose right to
 * see it is checked by the caller: the student, or a guardian (docs/rules/members.md#overview).
 */
export function studentGrades(db: Db, spaceId: string, who: RosterEntry): Static<typeof MyGrades> {
  const { columns, grades } = gradesOf(db, spaceId, who.profileId);
  return { columns, row: rowOf(who, columns, grades, "participant") };
}
