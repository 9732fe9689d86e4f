import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { FormError, Modal } from "../../shell/ui";

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

/** The checks the server would make first, so a broken row is shown before anything is sent. */
function rowProblem(r: Row): string | null {
  if (!r.displayName) return "noName";
  if (!r.userId && !r.email) return "noLogin";
  if (r.userId && !/^[A-Za-z0-9_-]+$/.test(r.userId)) return "badUserId";
  if (r.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(r.email)) return "badEmail";
  if (r.password && r.password.length < 8) return "shortPassword";
  return null;
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A class list from a CSV file (papaparse): preview with per-row errors, then createMembers, then the passwords to keep. */
export function ImportMembersDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [parseError, setParseError] = useState(false);
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
        const res = await ok(api.POST("/api/v1/members/bulk-create", { body }));
        for (const c of res.created) results.push({ row: chunk[c.index] as Row, line: i + c.index + 2, tempPassword: c.tempPassword });
        for (const f of res.failed) results.push({ row: chunk[f.index] as Row, line: i + f.index + 2, reason: f.reason });
      }
      return results.sort((a, b) => a.line - b.line);
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["members"] }),
  });
  const reset = () => {
    setRows(null);
    setParseError(false);
    importRows.reset();
  };
  const read = async (file: File) => {
    reset();
    const Papa = (await import("papaparse")).default;
    const parsed = Papa.parse<Record<string, string>>(await file.text(), {
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
        roleKey: (d.roleKey ?? "").trim(),
        password: d.password ?? "",
      })),
    );
  };
  const problems = (rows ?? []).map(rowProblem);
  const good = (rows ?? []).filter((_, i) => !problems[i]);
  const download = (results: Result[]) => {
    const lines = [["line", "displayName", "userId", "email", "tempPassword", "error"].join(",")];
    for (const r of results)
      lines.push(
        [String(r.line), r.row.displayName, r.row.userId, r.row.email, r.tempPassword ?? "", r.reason ?? ""].map(csvCell).join(","),
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
              created: importRows.data.filter((r) => r.tempPassword !== undefined).length,
              failed: importRows.data.filter((r) => r.reason).length,
            })}
          </p>
          <p>{t("members.tempPasswordOnce")}</p>
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
                    <td>{r.reason ? <span className="error">{r.reason}</span> : <code className="secret">{r.tempPassword}</code>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="actions">
            <button type="button" className="primary" onClick={() => download(importRows.data)}>
              {t("import.download")}
            </button>
            <button type="button" onClick={() => window.print()}>
              {t("import.print")}
            </button>
          </div>
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
