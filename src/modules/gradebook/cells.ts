// What each gradable area hands the gradebook (docs/rules/next-year.md#gradebook): per content, its maximum and
// one cell per profile that has something; a profile without a cell has NOT_SUBMITTED.
export const CELL_STATUSES = ["NOT_SUBMITTED", "SUBMITTED", "GRADED", "RETURNED"] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

/** `released`: the participant may see the score (a RETURNED grade, a quiz result its resultExposeLevel shows). */
export type GradeCell = { score: number | null; status: CellStatus; released: boolean };
export type GradeColumn = { maxScore: number | null; cells: Map<string, GradeCell> };
/** An empty column for every content id (cells are filled by the area), so no content is left out. */
export function columnsFor(contentIds: string[], maxScores: Map<string, number | null>): Map<string, GradeColumn> {
  return new Map(contentIds.map((id) => [id, { maxScore: maxScores.get(id) ?? null, cells: new Map() }]));
}
