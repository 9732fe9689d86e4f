import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { readText } from "../../ui/decodeText";
import { FormError, Modal } from "../../ui/ui";
import { createMembers, memberKeys, useRoles } from "./queries";

type Row = { displayName: string; userId: string; email: string; roleKey: string; password: string };
type Result = { row: Row; line: number; tempPassword?: string; reason?: string };

// Header names a school's spreadsheet may use, in either language.
const COLUMNS: Record<string, keyof Row> = {
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
};
const BATCH = 500; // createMembers takes at most 500 a call

/** The checks the server would make first, so a broken row is shown before anything is sent; `roleKeys` null: the roles cannot be read. */
function rowProblem(r: Row, roleKeys: Set<string> | null): string | null {
  if (!r.displayName) return "noName";
  if (r.roleKey && roleKeys && !roleKeys.has(r.roleKey)) return "unknownRole";
  if (!r.userId && !r.email) return "noLogin";
  if (r.userId && !/^[A-Za-z0-9_-]+$/.test(r.userId)) return "badUserId";
  if (r.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(r.email)) return "badEmail";
  if (r.password && r.password.length < 8) return "shortPassword";
  return null;
}

/** A failed row's reason (`ALREADY_EXISTS`, `FORBIDDEN_ROLE`, `INVALID: <field> <message>`) in the user's language, by its code. */
function reasonText(reason: string, t: (k: string, v?: Record<string, string | number>) => string) {
  const [code = "", rest = ""] = reason.split(/:\s*/, 2);
  if (code !== "INVALID") {
    const known = t(`errors.${code}`);
    return known.startsWith("errors.") ? t("errors.INTERNAL") : known;
  }
  const field = rest.split(" ")[0] ?? "";
  const label = { displayName: "members.name", userId: "members.userId", email: "members.email", roleKey: "members.role" }[field];
  return label ? `${t(label)}: ${t("errors.fieldInvalid")}` : t("errors.fieldInvalid");
}

const created = (results: Result[]) => results.filter((r) => r.tempPassword !== undefined).length;

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A class list from a CSV file (papaparse): preview with per-row errors, then createMembers, then the passwords to keep. */
export function ImportMembersDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [parseError, setParseError] = useState(false);
  const user = useUser();
  const roles = useRoles(can(user, "role:read"));
  // A role column may hold a role's key or its name; both become the key.
  const roleKeyOf = (value: string) =>
    roles.data?.roles.find((r) => r.key === value || r.name.toLowerCase() === value.toLowerCase())?.key ?? value;
  const roleKeys = roles.data ? new Set(roles.data.roles.map((r) => r.key)) : null;
  const importRows = useMutation({
    mutationFn: async (list: Row[]) => {
      const results: Result[] = [];
      for (let i = 0; i < list.length; i += BATCH) {
        const chunk = list.slice(i, i + BATCH);
        const body = {
          members: chunk.map((r) => ({
            displayName: r.displayName,
            roleKey: r.roleKey || "member",
            ...(r.userId ? { userId: r.userId } : {}),
            ...(r.email ? { email: r.email } : {}),
            ...(r.password ? { password: r.password } : {}),
          })),
        };
        const res = await createMembers({ body });
        for (const c of res.created) results.push({ row: chunk[c.index] as Row, line: i + c.index + 2, tempPassword: c.tempPassword });
        for (const f of res.failed) results.push({ row: chunk[f.index] as Row, line: i + f.index + 2, reason: f.reason });
      }
      return results.sort((a, b) => a.line - b.line);
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: memberKeys.all }),
  });
  const reset = () => {
    setRows(null);
    setParseError(false);
    importRows.reset();
  };
  const read = async (file: File) => {
    reset();
    const Papa = (await import("papaparse")).default;
    const parsed = Papa.parse<Record<string, string>>(await readText(file), {
      header: true,
      skipEmptyLines: "greedy",
      transformHeader: (h) => COLUMNS[h.trim().toLowerCase().replace(/\s+/g, "")] ?? h,
    });
    if (!parsed.meta.fields?.includes("displayName")) return setParseError(true);
    setRows(
      parsed.data.map((d) => ({
        displayName: (d.displayName ?? "").trim(),
        userId: (d.userId ?? "").trim(),
        email: (d.email ?? "").trim(),
        roleKey: roleKeyOf((d.roleKey ?? "").trim()),
        password: d.password ?? "",
      })),
    );
  };
  const problems = (rows ?? []).map((r) => rowProblem(r, roleKeys));
  const good = (rows ?? []).filter((_, i) => !problems[i]);
  const download = (results: Result[]) => {
    const header = ["import.line", "members.name", "members.userId", "members.email", "import.tempPassword", "import.result"];
    const lines = [header.map((k) => csvCell(t(k))).join(",")];
    for (const r of results)
      lines.push(
        [String(r.line), r.row.displayName, r.row.userId, r.row.email, r.tempPassword ?? "", r.reason ? reasonText(r.reason, t) : ""]
          .map(csvCell)
          .join(","),
      );
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([`\uFEFF${lines.join("\n")}\n`], { type: "text/csv" }));
    a.download = "members-created.csv";
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <Modal
      open={open}
      onOpenChange={(o) => {
        onOpenChange(o);
        if (!o) reset();
      }}
      title={t("import.title")}
    >
      {importRows.data ? (
        <div role="status">
          <p>
            {t("import.done", {
              created: created(importRows.data),
              failed: importRows.data.filter((r) => r.reason).length,
            })}
          </p>
          {created(importRows.data) > 0 && <p>{t("members.tempPasswordOnce")}</p>}
          <div className="scroll">
            <table>
              <thead>
                <tr>
                  <th>{t("import.line")}</th>
                  <th>{t("members.name")}</th>
                  <th>{t("members.userId")}</th>
                  <th>{t("import.result")}</th>
                </tr>
              </thead>
              <tbody>
                {importRows.data.map((r) => (
                  <tr key={r.line}>
                    <td>{r.line}</td>
                    <td>{r.row.displayName}</td>
                    <td>{r.row.userId || r.row.email}</td>
                    <td>
                      {r.reason ? (
                        <span className="error">{reasonText(r.reason, t)}</span>
                      ) : (
                        <code className="secret">{r.tempPassword}</code>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {created(importRows.data) > 0 && (
            <div className="actions">
              <button type="button" className="primary" onClick={() => download(importRows.data)}>
                {t("import.download")}
              </button>
              <button type="button" onClick={() => window.print()}>
                {t("import.print")}
              </button>
            </div>
          )}
        </div>
      ) : (
        <>
          <p>{t("import.hint")}</p>
          <div className="field">
            <label htmlFor="import-file">{t("import.file")}</label>
            <input
              id="import-file"
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => e.target.files?.[0] && void read(e.target.files[0])}
            />
            {parseError && <small className="error">{t("import.noNameColumn")}</small>}
          </div>
          {rows && (
            <>
              <p>{t("import.preview", { total: rows.length, good: good.length })}</p>
              <div className="scroll">
                <table>
                  <thead>
                    <tr>
                      <th>{t("import.line")}</th>
                      <th>{t("members.name")}</th>
                      <th>{t("members.userId")}</th>
                      <th>{t("members.email")}</th>
                      <th>{t("members.role")}</th>
                      <th>{t("import.check")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a file's rows have no identity but their line
                      <tr key={i}>
                        <td>{i + 2}</td>
                        <td>{r.displayName}</td>
                        <td>{r.userId}</td>
                        <td>{r.email}</td>
                        <td>{r.roleKey || "member"}</td>
                        <td>{problems[i] ? <span className="error">{t(`import.problems.${problems[i]}`)}</span> : "✓"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <FormError error={importRows.error} fields={[]} />
              <button
                type="button"
                className="primary"
                disabled={good.length === 0 || importRows.isPending}
                onClick={() => importRows.mutate(good)}
              >
                {t("import.create", { count: good.length })}
              </button>
            </>
          )}
        </>
      )}
    </Modal>
  );
}
