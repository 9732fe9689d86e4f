import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";

type Book = paths["/api/v1/spaces/{spaceId}/gradebook"]["get"]["responses"]["200"]["content"]["application/json"];

/** Grades as a table: scores where graded, the status otherwise. */
export function GradeTable({ columns, rows }: { columns: Book["columns"]; rows: Book["rows"] }) {
  const { t } = useI18n();
  if (columns.length === 0) return <p>{t("common.empty")}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must take focus so a keyboard can scroll it (axe scrollable-region-focusable)
    <section className="scroll" tabIndex={0} aria-label={t("grades.table")}>
      <table>
        <thead>
          <tr>
            <th>{t("members.name")}</th>
            {columns.map((c) => (
              <th key={c.contentId ?? c.columnId}>
                {c.title}
                <small className="muted"> ({c.maxScore ?? "—"})</small>
              </th>
            ))}
            {rows.some((r) => "total" in r) && <th>{t("grades.total")}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.profileId}>
              <th scope="row">
                {r.displayName}
                {"isActive" in r && !r.isActive && <small className="muted"> ({t("grades.left")})</small>}
              </th>
              {columns.map((c) => {
                const cell = r.cells.find((x) => x.contentId === c.contentId && x.columnId === c.columnId);
                return <td key={c.contentId ?? c.columnId}>{cell?.score ?? t(`grades.statuses.${cell?.status ?? "NOT_SUBMITTED"}`)}</td>;
              })}
              {"total" in r && <td>{r.total === null ? "—" : Math.round(r.total * 100) / 100}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
