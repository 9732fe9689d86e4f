// Grading: grade, feedback and return act on a submitter's latest revision only (DECISIONS §9.3).
import { and, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, type FieldError, invalidMany, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { contentForManager } from "../library/access";
import { ASSIGNMENT, loadAssignmentConfig, loadAssignmentRubric, type RubricRow } from "./config";
import type { FeedbackBody, GradeBody, Submission } from "./model";
import { type SubmissionRow, selectSubmissions, toSubmissions } from "./submissions";
import { assignmentSubmissions, type RubricItem } from "./tables";

const s = assignmentSubmissions;

/** The manager's latest revision: 404 for an id of another assignment, 409 INVALID_STATE for an older revision. */
function latestSubmission(tx: Db, contentId: string, submissionId: string): SubmissionRow {
  const row = tx
    .select()
    .from(s)
    .where(and(eq(s.id, submissionId), eq(s.contentId, contentId)))
    .get();
  if (!row) throw notFound();
  if (!row.isLatest) throw conflict("INVALID_STATE", "Only the latest revision of a submission can be graded, given feedback or returned.");
  return row;
}

function render(rt: Runtime, actor: Actor, tx: Db, id: string): Static<typeof Submission> {
  return toSubmissions(rt, actor, tx, selectSubmissions(tx, eq(s.id, id)).all(), "manager")[0] as Static<typeof Submission>;
}

/**
 * Checks rubric items against the assignment's rubric: each criterion once; with useLevel a level
 * of that criterion is required and its points are the default; without, levelId must be absent
 * and points are required; points never above the criterion's maxPoints.
 */
function checkRubricItems(rubric: RubricRow, items: NonNullable<Static<typeof GradeBody>["rubric"]>, errors: FieldError[]): RubricItem[] {
  const err = (field: string, message: string) => errors.push({ in: "body", field, message });
  const criteria = new Map(rubric.criteria.map((c) => [c.id, c]));
  const seen = new Set<string>();
  const out: RubricItem[] = [];
  for (const [i, item] of items.entries()) {
    const at = `rubric[${i}]`;
    const c = criteria.get(item.criterionId);
    if (!c || seen.has(item.criterionId)) {
      err(`${at}.criterionId`, c ? "repeats an earlier criterion" : "must be a criterion of this assignment's rubric");
      continue;
    }
    seen.add(c.id);
    let points = item.points;
    let levelId: string | null = null;
    if (rubric.useLevel) {
      const level = item.levelId == null ? undefined : c.levels.find((l) => l.id === item.levelId);
      if (!level) {
        err(`${at}.levelId`, "must be a level of this criterion");
        continue;
      }
      levelId = level.id;
      points ??= level.points;
    } else if (item.levelId != null) {
      err(`${at}.levelId`, "must be absent or null while the rubric does not use levels");
      continue;
    }
    if (points === undefined) {
      err(`${at}.points`, "is required while the rubric does not use levels");
      continue;
    }
    if (points > c.maxPoints) {
      err(`${at}.points`, `must be at most the criterion's maxPoints (${c.maxPoints})`);
      continue;
    }
    out.push({ criterionId: c.id, levelId, points });
  }
  return out;
}

/**
 * gradeSubmission: PUT, full replace of the grade (absent feedback or rubric clears it). Without a
 * score, rubric items give score = their total. The score may not exceed maxScore. Every status
 * becomes GRADED with returnedAt null: a regrade of a RETURNED submission takes it back, and the new
 * grade is released by returning it again (DECISIONS §9.1 Returned grades; as gradeGroupSubmission).
 */
export function gradeSubmission(
  rt: Runtime,
  actor: Actor,
  contentId: string,
  submissionId: string,
  body: Static<typeof GradeBody>,
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, ASSIGNMENT, tx);
    const row = latestSubmission(tx, contentId, submissionId);
    const errors: FieldError[] = [];
    const items = body.rubric?.length ? checkRubricItems(loadAssignmentRubric(tx, contentId), body.rubric, errors) : null;
    const score = body.score ?? (items ? items.reduce((sum, i) => sum + i.points, 0) : null);
    const { maxScore } = loadAssignmentConfig(tx, contentId);
    if (maxScore !== null && score !== null && score > maxScore) {
      errors.push({
        in: "body",
        field: body.score == null ? "rubric" : "score",
        message: `must be at most the assignment's maxScore (${maxScore})`,
      });
    }
    if (errors.length) throw invalidMany(errors);
    tx.update(s)
      .set({
        score,
        feedback: body.feedback ?? null,
        rubricItems: items,
        gradedAt: now,
        status: "GRADED",
        returnedAt: null,
      })
      .where(eq(s.id, row.id))
      .run();
    return render(rt, actor, tx, row.id);
  });
}

/** saveSubmissionFeedback: sets the feedback alone; status and grade are unchanged. */
export function saveSubmissionFeedback(
  rt: Runtime,
  actor: Actor,
  contentId: string,
  submissionId: string,
  body: Static<typeof FeedbackBody>,
) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, ASSIGNMENT, tx);
    const row = latestSubmission(tx, contentId, submissionId);
    tx.update(s)
      .set({ feedback: body.feedback ?? null })
      .where(eq(s.id, row.id))
      .run();
    return render(rt, actor, tx, row.id);
  });
}

/** returnSubmission: GRADED → RETURNED (releases the grade to the submitter), else 409 INVALID_STATE. */
export function returnSubmission(rt: Runtime, actor: Actor, contentId: string, submissionId: string, now = Date.now()) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, ASSIGNMENT, tx);
    const row = latestSubmission(tx, contentId, submissionId);
    if (row.status !== "GRADED") throw conflict("INVALID_STATE", "Only a GRADED submission can be returned.");
    tx.update(s).set({ status: "RETURNED", returnedAt: now }).where(eq(s.id, row.id)).run();
    return render(rt, actor, tx, row.id);
  });
}
