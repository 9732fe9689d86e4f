/**
 * One CSV text cell (RFC 4180) that no spreadsheet runs as a formula (docs/rules/trust.md#csv): a
 * `'` goes before `=`, `+`, `-`, `@`, tab or CR at the start of the field and after every `;` or `,`
 * inside it (spaces skipped), so the cell is safe whichever list separator the spreadsheet uses.
 */
export function csvCell(value: string): string {
  const safe = value.replace(/(^|[;,])( *)(?=[=+\-@\t\r])/g, "$1$2'");
  return /[",;\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line of text cells. */
export const csvLine = (cells: readonly string[]) => cells.map(csvCell).join(",");
