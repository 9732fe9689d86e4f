// What a guardian sees of their students (docs/rules/members.md#overview): every field is what the
// student's own reads give (getMyGrades' row, the student's deadline, the notices the student reads).
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { notFound } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import { assignmentDueDates } from "../assignments/deadlines";
import { studentGrades } from "../gradebook/service";
import { groupAssignmentDueDates } from "../group-assignments/due-dates";
import { participantContents } from "../library/access";
import { studentsOfGuardian } from "../members/guardians";
import { recentNotices } from "../posts/access";
import { quizCloseDates } from "../quizzes/due-dates";
import { enrolledSpaces } from "../spaces/roster";
import { surveyCloseDates } from "../surveys/due-dates";
import type { MyStudents, StudentOverview } from "./model";

const DAY = 24 * 60 * 60 * 1000;
/** docs/rules/members.md#overview */
const DUE_SOON = 7 * DAY;
const MISSING_SINCE = 60 * DAY;
const NOTICES_SINCE = 30 * DAY;

/** listMyStudents: the caller's active students with their spaces (two queries). */
export function listMyStudents(actor: Actor): Static<typeof MyStudents> {
  const students = studentsOfGuardian(actor.db, actor.memberId);
  const spaces = enrolledSpaces(
    actor.db,
    students.map((s) => s.id),
  );
  return students.map((s) => ({ id: s.id, displayName: s.displayName, spaces: spaces.get(s.id) ?? [] }));
}

type Overview = Static<typeof StudentOverview>;
type Grades = Overview["spaces"][number]["grades"];

/** The student's own deadline of each gradable content of these grade rows: one batch per content type. */
function dueDates(db: Actor["db"], grades: Grades[], profileId: string) {
  const ids = (type: string) => grades.flatMap((g) => g.columns.flatMap((c) => (c.type === type && c.contentId ? [c.contentId] : [])));
  return new Map([
    ...assignmentDueDates(db, ids("ASSIGNMENT"), profileId),
    ...groupAssignmentDueDates(db, ids("GROUP_ASSIGNMENT"), profileId),
    ...quizCloseDates(db, ids("QUIZ"), profileId),
  ]);
}

type Work = {
  contentId: string;
  title: string;
  type: Overview["spaces"][number]["missing"][number]["type"];
  at: number;
  submitted: boolean;
};

/** The surveys of these spaces the student sees, with a closing date, by space (docs/rules/members.md#overview): two queries. */
function surveyWork(db: Actor["db"], spaceIds: string[], profileId: string): Map<string, Work[]> {
  const surveys = participantContents(db, spaceIds, ["SURVEY"]);
  const dates = surveyCloseDates(
    db,
    surveys.map((s) => s.id),
    profileId,
  );
  const bySpace = new Map<string, Work[]>();
  for (const s of surveys) {
    const d = dates.get(s.id);
    if (d?.at == null) continue;
    bySpace.set(s.spaceId, [
      ...(bySpace.get(s.spaceId) ?? []),
      { contentId: s.id, title: s.title, type: "SURVEY", at: d.at, submitted: d.submitted },
    ]);
  }
  return bySpace;
}

/** getStudentOverview: 404 unless the caller is a guardian of that active student (a removed link is 404 at once). */
export function getStudentOverview(actor: Actor, studentId: string, now = Date.now()): Overview {
  const [student] = studentsOfGuardian(actor.db, actor.memberId, studentId);
  if (!student) throw notFound();
  const spaces = (enrolledSpaces(actor.db, [student.id]).get(student.id) ?? []).filter((s) => s.isActive);
  // getMyGrades' own function, a fixed number of queries per space.
  const grades = spaces.map((s) => studentGrades(actor.db, s.id, { ...student, memberId: student.id, isActive: true }));
  const due = dueDates(actor.db, grades, student.profileId);
  const surveys = surveyWork(
    actor.db,
    spaces.map((s) => s.id),
    student.profileId,
  );
  return {
    student: { id: student.id, displayName: student.displayName },
    spaces: spaces.map((s, i) => {
      const g = grades[i] as Grades;
      const graded = g.columns.flatMap((c, j): Work[] => {
        const dueAt = c.contentId ? due.get(c.contentId) : null;
        if (dueAt == null || !c.contentId || c.type === "MANUAL") return [];
        const submitted = g.row.cells[j]?.status !== "NOT_SUBMITTED";
        return [{ contentId: c.contentId, title: c.title, type: c.type, at: dueAt, submitted }];
      });
      const work = [...graded, ...(surveys.get(s.id) ?? [])];
      const dueSoon = work.filter((w) => w.at >= now && w.at <= now + DUE_SOON).sort((a, b) => a.at - b.at);
      const missing = work.filter((w) => !w.submitted && w.at < now && w.at >= now - MISSING_SINCE).sort((a, b) => b.at - a.at);
      return {
        spaceId: s.id,
        name: s.name,
        grades: g,
        dueSoon: dueSoon.map(({ at, ...w }) => ({ ...w, dueAt: isoRequired(at) })),
        missing: missing.map(({ at, submitted: _, ...w }) => ({ ...w, dueAt: isoRequired(at) })),
      };
    }),
    recentNotices: recentNotices(
      actor.db,
      spaces.map((s) => s.id),
      now - NOTICES_SINCE,
      now,
    ).map((n) => ({ ...n, publishAt: isoRequired(n.publishAt) })),
  };
}
