// The gradebook as a spreadsheet file (DECISIONS §13 Gradebook: UTF-8 with a BOM so Excel reads it).
import type { Static } from "elysia";
import { csvCell, csvLine } from "../../platform/http/csv";
import type { Gradebook } from "./model";

/** Header `displayName,userId,<content title>…`, one line per row, an empty cell where there is no score. */
export function gradebookCsv(book: Static<typeof Gradebook>): string {
  const lines = [csvLine(["displayName", "userId", ...book.columns.map((c) => c.title)])];
  for (const r of book.rows) {
    const scores = r.cells.map((c) => (c.score === null ? "" : String(c.score)));
    lines.push([csvCell(r.displayName), csvCell(r.userId ?? ""), ...scores].join(","));
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** Whether the client asked for CSV rather than JSON. */
export const wantsCsv = (accept: string | null | undefined) => (accept ?? "").toLowerCase().includes("text/csv");
