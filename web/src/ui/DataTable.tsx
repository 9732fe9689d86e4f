import type { ReactNode } from "react";
import { useI18n } from "../i18n";
import { useSearch } from "./router";

/**
 * One column: `sort` is the list operation's sort key when the column can be sorted by it;
 * `hideHeader` keeps the header for screen readers only (an actions column).
 */
export type Column<T> = { key: string; header: string; sort?: string; hideHeader?: boolean; cell: (row: T) => ReactNode };

type Selection<T> = {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** The checkbox label of one row ("Select Kim") and of the page ("Select all on this page"). */
  rowLabel: (row: T) => string;
  allLabel: string;
};

/**
 * The table of a list screen. Sorting lives in the URL (`sort`, `dir`; a new sort goes back to page 1),
 * so a sorted list survives a reload and the back button; `defaultSort` is what the screen asks for
 * when the URL names none.
 */
export function DataTable<T>(props: {
  label: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  defaultSort?: { by: string; dir: "asc" | "desc" };
  selection?: Selection<T>;
  /** Shown under an empty table (default "Nothing here yet."); null when the screen says it itself. */
  empty?: ReactNode;
  testId?: string;
}) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const { columns, rows, rowKey, selection, defaultSort } = props;
  const by = get("sort") ?? defaultSort?.by;
  const dir = (get("dir") ?? defaultSort?.dir ?? "desc") as "asc" | "desc";
  const header = (c: Column<T>) => {
    if (c.hideHeader)
      return (
        <th key={c.key}>
          <span className="sr-only">{c.header}</span>
        </th>
      );
    if (!c.sort) return <th key={c.key}>{c.header}</th>;
    const active = by === c.sort;
    return (
      <th key={c.key} aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}>
        <button
          type="button"
          className="link"
          onClick={() => set({ sort: c.sort ?? null, dir: active && dir === "desc" ? "asc" : "desc", page: null })}
        >
          {c.header}
          {active ? (dir === "asc" ? " ▲" : " ▼") : ""}
        </button>
      </th>
    );
  };
  const allChecked = selection !== undefined && rows.length > 0 && rows.every((r) => selection.selected.has(rowKey(r)));
  return (
    <>
      <table aria-label={props.label} data-testid={props.testId}>
        <thead>
          <tr>
            {selection && (
              <th>
                <input
                  type="checkbox"
                  aria-label={selection.allLabel}
                  checked={allChecked}
                  onChange={(e) => selection.onChange(e.target.checked ? new Set(rows.map(rowKey)) : new Set())}
                />
              </th>
            )}
            {columns.map(header)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const id = rowKey(row);
            return (
              <tr key={id}>
                {selection && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={selection.rowLabel(row)}
                      checked={selection.selected.has(id)}
                      onChange={(e) => {
                        const next = new Set(selection.selected);
                        if (e.target.checked) next.add(id);
                        else next.delete(id);
                        selection.onChange(next);
                      }}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c.key}>{c.cell(row)}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && props.empty !== null && (props.empty ?? <p>{t("common.empty")}</p>)}
    </>
  );
}
