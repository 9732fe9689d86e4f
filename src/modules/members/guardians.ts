// Guardian links (docs/rules/members.md#guardian-links): who may see a student's overview and get
// copies of the student's notifications. The guardians feature reads them through the lookups below.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { members, profiles } from "../../schema/members";
import { memberGuardians as g } from "./tables";

/** docs/rules/members.md#guardian-links */
export const MAX_GUARDIANS = 4;

const activeMember = (db: Db, id: string) =>
  db.select({ id: members.id, isActive: members.isActive }).from(members).where(eq(members.id, id)).get();

/**
 * Links `guardianId` to `studentId` in the caller's transaction (the student exists). Refusals name
 * `field`: oneself or an unknown or inactive guardian (400); an inactive student (409
 * INVALID_STATE), a link present (409 ALREADY_EXISTS), a fifth guardian (409 INVALID_STATE).
 */
export function linkGuardian(tx: Db, student: { id: string; isActive: boolean }, guardianId: string, now: number, field = "guardianId") {
  if (guardianId === student.id) throw invalid(field, "a member cannot be their own guardian");
  if (!activeMember(tx, guardianId)?.isActive) throw invalid(field, "is not an active member of this tenant");
  if (!student.isActive) throw conflict("INVALID_STATE", "An inactive member gets no new guardians.");
  const links = tx
    .select({ guardianId: g.guardianId })
    .from(g)
    .where(eq(g.studentId, student.id))
    .all()
    .map((r) => r.guardianId);
  if (links.includes(guardianId)) throw conflict("ALREADY_EXISTS", "This member is already a guardian of the student.");
  if (links.length >= MAX_GUARDIANS) throw conflict("INVALID_STATE", `A student has at most ${MAX_GUARDIANS} guardians.`);
  tx.insert(g).values({ studentId: student.id, guardianId, createdAt: now }).run();
}

/** A student's guardians, oldest link first. */
function guardiansList(db: Db, studentId: string) {
  const guardians = db
    .select({ id: members.id, userId: members.userId, displayName: members.displayName, email: members.email })
    .from(g)
    .innerJoin(members, eq(members.id, g.guardianId))
    .where(eq(g.studentId, studentId))
    .orderBy(asc(g.createdAt), asc(g.guardianId))
    .all();
  return { guardians };
}

function studentOr404(db: Db, id: string) {
  const student = activeMember(db, id);
  if (!student) throw notFound();
  return student;
}

/** addMemberGuardian: the link, then the student's guardians. */
export function addMemberGuardian(actor: Actor, studentId: string, guardianId: string, now = Date.now()) {
  return write(actor.db, (tx) => {
    linkGuardian(tx, studentOr404(tx, studentId), guardianId, now);
    return guardiansList(tx, studentId);
  });
}

/** removeMemberGuardian: a link that does not exist is 404. Copies and the overview stop with the link. */
export function removeMemberGuardian(actor: Actor, studentId: string, guardianId: string) {
  write(actor.db, (tx) => {
    const gone = tx
      .delete(g)
      .where(and(eq(g.studentId, studentId), eq(g.guardianId, guardianId)))
      .returning({ id: g.guardianId })
      .get();
    if (!gone) throw notFound();
  });
}

/** listMemberGuardians: every link, inactive guardians included (docs/rules/members.md#inactive-members). */
export function listMemberGuardians(actor: Actor, studentId: string) {
  studentOr404(actor.db, studentId);
  return guardiansList(actor.db, studentId);
}

/** The active students `guardianId` is linked to, by name (listMyStudents, the overview's check). */
export function studentsOfGuardian(db: Db, guardianId: string, studentId?: string) {
  return db
    .select({ id: members.id, profileId: profiles.id, displayName: members.displayName, userId: members.userId })
    .from(g)
    .innerJoin(members, and(eq(members.id, g.studentId), eq(members.isActive, true)))
    .innerJoin(profiles, and(eq(profiles.memberId, g.studentId), eq(profiles.isMain, true)))
    .where(and(eq(g.guardianId, guardianId), studentId === undefined ? undefined : eq(g.studentId, studentId)))
    .orderBy(asc(members.displayName), asc(members.id))
    .all();
}

/**
 * The active guardians of each student given, in one query: the lookup the notifications base
 * calls for GUARDIAN_* copies (registered in app.ts). A removed link is gone from the next call.
 */
export function activeGuardiansOf(db: Db, studentIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (studentIds.length === 0) return out;
  const rows = db
    .select({ studentId: g.studentId, guardianId: g.guardianId })
    .from(g)
    .innerJoin(members, and(eq(members.id, g.guardianId), eq(members.isActive, true)))
    .where(inArray(g.studentId, studentIds))
    .all();
  for (const r of rows) out.set(r.studentId, [...(out.get(r.studentId) ?? []), r.guardianId]);
  return out;
}
