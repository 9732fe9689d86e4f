// What each gradable area hands the gradebook (docs/rules/next-year.md#gradebook): per content, its maximum and
// one cell per profile that has something; a profile without a cell has NOT_SUBMITTED.
import type { Db } from "../../platform/db/types";
import type { GradableType } from "../library/access";

export const CELL_STATUSES = ["NOT_SUBMITTED", "SUBMITTED", "GRADED", "RETURNED"] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

/** `released`: the participant may see the score (a RETURNED grade, a quiz result its resultExposeLevel shows). */
export type GradeCell = { score: number | null; status: CellStatus; released: boolean };
export type GradeColumn = { maxScore: number | null; cells: Map<string, GradeCell> };
/** An empty column for every content id (cells are filled by the area), so no content is left out. */
export function columnsFor(contentIds: string[], maxScores: Map<string, number | null>): Map<string, GradeColumn> {
  return new Map(contentIds.map((id) => [id, { maxScore: maxScores.get(id) ?? null, cells: new Map() }]));
}

/** A gradable area's columns for these contents (of one profile when given, else every profile): a fixed number of queries. */
export type GradeSource = (db: Db, contentIds: string[], profileId: string | null) => Map<string, GradeColumn>;

const sources = new Map<GradableType, GradeSource>();

/**
 * Each gradable feature registers its cells (wired in src/app.ts), so the gradebook imports no
 * feature (docs/rules/next-year.md#gradebook).
 */
export function registerGradeSource(type: GradableType, source: GradeSource) {
  sources.set(type, source);
}

/** The registered source of a content type; a type no feature registered has no columns' cells. */
export const gradeSource = (type: GradableType): GradeSource | undefined => sources.get(type);
