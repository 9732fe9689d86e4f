// Per-option figures of a question set's answers (quiz and survey statistics).
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../platform/db/types";

export const percent = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

/** How often each option was selected: option id → count, over the answers `where` keeps (one grouped query). */
export function selectedCounts(db: Db, answers: SQLiteTable, optionIds: SQLiteColumn, where: SQL | undefined): Map<string, number> {
  const rows = db.all(
    sql`SELECT j.value AS optionId, count(*) AS n FROM ${answers}, json_each(${optionIds}) j WHERE ${where} GROUP BY j.value`,
  ) as { optionId: string; n: number }[];
  return new Map(rows.map((x) => [x.optionId, x.n]));
}
