import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { FormError, Modal } from "../../ui/ui";
import { useAllActiveSpaces } from "../spaces/queries";
import { type CsvRow, classNames, downloadCsv, readCsvRows, reasonText, rowProblem } from "./csvRows";
import { createMembers, memberKeys, useRoles } from "./queries";

type Row = CsvRow;
type Result = { row: Row; line: number; tempPassword?: string; reason?: string };

const BATCH = 500; // createMembers takes at most 500 a call

const created = (results: Result[]) => results.filter((r) => r.tempPassword !== undefined).length;

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
            ...(classNames(r).length ? { spaceIds: classNames(r).map((n) => spaceIdOf(n) ?? "") } : {}),
            ...(r.guardianOf ? { guardianOf: r.guardianOf } : {}),
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
    const parsed = await readCsvRows(file, roleKeyOf);
    if (!parsed) return setParseError(true);
    setRows(parsed);
  };
  // A class column names spaces: each row is enrolled in them (createMembers spaceIds).
  const withClasses = (rows ?? []).some((r) => r.classes);
  const spaces = useAllActiveSpaces(withClasses);
  const spaceIdOf = (name: string) => spaces.data?.find((s) => s.name.toLowerCase() === name.toLowerCase())?.id;
  const problems = (rows ?? []).map(
    (r) => rowProblem(r, roleKeys) ?? (spaces.data && classNames(r).some((n) => !spaceIdOf(n)) ? "unknownClass" : null),
  );
  const good = (rows ?? []).filter((_, i) => !problems[i]);
  const withGuardians = (rows ?? []).some((r) => r.guardianOf);
  const download = (results: Result[]) => {
    const header = ["import.line", "members.name", "members.userId", "members.email", "import.tempPassword", "import.result"];
    downloadCsv("members-created.csv", [
      header.map((k) => t(k)),
      ...results.map((r) => [
        String(r.line),
        r.row.displayName,
        r.row.userId,
        r.row.email,
        r.tempPassword ?? "",
        r.reason ? reasonText(r.reason, t) : "",
      ]),
    ]);
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
                      {withClasses && <th>{t("import.class")}</th>}
                      {withGuardians && <th>{t("import.guardianOf")}</th>}
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
                        {withClasses && <td>{r.classes}</td>}
                        {withGuardians && <td>{r.guardianOf}</td>}
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
                disabled={good.length === 0 || importRows.isPending || (withClasses && !spaces.data)}
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
