// Manual gradebook columns, their scores and the columns' weights (docs/rules/next-year.md#gradebook).
import { and, asc, eq, inArray, max } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { type FieldError, invalid, invalidMany, notFound } from "../../platform/http/errors";
import { gradableContents } from "../library/access";
import { requireSpaceAdmin } from "../spaces/access";
import { enrolledParticipantProfiles } from "../spaces/roster";
import type { CreateGradeColumnBody, GradebookWeightsBody, GradeColumn, GradeColumnScoresBody, UpdateGradeColumnBody } from "./model";
import { gradebookWeights, gradeColumnScores, gradeColumns } from "./tables";

type ColumnRow = typeof gradeColumns.$inferSelect;
const toColumn = (r: ColumnRow): Static<typeof GradeColumn> => ({ id: r.id, title: r.title, maxScore: r.maxScore, weight: r.weight });

/** The manual columns of a space, oldest first. */
export function manualColumns(db: Db, spaceId: string): ColumnRow[] {
  return db
    .select()
    .from(gradeColumns)
    .where(eq(gradeColumns.spaceId, spaceId))
    .orderBy(asc(gradeColumns.createdAt), asc(gradeColumns.id))
    .all();
}

/** Every score of some manual columns (of one profile when given), keyed `${columnId}:${profileId}`: one query. */
export function manualScores(db: Db, columnIds: string[], profileId: string | null): Map<string, number> {
  if (columnIds.length === 0) return new Map();
  const s = gradeColumnScores;
  const rows = db
    .select({ columnId: s.columnId, profileId: s.profileId, score: s.score })
    .from(s)
    .where(and(inArray(s.columnId, columnIds), profileId === null ? undefined : eq(s.profileId, profileId)))
    .all();
  return new Map(rows.map((r) => [`${r.columnId}:${r.profileId}`, r.score]));
}

/** The weights set for some contents (absent = 1): one query. */
export function contentWeights(db: Db, contentIds: string[]): Map<string, number> {
  if (contentIds.length === 0) return new Map();
  const rows = db.select().from(gradebookWeights).where(inArray(gradebookWeights.contentId, contentIds)).all();
  return new Map(rows.map((r) => [r.contentId, r.weight]));
}

function columnOf(actor: Actor, tx: Db, spaceId: string, columnId: string): ColumnRow {
  requireSpaceAdmin(actor, spaceId, tx);
  const row = tx
    .select()
    .from(gradeColumns)
    .where(and(eq(gradeColumns.id, columnId), eq(gradeColumns.spaceId, spaceId)))
    .get();
  if (!row) throw notFound();
  return row;
}

export function createGradeColumn(actor: Actor, spaceId: string, body: Static<typeof CreateGradeColumnBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    const row = tx
      .insert(gradeColumns)
      .values({
        id: Bun.randomUUIDv7(),
        spaceId,
        title: body.title,
        maxScore: body.maxScore,
        weight: body.weight ?? 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    return toColumn(row);
  });
}

/** PATCH; a maxScore below a score already entered is 400 (the scores stay within their column). */
export function updateGradeColumn(
  actor: Actor,
  spaceId: string,
  columnId: string,
  body: Static<typeof UpdateGradeColumnBody>,
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    columnOf(actor, tx, spaceId, columnId);
    if (body.maxScore !== undefined) {
      const top = tx
        .select({ v: max(gradeColumnScores.score) })
        .from(gradeColumnScores)
        .where(eq(gradeColumnScores.columnId, columnId))
        .get();
      if (top?.v != null && top.v > body.maxScore) throw invalid("maxScore", "must be at least the highest score entered in this column");
    }
    const patch: Partial<ColumnRow> = { updatedAt: now };
    if (body.title !== undefined) patch.title = body.title;
    if (body.maxScore !== undefined) patch.maxScore = body.maxScore;
    if (body.weight !== undefined) patch.weight = body.weight;
    return toColumn(tx.update(gradeColumns).set(patch).where(eq(gradeColumns.id, columnId)).returning().get() as ColumnRow);
  });
}

export function deleteGradeColumn(actor: Actor, spaceId: string, columnId: string) {
  write(actor.db, (tx) => {
    columnOf(actor, tx, spaceId, columnId);
    tx.delete(gradeColumns).where(eq(gradeColumns.id, columnId)).run();
  });
}

/**
 * setGradeColumnScores: each item sets (or with null clears) one participant's score. 400 naming
 * every item whose profile is not a PARTICIPANT of the space, whose score exceeds maxScore, or repeats.
 */
export function setGradeColumnScores(
  actor: Actor,
  spaceId: string,
  columnId: string,
  body: Static<typeof GradeColumnScoresBody>,
  now = Date.now(),
) {
  write(actor.db, (tx) => {
    const column = columnOf(actor, tx, spaceId, columnId);
    const participants = enrolledParticipantProfiles(tx, spaceId);
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    body.scores.forEach((s, i) => {
      if (!participants.has(s.profileId))
        errors.push({ in: "body", field: `scores[${i}].profileId`, message: "must be a participant of this space" });
      else if (seen.has(s.profileId)) errors.push({ in: "body", field: `scores[${i}].profileId`, message: "repeats an earlier score" });
      if (s.score !== null && s.score > column.maxScore) {
        errors.push({ in: "body", field: `scores[${i}].score`, message: `must be at most the column's maxScore (${column.maxScore})` });
      }
      seen.add(s.profileId);
    });
    if (errors.length) throw invalidMany(errors);
    const s = gradeColumnScores;
    const cleared = body.scores.filter((x) => x.score === null).map((x) => x.profileId);
    if (cleared.length)
      tx.delete(s)
        .where(and(eq(s.columnId, columnId), inArray(s.profileId, cleared)))
        .run();
    for (const x of body.scores) {
      if (x.score === null) continue;
      tx.insert(s)
        .values({ columnId, profileId: x.profileId, score: x.score, updatedAt: now })
        .onConflictDoUpdate({ target: [s.columnId, s.profileId], set: { score: x.score, updatedAt: now } })
        .run();
    }
  });
}

/** setGradebookWeights: each item names exactly one content column or manual column of the space (else 400). */
export function setGradebookWeights(actor: Actor, spaceId: string, body: Static<typeof GradebookWeightsBody>, now = Date.now()) {
  write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    const contents = new Set(gradableContents(tx, spaceId).map((c) => c.id));
    const columns = new Set(manualColumns(tx, spaceId).map((c) => c.id));
    const errors: FieldError[] = [];
    body.weights.forEach((w, i) => {
      const at = `weights[${i}]`;
      if ((w.contentId === undefined) === (w.columnId === undefined)) {
        errors.push({ in: "body", field: at, message: "must name exactly one of contentId and columnId" });
      } else if (w.contentId !== undefined && !contents.has(w.contentId)) {
        errors.push({ in: "body", field: `${at}.contentId`, message: "must be a gradebook column of this space" });
      } else if (w.columnId !== undefined && !columns.has(w.columnId)) {
        errors.push({ in: "body", field: `${at}.columnId`, message: "must be a manual column of this space" });
      }
    });
    if (errors.length) throw invalidMany(errors);
    for (const w of body.weights) {
      if (w.columnId !== undefined)
        tx.update(gradeColumns).set({ weight: w.weight, updatedAt: now }).where(eq(gradeColumns.id, w.columnId)).run();
      else
        tx.insert(gradebookWeights)
          .values({ contentId: w.contentId as string, weight: w.weight, updatedAt: now })
          .onConflictDoUpdate({ target: gradebookWeights.contentId, set: { weight: w.weight, updatedAt: now } })
          .run();
    }
  });
}
