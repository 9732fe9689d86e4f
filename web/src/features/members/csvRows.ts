// A class list read from a CSV file, as the import dialog and the roll-over page both take it.
import { readText } from "../../ui/decodeText";

export type CsvRow = {
  displayName: string;
  userId: string;
  email: string;
  roleKey: string;
  password: string;
  /** Space names (the class column), separated by ";" or "|". */
  classes: string;
  externalMemberCode: string;
  affiliation: string;
  guardianOf: string;
};

// Header names a school's spreadsheet may use, in either language.
const COLUMNS: Record<string, keyof CsvRow> = {
  displayname: "displayName",
  name: "displayName",
  이름: "displayName",
  userid: "userId",
  id: "userId",
  아이디: "userId",
  email: "email",
  "e-mail": "email",
  이메일: "email",
  role: "roleKey",
  rolekey: "roleKey",
  역할: "roleKey",
  password: "password",
  비밀번호: "password",
  class: "classes",
  classes: "classes",
  space: "classes",
  spaces: "classes",
  반: "classes",
  수업: "classes",
  studentnumber: "externalMemberCode",
  externalmembercode: "externalMemberCode",
  code: "externalMemberCode",
  학번: "externalMemberCode",
  affiliation: "affiliation",
  소속: "affiliation",
  guardianof: "guardianOf",
  보호자대상: "guardianOf",
  자녀: "guardianOf",
};

/** The rows of a CSV file (any encoding decodeText knows), or null when it has no name column. */
export async function readCsvRows(file: File, roleKeyOf: (value: string) => string): Promise<CsvRow[] | null> {
  const Papa = (await import("papaparse")).default;
  const parsed = Papa.parse<Record<string, string>>(await readText(file), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => COLUMNS[h.trim().toLowerCase().replace(/\s+/g, "")] ?? h,
  });
  if (!parsed.meta.fields?.includes("displayName")) return null;
  const cell = (d: Record<string, string>, k: keyof CsvRow) => (d[k] ?? "").trim();
  return parsed.data.map((d) => ({
    displayName: cell(d, "displayName"),
    userId: cell(d, "userId"),
    email: cell(d, "email"),
    roleKey: roleKeyOf(cell(d, "roleKey")),
    password: d.password ?? "",
    classes: cell(d, "classes"),
    externalMemberCode: cell(d, "externalMemberCode"),
    affiliation: cell(d, "affiliation"),
    guardianOf: cell(d, "guardianOf"),
  }));
}

/** The class column's space names. */
export const classNames = (r: CsvRow) =>
  r.classes
    .split(/[;|]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The checks the server would make first, so a broken row is shown before anything is sent; `roleKeys` null: the roles cannot be read. */
export function rowProblem(r: CsvRow, roleKeys: Set<string> | null): string | null {
  if (!r.displayName) return "noName";
  if (r.roleKey && roleKeys && !roleKeys.has(r.roleKey)) return "unknownRole";
  if (!r.userId && !r.email) return "noLogin";
  if (r.userId && !/^[A-Za-z0-9_-]+$/.test(r.userId)) return "badUserId";
  if (r.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(r.email)) return "badEmail";
  if (r.password && r.password.length < 8) return "shortPassword";
  return null;
}

/** A failed row's reason (`ALREADY_EXISTS`, `FORBIDDEN_ROLE`, `INVALID: <field> <message>`) in the user's language, by its code. */
export function reasonText(reason: string, t: (k: string, v?: Record<string, string | number>) => string) {
  const [code = "", rest = ""] = reason.split(/:\s*/, 2);
  if (code !== "INVALID") {
    const known = t(`errors.${code}`);
    return known.startsWith("errors.") ? t("errors.INTERNAL") : known;
  }
  const field = rest.split(" ")[0] ?? "";
  const label = {
    displayName: "members.name",
    userId: "members.userId",
    email: "members.email",
    roleKey: "members.role",
    guardianOf: "import.guardianOf",
  }[field];
  return label ? `${t(label)}: ${t("errors.fieldInvalid")}` : t("errors.fieldInvalid");
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Saves rows as a UTF-8 CSV with a BOM (Excel opens it in Korean Windows too). */
export function downloadCsv(fileName: string, rows: string[][]) {
  const text = rows.map((r) => r.map(csvCell).join(",")).join("\n");
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([`\uFEFF${text}\n`], { type: "text/csv" }));
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(a.href);
}
