// Closing attempts: scoring on submit, and the automatic submit of attempts whose time or window is over
// (docs/rules/quizzes.md#attempts, docs/rules/quizzes.md#windows).
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { type AnswerRow, type AttemptRow, answersOf, inQuestionOrder, SUBMIT_GRACE_MS } from "./attempt-rows";
import { loadQuestionSet, loadQuizConfig, type StoredConfig } from "./config";
import { ownClosesAt } from "./overrides";
import { attemptTotals, scoreAnswer } from "./scoring";
import { quizAnswers, quizAttempts, quizConfigs } from "./tables";

/**
 * Scores every answer of an attempt and closes it (submit, or the automatic submit after expiry); the
 * closed attempt and its answer rows as now stored.
 */
export function closeAttempt(tx: Db, attempt: AttemptRow, cfg: StoredConfig, submittedAt: number) {
  const questions = loadQuestionSet(tx, attempt.questionSetId);
  const rows = answersOf(tx, [attempt.id]).get(attempt.id) ?? [];
  const scored = inQuestionOrder(questions, rows).map(({ q, a }) => ({ id: a.id, ...scoreAnswer(q, a, cfg.partialCreditMultiple) }));
  storeScores(tx, scored, submittedAt);
  const byId = new Map(scored.map((s) => [s.id, s]));
  const answers = rows.map((a): AnswerRow => {
    const s = byId.get(a.id);
    return s ? { ...a, answered: s.answered, isCorrect: s.isCorrect, pointsAwarded: s.pointsAwarded, submittedAt } : a;
  });
  const totals = attemptTotals(scored);
  const updated = preparedQuery(tx, "quizzes.closeAttempt", (base) =>
    base
      .update(quizAttempts)
      // update().set() takes no bare placeholders: each is wrapped in sql (values reach SQLite as given).
      .set({
        submittedAt: sql`${sql.placeholder("submittedAt")}`,
        score: sql`${sql.placeholder("score")}`,
        hasPendingManual: sql`${sql.placeholder("hasPendingManual")}`,
        scoringCompletedAt: sql`${sql.placeholder("scoringCompletedAt")}`,
      })
      .where(eq(quizAttempts.id, sql.placeholder("id")))
      .returning()
      .prepare(),
  ).get({
    submittedAt,
    score: totals.score,
    hasPendingManual: totals.hasPendingManual ? 1 : 0,
    scoringCompletedAt: totals.hasPendingManual ? null : submittedAt,
    id: attempt.id,
  }) as AttemptRow;
  return { attempt: updated, answers };
}

/**
 * The scores of an attempt's answers: one prepared UPDATE per answer by its id (an UPDATE over a JSON
 * list joined every row with every list item: docs/rules/performance.md#prepared-queries).
 */
function storeScores(tx: Db, scored: ({ id: string } & ReturnType<typeof scoreAnswer>)[], submittedAt: number) {
  const update = preparedQuery(tx, "quizzes.storeScore", (base) =>
    base
      .update(quizAnswers)
      .set({
        answered: sql`${sql.placeholder("a")}`,
        isCorrect: sql`${sql.placeholder("c")}`,
        pointsAwarded: sql`${sql.placeholder("p")}`,
        submittedAt: sql`${sql.placeholder("submittedAt")}`,
      })
      .where(eq(quizAnswers.id, sql.placeholder("id")))
      .prepare(),
  );
  for (const s of scored) {
    update.run({ a: s.answered ? 1 : 0, c: s.isCorrect === null ? null : s.isCorrect ? 1 : 0, p: s.pointsAwarded, submittedAt, id: s.id });
  }
}

export const closed = (closesAt: number | null, now: number) => closesAt !== null && now >= closesAt;

/** Whether an open attempt is over: its time and grace are up, or the quiz closed (docs/rules/quizzes.md#attempts, docs/rules/quizzes.md#windows). */
const isOverdue = (a: { expiresAt: number | null }, closesAt: number | null, now: number) =>
  closed(closesAt, now) || (a.expiresAt !== null && a.expiresAt < now - SUBMIT_GRACE_MS);

/** The moment an overdue attempt is submitted at: its time limit or the quiz's closesAt, whichever came first. */
const overdueAt = (a: { expiresAt: number | null }, closesAt: number | null) => Math.min(a.expiresAt ?? Infinity, closesAt ?? Infinity);

const closesAtOf = (db: Db, contentId: string) =>
  preparedQuery(db, "quizzes.closesAt", (base) =>
    base
      .select({ closesAt: quizConfigs.closesAt })
      .from(quizConfigs)
      .where(eq(quizConfigs.contentId, sql.placeholder("contentId")))
      .prepare(),
  ).get({ contentId })?.closesAt ?? null;

/**
 * Whether one participant's attempts (`mine`, all of them) hold an overdue one, `closesAt` being their
 * effective one (docs/rules/quizzes.md#attempts): the participant steps read their attempts anyway, so
 * this costs no query.
 */
export const anyOverdue = (mine: readonly AttemptRow[], closesAt: number | null, now: number) =>
  mine.some((a) => a.submittedAt === null && isOverdue(a, closesAt, now));

/** One participant's open attempts of a quiz (checked for being overdue before every participant step). */
export const ownOpenAttempts = (db: Db, contentId: string, profileId: string) =>
  preparedQuery(db, "quizzes.ownOpenAttempts", (base) =>
    base
      .select()
      .from(quizAttempts)
      .where(
        and(
          eq(quizAttempts.contentId, sql.placeholder("contentId")),
          isNull(quizAttempts.submittedAt),
          eq(quizAttempts.profileId, sql.placeholder("profileId")),
        ),
      )
      .prepare(),
  ).all({ contentId, profileId });

/**
 * Attempts of a quiz (of one profile, or all) never submitted whose time and grace are over, or whose
 * participant's window closed (their override's closesAt, else the quiz's), each with that closesAt.
 */
function overdueAttempts(db: Db, contentId: string, profileId: string | null, now: number) {
  const open =
    profileId === null
      ? db
          .select()
          .from(quizAttempts)
          .where(and(eq(quizAttempts.contentId, contentId), isNull(quizAttempts.submittedAt)))
          .all()
      : ownOpenAttempts(db, contentId, profileId);
  if (open.length === 0) return [];
  const quizClosesAt = closesAtOf(db, contentId);
  const own = ownClosesAt(db, [contentId], profileId === null ? null : [profileId]);
  return open.flatMap((a) => {
    const closesAt = own.get(`${contentId}:${a.profileId}`) ?? quizClosesAt;
    return isOverdue(a, closesAt, now) ? [{ a, closesAt }] : [];
  });
}

/** Submits, inside the caller's transaction, the overdue attempts with their saved answers (at expiresAt or closesAt). */
export function closeExpired(tx: Db, contentId: string, profileId: string | null, now: number) {
  const rows = overdueAttempts(tx, contentId, profileId, now);
  if (rows.length === 0) return;
  const cfg = loadQuizConfig(tx, contentId);
  for (const { a, closesAt } of rows) closeAttempt(tx, a, cfg, overdueAt(a, closesAt));
}

/**
 * Before a read: submits the overdue attempts of the quiz (of one profile, or all). Two indexed
 * probes; a write transaction only when there is something to close.
 */
export function settleExpired(db: Db, contentId: string, profileId: string | null, now: number) {
  if (overdueAttempts(db, contentId, profileId, now).length === 0) return;
  write(db, (tx) => closeExpired(tx, contentId, profileId, now));
}

/** settleExpired for many quizzes at once (the gradebook): two queries, a write only when something is overdue. */
export function settleExpiredQuizzes(db: Db, contentIds: string[], now: number) {
  if (contentIds.length === 0) return;
  const closesAt = new Map(
    db
      .select({ id: quizConfigs.contentId, closesAt: quizConfigs.closesAt })
      .from(quizConfigs)
      .where(inArray(quizConfigs.contentId, contentIds))
      .all()
      .map((r) => [r.id, r.closesAt]),
  );
  const open = db
    .select({ contentId: quizAttempts.contentId, profileId: quizAttempts.profileId, expiresAt: quizAttempts.expiresAt })
    .from(quizAttempts)
    .where(and(inArray(quizAttempts.contentId, contentIds), isNull(quizAttempts.submittedAt)))
    .all();
  const own = open.length ? ownClosesAt(db, contentIds, null) : new Map<string, number>();
  const closesFor = (a: (typeof open)[number]) => own.get(`${a.contentId}:${a.profileId}`) ?? closesAt.get(a.contentId) ?? null;
  const due = new Set(open.filter((a) => isOverdue(a, closesFor(a), now)).map((a) => a.contentId));
  if (due.size === 0) return;
  write(db, (tx) => {
    for (const id of due) closeExpired(tx, id, null, now);
  });
}
