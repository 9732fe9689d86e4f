import { useEffect, useRef, useState } from "react";
import { useI18n } from "../../i18n";
import { type Column, columnKey, type Row } from "./queries";

/** What a teacher can do in the table: edit a manual column, enter a score in a manual column's cell. */
export type Manage = {
  onEditColumn: (c: Column) => void;
  /** `failed` is called when the save fails. */
  onScore: (c: Column, r: Row, score: number | null, failed: () => void) => void;
};

const rounded = (n: number) => Math.round(n * 100) / 100;

/** Grades as a table: scores where graded, the status otherwise; with `manage`, a user-ID column and manual columns to type into. */
export function GradeTable({ columns, rows, manage }: { columns: Column[]; rows: Row[]; manage?: Manage }) {
  const { t } = useI18n();
  if (columns.length === 0) return <p>{t("common.empty")}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must take focus so a keyboard can scroll it (axe scrollable-region-focusable)
    <section className="scroll" tabIndex={0} aria-label={t("grades.table")}>
      <table>
        <thead>
          <tr>
            <th>{t("members.name")}</th>
            {manage && <th>{t("members.userId")}</th>}
            {columns.map((c) => (
              <th key={columnKey(c)}>
                {manage && c.columnId ? (
                  <button type="button" className="link" onClick={() => manage.onEditColumn(c)}>
                    {c.title}
                  </button>
                ) : (
                  c.title
                )}
                <small className="muted">
                  {" "}
                  ({c.maxScore ?? "—"}
                  {manage && c.weight !== 1 && ` · ×${c.weight}`})
                </small>
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
              {manage && <td>{r.userId ?? "—"}</td>}
              {columns.map((c) => {
                const cell = r.cells.find((x) => x.contentId === c.contentId && x.columnId === c.columnId);
                if (manage && c.columnId)
                  return (
                    <td key={columnKey(c)}>
                      <ScoreInput
                        label={t("grades.columns.scoreOf", { name: r.displayName, title: c.title })}
                        score={cell?.score ?? null}
                        max={c.maxScore ?? undefined}
                        onSave={(score, failed) => manage.onScore(c, r, score, failed)}
                      />
                    </td>
                  );
                return <td key={columnKey(c)}>{cell?.score ?? t(`grades.statuses.${cell?.status ?? "NOT_SUBMITTED"}`)}</td>;
              })}
              {"total" in r && <td>{r.total === null ? "—" : rounded(r.total)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * A manual column's cell: saved when it loses focus or on Enter, only when it changed (empty clears it).
 * Changed from what was last sent, not from the book's value: Enter then leaving the cell before the
 * book is refetched would send the same score twice.
 */
function ScoreInput({
  label,
  score,
  max,
  onSave,
}: {
  label: string;
  score: number | null;
  max?: number;
  onSave: (s: number | null, failed: () => void) => void;
}) {
  const [v, setV] = useState(score === null ? "" : String(score));
  const sent = useRef(score);
  useEffect(() => {
    sent.current = score;
  }, [score]);
  const save = () => {
    const next = v.trim() === "" ? null : Number(v);
    if (next === sent.current || (next !== null && !Number.isFinite(next))) return;
    sent.current = next;
    onSave(next, () => {
      sent.current = score;
    });
  };
  return (
    <input
      className="score"
      type="number"
      min="0"
      max={max}
      step="any"
      aria-label={label}
      value={v}
      onChange={(e) => setV(e.target.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === "Enter") save();
      }}
    />
  );
}
