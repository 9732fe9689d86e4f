import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { roleLabel, useI18n } from "../../i18n";
import { FormError, Loading, Select } from "../../ui/ui";
import { type CsvRow, downloadCsv, readCsvRows, reasonText } from "../members/csvRows";
import { createMembers, everyMemberQuery, memberKeys, updateMembers, useRoles } from "../members/queries";
import { spaceKeys, useAllActiveSpaces } from "../spaces/queries";
import { createItem, type Member, makePlan, type PlanRow } from "./plan";

const BATCH = 500; // createMembers and updateMembers take at most 500 a call

type Outcome = { line: number; row: CsvRow; kind: "created" | "updated" | "failed"; tempPassword?: string; reason?: string };

/**
 * Next year's roll-over: a class list (CSV) previewed row by row against the school's members, then
 * applied in two calls: updateMembers (leavers deactivated, returners reactivated), then
 * createMembers with upsert (new members created, the others updated and enrolled in their classes).
 */
export default function RolloverPage() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const user = useUser();
  const roles = useRoles(can(user, "role:read"));
  const [rows, setRows] = useState<CsvRow[] | null>(null);
  const [parseError, setParseError] = useState(false);
  const [leaverRole, setLeaverRole] = useState<string>("");
  const members = useQuery({ ...everyMemberQuery(), enabled: rows !== null });
  const spaces = useAllActiveSpaces(rows !== null);
  const roleKeys = roles.data ? new Set(roles.data.roles.map((r) => r.key)) : null;
  const roleKeyOf = (value: string) =>
    roles.data?.roles.find((r) => r.key === value || r.name.toLowerCase() === value.toLowerCase())?.key ?? value;
  const plan = rows && members.data && spaces.data ? makePlan(rows, members.data, spaces.data, roleKeys, leaverRole || null) : null;
  const apply = useMutation({
    mutationFn: async (p: NonNullable<typeof plan>) => {
      const changes = [
        ...p.leavers.map((m) => ({ id: m.id, isActive: false })),
        ...p.rows.filter((r) => r.action !== "error" && r.reactivate).map((r) => ({ id: (r.member as Member).id, isActive: true })),
      ];
      let deactivated = 0;
      for (let i = 0; i < changes.length; i += BATCH) {
        const res = await updateMembers({ body: { members: changes.slice(i, i + BATCH) } });
        deactivated += res.updated.filter((u) => !u.member.isActive).length;
      }
      const todo = p.rows.filter((r) => r.action === "create" || r.action === "update");
      const outcomes: Outcome[] = [];
      for (let i = 0; i < todo.length; i += BATCH) {
        const chunk = todo.slice(i, i + BATCH);
        const res = await createMembers({ body: { upsert: true, members: chunk.map(createItem) } });
        const at = (index: number) => chunk[index] as PlanRow;
        for (const c of res.created) outcomes.push({ ...at(c.index), kind: "created", tempPassword: c.tempPassword });
        for (const u of res.updated) outcomes.push({ ...at(u.index), kind: "updated" });
        for (const f of res.failed) outcomes.push({ ...at(f.index), kind: "failed", reason: f.reason });
      }
      return { deactivated, outcomes: outcomes.sort((a, b) => a.line - b.line) };
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: memberKeys.all });
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
    },
  });
  const read = async (file: File) => {
    apply.reset();
    setParseError(false);
    const parsed = await readCsvRows(file, roleKeyOf);
    if (!parsed) {
      setRows(null);
      return setParseError(true);
    }
    setRows(parsed);
  };
  const count = (action: PlanRow["action"]) => plan?.rows.filter((r) => r.action === action).length ?? 0;
  return (
    <section>
      <h1>{t("rollover.title")}</h1>
      <p>{t("rollover.intro")}</p>
      <p className="muted">{t("rollover.columns")}</p>
      {apply.data ? (
        <Results {...apply.data} />
      ) : (
        <div className="stack">
          <div className="field">
            <label htmlFor="rollover-file">{t("rollover.file")}</label>
            <input
              id="rollover-file"
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => e.target.files?.[0] && void read(e.target.files[0])}
            />
            {parseError && <small className="error">{t("import.noNameColumn")}</small>}
          </div>
          <Select
            label={t("rollover.leavers")}
            value={leaverRole}
            onChange={setLeaverRole}
            options={[
              { value: "", label: t("rollover.keepLeavers") },
              ...(roles.data?.roles ?? []).map((r) => ({ value: r.key, label: t("rollover.deactivateRole", { role: roleLabel(r, t) }) })),
            ]}
          />
          {rows && !plan && <Loading />}
          {plan && (
            <>
              <h2>{t("rollover.preview")}</h2>
              <p role="status">
                {t("rollover.summary", {
                  total: plan.rows.length,
                  create: count("create"),
                  update: count("update"),
                  same: count("same"),
                  error: count("error"),
                  leave: plan.leavers.length,
                })}
              </p>
              <PreviewTable rows={plan.rows} />
              {plan.leavers.length > 0 && <LeaverTable leavers={plan.leavers} />}
              <FormError error={apply.error} fields={[]} />
              <div>
                <button
                  type="button"
                  className="primary"
                  disabled={apply.isPending || count("create") + count("update") + plan.leavers.length === 0}
                  onClick={() => apply.mutate(plan)}
                >
                  {apply.isPending
                    ? t("rollover.applying")
                    : t("rollover.apply", { create: count("create"), update: count("update"), leave: plan.leavers.length })}
                </button>
              </div>
            </>
          )}
        </div>
      )}
    </section>
  );
}

function PreviewTable({ rows }: { rows: PlanRow[] }) {
  const { t } = useI18n();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must take focus so a keyboard can scroll it (axe scrollable-region-focusable)
    <section className="scroll" tabIndex={0} aria-label={t("rollover.preview")}>
      <table>
        <thead>
          <tr>
            <th>{t("import.line")}</th>
            <th>{t("members.name")}</th>
            <th>{t("members.userId")}</th>
            <th>{t("rollover.action")}</th>
            <th>{t("rollover.details")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.line}>
              <td>{r.line}</td>
              <td>{r.row.displayName}</td>
              <td>{r.row.userId || r.row.email}</td>
              <td>
                <span className={r.action === "error" ? "badge late" : "badge"}>{t(`rollover.actions.${r.action}`)}</span>
              </td>
              <td>
                {r.problem ? (
                  <span className="error">{t(`import.problems.${r.problem}`)}</span>
                ) : (
                  <ul className="list">
                    {r.changes.map((c) => (
                      <li key={c.field}>
                        {t("rollover.change", { field: t(`rollover.fields.${c.field}`), from: c.from || "—", to: c.to })}
                      </li>
                    ))}
                    {r.reactivate && <li>{t("rollover.reactivate")}</li>}
                    {r.spaces.length > 0 && <li>{t("rollover.enrol", { spaces: r.spaces.map((s) => s.name).join(", ") })}</li>}
                    {r.row.guardianOf && <li>{t("rollover.guardian", { student: r.row.guardianOf })}</li>}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function LeaverTable({ leavers }: { leavers: Member[] }) {
  const { t } = useI18n();
  return (
    <>
      <h3>{t("rollover.leaverList", { count: leavers.length })}</h3>
      <ul className="list">
        {leavers.map((m) => (
          <li key={m.id}>
            {m.displayName} <small className="muted">{m.userId ?? m.email}</small>
          </li>
        ))}
      </ul>
    </>
  );
}

function Results({ deactivated, outcomes }: { deactivated: number; outcomes: Outcome[] }) {
  const { t } = useI18n();
  const n = (kind: Outcome["kind"]) => outcomes.filter((o) => o.kind === kind).length;
  const download = () =>
    downloadCsv("rollover-passwords.csv", [
      ["import.line", "members.name", "members.userId", "members.email", "import.tempPassword"].map((k) => t(k)),
      ...outcomes
        .filter((o) => o.tempPassword)
        .map((o) => [String(o.line), o.row.displayName, o.row.userId, o.row.email, o.tempPassword ?? ""]),
    ]);
  return (
    <div className="stack">
      <h2>{t("rollover.done")}</h2>
      <p role="status">{t("rollover.result", { created: n("created"), updated: n("updated"), failed: n("failed"), deactivated })}</p>
      {n("created") > 0 && (
        <p>
          {t("members.tempPasswordOnce")}{" "}
          <button type="button" className="primary" onClick={download}>
            {t("import.download")}
          </button>
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must take focus so a keyboard can scroll it (axe scrollable-region-focusable) */}
      <section className="scroll" tabIndex={0} aria-label={t("rollover.done")}>
        <table>
          <thead>
            <tr>
              <th>{t("import.line")}</th>
              <th>{t("members.name")}</th>
              <th>{t("import.result")}</th>
            </tr>
          </thead>
          <tbody>
            {outcomes.map((o) => (
              <tr key={o.line}>
                <td>{o.line}</td>
                <td>{o.row.displayName}</td>
                <td>
                  {o.kind === "failed" ? (
                    <span className="error">{reasonText(o.reason ?? "", t)}</span>
                  ) : o.tempPassword ? (
                    <code className="secret">{o.tempPassword}</code>
                  ) : (
                    t(`rollover.outcomes.${o.kind}`)
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
