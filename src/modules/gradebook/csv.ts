// The gradebook as a spreadsheet file (DECISIONS §13 Gradebook: UTF-8 with a BOM so Excel reads it).
import type { Static } from "elysia";
import type { Gradebook } from "./model";

/** A text cell per RFC 4180; one starting like a formula gets a leading ' (OWASP CSV injection). */
function textCell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Header `displayName,userId,<content title>…`, one line per row, an empty cell where there is no score. */
export function gradebookCsv(book: Static<typeof Gradebook>): string {
  const lines = [["displayName", "userId", ...book.columns.map((c) => c.title)].map(textCell).join(",")];
  for (const r of book.rows) {
    const scores = r.cells.map((c) => (c.score === null ? "" : String(c.score)));
    lines.push([textCell(r.displayName), textCell(r.userId ?? ""), ...scores].join(","));
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** Whether the client asked for CSV rather than JSON. */
export const wantsCsv = (accept: string | null | undefined) => (accept ?? "").toLowerCase().includes("text/csv");
