// The gradebook as a spreadsheet file (docs/rules/next-year.md#gradebook: UTF-8 with a BOM so Excel reads it).
import type { Static } from "elysia";
import { csvCell, csvLine } from "../../platform/http/csv";
import type { Gradebook } from "./model";

const number = (v: number | null) => (v === null ? "" : String(Math.round(v * 100) / 100));

/**
 * Header `displayName,userId,<column title>…,total` (content columns, then manual ones), one line per
 * row, an empty cell where there is no score; total rounded to 2 decimals. Text cells go through the
 * formula guard (docs/rules/trust.md#csv).
 */
export function gradebookCsv(book: Static<typeof Gradebook>): string {
  const lines = [csvLine(["displayName", "userId", ...book.columns.map((c) => c.title), "total"])];
  for (const r of book.rows) {
    const scores = r.cells.map((c) => number(c.score));
    lines.push([csvCell(r.displayName), csvCell(r.userId ?? ""), ...scores, number(r.total)].join(","));
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** Whether the client asked for CSV rather than JSON. */
export const wantsCsv = (accept: string | null | undefined) => (accept ?? "").toLowerCase().includes("text/csv");
