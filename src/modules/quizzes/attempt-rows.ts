// Attempt and answer rows as both sides read them: question sets, answers in question order, feedback, one's own attempts.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Static } from "elysia";
import { preparedQuery } from "../../platform/db/sqlite";
import type { Db } from "../../platform/db/types";
import { notFound } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import type { Feedback } from "./model";
import { quizAnswers, quizAttempts, quizQuestionSets, type StoredQuestion } from "./tables";

export type AttemptRow = typeof quizAttempts.$inferSelect;
export type AnswerRow = typeof quizAnswers.$inferSelect;

/** A submit is accepted this long after `expiresAt`; later the attempt is submitted with its saved answers. */
export const SUBMIT_GRACE_MS = 30_000;

// ---- shared with the manager side --------------------------------------------------------------

export function feedbackOf(a: AnswerRow): Static<typeof Feedback> | null {
  if (a.feedbackText === null || a.feedbackAuthorProfileId === null) return null;
  return {
    text: a.feedbackText,
    authorProfileId: a.feedbackAuthorProfileId,
    createdAt: isoRequired(a.feedbackCreatedAt as number),
    updatedAt: isoRequired(a.feedbackUpdatedAt as number),
  };
}

export const correctOptionIds = (q: StoredQuestion) => q.options.filter((o) => o.isCorrect).map((o) => o.id);

/** The question sets of some attempts, in one query. */
export function questionSetsOf(db: Db, ids: string[]): Map<string, StoredQuestion[]> {
  if (ids.length === 0) return new Map();
  const rows = db
    .select({ id: quizQuestionSets.id, questions: quizQuestionSets.questions })
    .from(quizQuestionSets)
    .where(inArray(quizQuestionSets.id, [...new Set(ids)]))
    .all();
  return new Map(rows.map((r) => [r.id, r.questions]));
}

/** The answer rows of some attempts, in one query, grouped by attempt. */
export function answersOf(db: Db, attemptIds: string[]): Map<string, AnswerRow[]> {
  const out = new Map<string, AnswerRow[]>(attemptIds.map((id) => [id, []]));
  if (attemptIds.length === 0) return out;
  const rows =
    attemptIds.length === 1
      ? preparedQuery(db, "quizzes.answersOfOne", (base) =>
          base
            .select()
            .from(quizAnswers)
            .where(eq(quizAnswers.attemptId, sql.placeholder("attemptId")))
            .prepare(),
        ).all({ attemptId: attemptIds[0] })
      : db.select().from(quizAnswers).where(inArray(quizAnswers.attemptId, attemptIds)).all();
  for (const a of rows) out.get(a.attemptId)?.push(a);
  return out;
}

/** Answer rows in the order of the questions of their set. */
export function inQuestionOrder(questions: StoredQuestion[], answers: AnswerRow[]): { q: StoredQuestion; a: AnswerRow }[] {
  const byQuestion = new Map(answers.map((a) => [a.questionId, a]));
  return questions.flatMap((q) => {
    const a = byQuestion.get(q.id);
    return a ? [{ q, a }] : [];
  });
}

/** Voided attempts stay listed but count toward nothing (docs/rules/quizzes.md#another-chance). */
export const counts = (a: { voidedAt: number | null }) => a.voidedAt === null;

export function ownAttempts(db: Db, contentId: string, profileId: string): AttemptRow[] {
  return preparedQuery(db, "quizzes.ownAttempts", (base) =>
    base
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.contentId, sql.placeholder("contentId")), eq(quizAttempts.profileId, sql.placeholder("profileId"))))
      .orderBy(desc(quizAttempts.startedAt), desc(quizAttempts.id))
      .prepare(),
  ).all({ contentId, profileId });
}

export function ownAttempt(db: Db, contentId: string, profileId: string, attemptId: string): AttemptRow {
  const row = preparedQuery(db, "quizzes.ownAttempt", (base) =>
    base
      .select()
      .from(quizAttempts)
      .where(
        and(
          eq(quizAttempts.id, sql.placeholder("attemptId")),
          eq(quizAttempts.contentId, sql.placeholder("contentId")),
          eq(quizAttempts.profileId, sql.placeholder("profileId")),
        ),
      )
      .prepare(),
  ).get({ attemptId, contentId, profileId });
  if (!row) throw notFound();
  return row;
}
