// Per-student exceptions (setQuizOverride): one participant's window, time limit and attempts. Every
// check made for a participant reads its config through effectiveQuizConfig
// (docs/rules/next-year.md#quiz-overrides).
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound } from "../../platform/http/errors";
import { iso } from "../../platform/http/schemas";
import { timeWindow } from "../../platform/http/time-window";
import { contentForManager, contentPopulation } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { loadQuizConfig, QUIZ, type StoredConfig } from "./config";
import type { QuizOverride, QuizOverrideBody } from "./model";
import { quizOverrides as o } from "./tables";

type OverrideRow = typeof o.$inferSelect;

function loadOverride(db: Db, contentId: string, profileId: string): OverrideRow | undefined {
  return preparedQuery(db, "quizzes.override", (base) =>
    base
      .select()
      .from(o)
      .where(and(eq(o.contentId, sql.placeholder("contentId")), eq(o.profileId, sql.placeholder("profileId"))))
      .prepare(),
  ).get({ contentId, profileId });
}

/** The quiz's settings with one participant's override applied (a null field keeps the quiz's own). */
export function withOverride(
  cfg: StoredConfig,
  row: Pick<OverrideRow, "opensAt" | "closesAt" | "timeLimitMin" | "maxAttempts"> | undefined,
) {
  if (!row) return cfg;
  return {
    ...cfg,
    opensAt: row.opensAt ?? cfg.opensAt,
    closesAt: row.closesAt ?? cfg.closesAt,
    timeLimitMin: row.timeLimitMin ?? cfg.timeLimitMin,
    maxAttempts: row.maxAttempts ?? cfg.maxAttempts,
  };
}

/** The config one participant works under: the quiz's, with their override. */
export function effectiveQuizConfig(db: Db, contentId: string, profileId: string): StoredConfig {
  return withOverride(loadQuizConfig(db, contentId), loadOverride(db, contentId, profileId));
}

/** Own closing times of some quizzes (of some profiles, or all), keyed `${contentId}:${profileId}`: one query. */
export function ownClosesAt(db: Db, contentIds: string[], profileIds: string[] | null): Map<string, number> {
  if (contentIds.length === 0 || profileIds?.length === 0) return new Map();
  // One quiz and one participant (every participant step): the prepared override read.
  const [contentId, profileId] = [contentIds[0] as string, profileIds?.[0]];
  if (contentIds.length === 1 && profileIds?.length === 1 && profileId) {
    const closesAt = loadOverride(db, contentId, profileId)?.closesAt ?? null;
    return closesAt === null ? new Map() : new Map([[`${contentId}:${profileId}`, closesAt]]);
  }
  const all = db
    .select({ contentId: o.contentId, profileId: o.profileId, closesAt: o.closesAt })
    .from(o)
    .where(and(inArray(o.contentId, contentIds), profileIds ? inArray(o.profileId, profileIds) : undefined, isNotNull(o.closesAt)))
    .all();
  return new Map(all.map((r) => [`${r.contentId}:${r.profileId}`, r.closesAt as number]));
}

function toOverride(r: OverrideRow): Static<typeof QuizOverride> {
  return {
    profileId: r.profileId,
    opensAt: iso(r.opensAt),
    closesAt: iso(r.closesAt),
    timeLimitMinutes: r.timeLimitMin,
    maxAttempts: r.maxAttempts,
  };
}

/**
 * setQuizOverride: replaces one participant's override. The profile must be a participant of the
 * quiz (its space's, else 400 naming profileId); closesAt after opensAt once the quiz's own values
 * fill the nulls (400 naming closesAt).
 */
export function setQuizOverride(
  actor: Actor,
  contentId: string,
  profileId: string,
  body: Static<typeof QuizOverrideBody>,
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    const content = contentForManager(actor, contentId, QUIZ, tx);
    if (!contentPopulation(tx, content).some((p) => p.profileId === profileId)) {
      throw invalid("profileId", "must be a participant of this quiz", "path");
    }
    const own = timeWindow(body.opensAt, body.closesAt, "closesAt", "opensAt");
    const row = {
      opensAt: own.start,
      closesAt: own.end,
      timeLimitMin: body.timeLimitMinutes ?? null,
      maxAttempts: body.maxAttempts ?? null,
      updatedAt: now,
    };
    const effective = withOverride(loadQuizConfig(tx, contentId), row);
    if (effective.opensAt !== null && effective.closesAt !== null && effective.closesAt <= effective.opensAt) {
      throw invalid("closesAt", "must be after opensAt (the quiz's own where the override leaves it null)");
    }
    const saved = tx
      .insert(o)
      .values({ contentId, profileId, ...row })
      .onConflictDoUpdate({ target: [o.contentId, o.profileId], set: row })
      .returning()
      .get();
    dueMomentsChanged(tx, actor, contentId, QUIZ); // a participant's closesAt moved: docs/rules/notifications.md#due-soon
    return toOverride(saved);
  });
}

/** deleteQuizOverride: the participant goes back to the quiz's own settings; none set: 404. */
export function deleteQuizOverride(actor: Actor, contentId: string, profileId: string) {
  write(actor.db, (tx) => {
    contentForManager(actor, contentId, QUIZ, tx);
    if (!loadOverride(tx, contentId, profileId)) throw notFound();
    tx.delete(o)
      .where(and(eq(o.contentId, contentId), eq(o.profileId, profileId)))
      .run();
    dueMomentsChanged(tx, actor, contentId, QUIZ);
  });
}

/** listQuizOverrides: every override of the quiz (a quiz has at most one per participant). */
export function listQuizOverrides(actor: Actor, contentId: string) {
  contentForManager(actor, contentId, QUIZ);
  const rows = actor.db.select().from(o).where(eq(o.contentId, contentId)).orderBy(asc(o.profileId)).all();
  return { overrides: rows.map(toOverride) };
}
