// The gradebook as a spreadsheet file (DECISIONS §13 Gradebook: UTF-8 with a BOM so Excel reads it).
import type { Static } from "elysia";
import type { Gradebook } from "./model";

/** A text cell per RFC 4180; one starting like a formula gets a leading ' (OWASP CSV injection). */
function textCell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const number = (v: number | null) => (v === null ? "" : String(Math.round(v * 100) / 100));

/**
 * Header `displayName,userId,<column title>…,total` (content columns, then manual ones), one line per
 * row, an empty cell where there is no score; total rounded to 2 decimals.
 */
export function gradebookCsv(book: Static<typeof Gradebook>): string {
  const lines = [["displayName", "userId", ...book.columns.map((c) => c.title), "total"].map(textCell).join(",")];
  for (const r of book.rows) {
    const scores = r.cells.map((c) => number(c.score));
    lines.push([textCell(r.displayName), textCell(r.userId ?? ""), ...scores, number(r.total)].join(","));
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** Whether the client asked for CSV rather than JSON. */
export const wantsCsv = (accept: string | null | undefined) => (accept ?? "").toLowerCase().includes("text/csv");
