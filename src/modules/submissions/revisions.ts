// Revision rules shared by both assignment kinds: what a submit may carry, when it is late, and
// which revision a manager may act on (docs/rules/submissions.md#latest-revision).
import { and, count, eq, inArray, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, type FieldError, invalidMany, notFound } from "../../platform/http/errors";
import { pageOf } from "../../platform/http/schemas";
import type { ContentType } from "../../schema/library";
import { contentForManager } from "../library/access";
import { gradeReturned } from "../library/notify";
import type { SubmissionStatus } from "./columns";

const blank = (v: string | null | undefined) => v == null || v.trim() === "";

/** 400 naming body and fileIds when the config requires them and they are missing. */
export function checkSubmitInput(
  cfg: { bodyRequired: boolean; fileRequired: boolean },
  body: string | null | undefined,
  fileIds: string[],
) {
  const errors: FieldError[] = [];
  if (cfg.bodyRequired && blank(body)) errors.push({ in: "body", field: "body", message: "is required by this assignment" });
  if (cfg.fileRequired && fileIds.length === 0) {
    errors.push({ in: "body", field: "fileIds", message: "must name at least one file for this assignment" });
  }
  if (errors.length) throw invalidMany(errors);
}

/** Whether a submit now is late against the submitter's deadline; 409 DEADLINE_PASSED when late is not allowed. */
export function lateMark(dueAt: number | null, now: number, allowLateSubmit: boolean): boolean {
  const isLate = dueAt !== null && now > dueAt;
  if (isLate && !allowLateSubmit) throw conflict("DEADLINE_PASSED", "The deadline of this assignment has passed.");
  return isLate;
}

/** The revision a manager acts on: unknown (or of another content) 404, an older revision 409 INVALID_STATE. */
export function requireLatest<R extends { isLatest: boolean }>(row: R | undefined, message: string): R {
  if (!row) throw notFound();
  if (!row.isLatest) throw conflict("INVALID_STATE", message);
  return row;
}

/** The change a grade makes: GRADED with returnedAt null, so a regrade of a RETURNED revision takes it back (docs/rules/submissions.md#returned-grades). */
export function gradedSet(score: number | null, feedback: string | null | undefined, now: number) {
  return { status: "GRADED" as const, score, feedback: feedback ?? null, gradedAt: now, returnedAt: null };
}

/** The change a return makes: GRADED → RETURNED (releases the grade), else 409 INVALID_STATE. */
export function returnedSet(status: SubmissionStatus, now: number) {
  if (status !== "GRADED") throw conflict("INVALID_STATE", "Only a GRADED submission can be returned.");
  return { status: "RETURNED" as const, returnedAt: now };
}

/** A submission table as the list sees it: the columns of the latest indexes. */
export type RevisionTable = SQLiteTable & {
  id: SQLiteColumn;
  contentId: SQLiteColumn;
  isLatest: SQLiteColumn;
  status: SQLiteColumn;
  submittedAt: SQLiteColumn;
};

/**
 * The page of a submission list (docs/rules/submissions.md#submission-lists): one row per submitter, its latest
 * revision; the status filter, total and pendingCount count these rows (the latest indexes).
 */
export function latestPage(
  db: Db,
  t: RevisionTable,
  contentId: string,
  query: { status?: SubmissionStatus; page?: number; pageSize?: number },
) {
  const latest = and(eq(t.contentId, contentId), eq(t.isLatest, true));
  const where = query.status ? and(latest, eq(t.status, query.status)) : latest;
  const countOf = (w: SQL | undefined) => db.select({ n: count() }).from(t).where(w).get()?.n ?? 0;
  const page = pageOf(countOf(where), query.page, query.pageSize);
  const pendingCount = query.status === "SUBMITTED" ? page.total : countOf(and(latest, eq(t.status, "SUBMITTED")));
  return { where, page, pendingCount };
}

/** The revision a manager's route names (its path params). */
export type RevisionRef = { contentId: string; submissionId: string };

/** Where a kind's revisions live, and the 409 message for a change to an older revision. */
export type LatestTarget = { type: ContentType; table: RevisionTable; message: string };

/**
 * A manager's change to a revision, in one transaction: manager access to the content, then the
 * revision of that content (404) that is its submitter's latest (409 INVALID_STATE with `message`).
 */
export function onLatestRevision<R extends { isLatest: boolean }, T>(
  actor: Actor,
  target: LatestTarget,
  ref: RevisionRef,
  change: (tx: Db, row: R) => T,
): T {
  return write(actor.db, (tx) => {
    contentForManager(actor, ref.contentId, target.type, tx);
    const t = target.table;
    const row = tx
      .select()
      .from(t)
      .where(and(eq(t.id, ref.submissionId), eq(t.contentId, ref.contentId)))
      .get() as R | undefined;
    return change(tx, requireLatest(row, target.message));
  });
}

type LatestRow = { id: string; isLatest: boolean; status: SubmissionStatus };
type RevisionSet = Partial<{ status: SubmissionStatus; feedback: string | null; returnedAt: number | null }>;

/** How a kind applies a manager's change: `change` stores it and renders the revision; a return tells `recipients` (profiles). */
export type RevisionChanges<R extends LatestRow, T> = LatestTarget & {
  change: (tx: Db, id: string, set: RevisionSet) => T;
  recipients: (tx: Db, row: R) => string[];
};

/** saveSubmissionFeedback, saveGroupSubmissionFeedback: the feedback alone on the latest revision; status and grade stay. */
export function saveFeedback<R extends LatestRow, T>(
  actor: Actor,
  kind: RevisionChanges<R, T>,
  ref: RevisionRef,
  feedback?: string | null,
) {
  return onLatestRevision(actor, kind, ref, (tx, row: R) => kind.change(tx, row.id, { feedback: feedback ?? null }));
}

/**
 * returnSubmission, returnGroupSubmission: GRADED → RETURNED on the latest revision (else 409
 * INVALID_STATE), releasing the grade (docs/rules/submissions.md#returned-grades); GRADE_RETURNED to the
 * kind's recipients in the same transaction.
 */
export function returnLatest<R extends LatestRow, T>(actor: Actor, kind: RevisionChanges<R, T>, ref: RevisionRef, now: number): T {
  return onLatestRevision(actor, kind, ref, (tx, row: R) => {
    const returned = kind.change(tx, row.id, returnedSet(row.status, now));
    gradeReturned(tx, actor, ref.contentId, kind.recipients(tx, row), now);
    return returned;
  });
}

/**
 * returnAllSubmissions: every GRADED latest revision of the content becomes RETURNED, as a return of
 * each would (docs/rules/next-year.md#return-all); older revisions and ungraded ones are untouched.
 * GRADE_RETURNED goes to `recipients` of the returned ids (profiles) in the same transaction. Returns the ids.
 */
export function returnAllLatest(
  actor: Actor,
  target: { type: ContentType; table: RevisionTable },
  contentId: string,
  now: number,
  recipients: (tx: Db, ids: string[]) => string[],
) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, target.type, tx);
    const t = target.table;
    const ids = tx
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.contentId, contentId), eq(t.isLatest, true), eq(t.status, "GRADED")))
      .all()
      .map((r) => r.id as string);
    if (ids.length) {
      tx.update(t).set(returnedSet("GRADED", now)).where(inArray(t.id, ids)).run();
      gradeReturned(tx, actor, contentId, recipients(tx, ids), now);
    }
    return ids;
  });
}
