// Grading: grade, feedback and return act on a submitter's latest revision only (docs/rules/submissions.md#latest-revision).
import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, inJsonList } from "../../platform/db/types";
import { type FieldError, invalidMany } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { checkMaxScore, checkRubricItems, rubricTotal } from "../submissions/grading";
import {
  gradedSet,
  onLatestRevision,
  type RevisionChanges,
  type RevisionRef,
  returnAllLatest,
  returnLatest,
  saveFeedback,
} from "../submissions/revisions";
import { ASSIGNMENT, loadAssignmentConfig, loadAssignmentRubric } from "./config";
import type { FeedbackBody, GradeBody, Submission } from "./model";
import { type SubmissionRow, selectSubmissions, toSubmissions } from "./submissions";
import { assignmentSubmissions } from "./tables";

const s = assignmentSubmissions;
const LATEST = {
  type: ASSIGNMENT,
  table: s,
  message: "Only the latest revision of a submission can be graded, given feedback or returned.",
} as const;

/** Applies a change to the latest revision and renders it for the manager. */
function update(rt: Runtime, actor: Actor, tx: Db, id: string, set: Partial<SubmissionRow>): Static<typeof Submission> {
  tx.update(s).set(set).where(eq(s.id, id)).run();
  return toSubmissions(rt, actor, tx, selectSubmissions(tx, eq(s.id, id)).all(), "manager")[0] as Static<typeof Submission>;
}

/** The manager's changes through the shared flows: a return tells the submitter. */
const changes = (rt: Runtime, actor: Actor): RevisionChanges<SubmissionRow, Static<typeof Submission>> => ({
  ...LATEST,
  change: (tx, id, set) => update(rt, actor, tx, id, set),
  recipients: (_tx, row) => [row.profileId],
});

/**
 * gradeSubmission: PUT, full replace of the grade (absent feedback or rubric clears it). Without a
 * score, rubric items give score = their total. The score may not exceed maxScore. Every status
 * becomes GRADED with returnedAt null: a regrade of a RETURNED submission takes it back, and the new
 * grade is released by returning it again (docs/rules/submissions.md#returned-grades; as gradeGroupSubmission).
 */
export function gradeSubmission(rt: Runtime, actor: Actor, ref: RevisionRef, body: Static<typeof GradeBody>, now = Date.now()) {
  return onLatestRevision(actor, LATEST, ref, (tx, row: SubmissionRow) => {
    const errors: FieldError[] = [];
    const items = body.rubric?.length ? checkRubricItems(loadAssignmentRubric(tx, ref.contentId), body.rubric, errors) : null;
    const score = body.score ?? (items ? rubricTotal(items) : null);
    checkMaxScore(score, loadAssignmentConfig(tx, ref.contentId).maxScore, body.score == null ? "rubric" : "score", errors);
    if (errors.length) throw invalidMany(errors);
    return update(rt, actor, tx, row.id, { ...gradedSet(score, body.feedback, now), rubricItems: items });
  });
}

/** saveSubmissionFeedback: sets the feedback alone; status and grade are unchanged. */
export function saveSubmissionFeedback(rt: Runtime, actor: Actor, ref: RevisionRef, body: Static<typeof FeedbackBody>) {
  return saveFeedback(actor, changes(rt, actor), ref, body.feedback);
}

/** returnSubmission: GRADED → RETURNED (releases the grade to the submitter), else 409 INVALID_STATE. */
export function returnSubmission(rt: Runtime, actor: Actor, ref: RevisionRef, now = Date.now()) {
  return returnLatest(actor, changes(rt, actor), ref, now);
}

/** returnAllSubmissions: every GRADED latest revision is returned at once (as returnSubmission each, GRADE_RETURNED included). */
export function returnAllSubmissions(actor: Actor, contentId: string, now = Date.now()) {
  const t = assignmentSubmissions;
  const submitters = (tx: Db, ids: string[]) =>
    tx
      .select({ p: t.profileId })
      .from(t)
      .where(inJsonList(t.id, ids))
      .all()
      .map((r) => r.p);
  return { returned: returnAllLatest(actor, LATEST, contentId, now, submitters).length };
}
