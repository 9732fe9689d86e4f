import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { useI18n } from "../i18n";
import { useSearch } from "./router";
import { Loading, Pager, Select, useProblemText } from "./ui";

// The search box, filters and pager of a list screen. Each keeps its value in the URL (a changed
// filter goes back to page 1), so a filtered list survives a reload and can be shared as a link.

/** A search box that applies on Enter or its button (not on every key: each would be a request). */
export function SearchBox({ label, param = "q" }: { label: string; param?: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const id = useId();
  const value = get(param) ?? "";
  return (
    <form
      className="inline search"
      onSubmit={(e) => {
        e.preventDefault();
        const input = e.currentTarget.elements.namedItem(param) as HTMLInputElement;
        set({ [param]: input.value.trim(), page: null });
      }}
    >
      <label htmlFor={id}>{label}</label>
      <input id={id} key={value} name={param} type="search" defaultValue={value} />
      <button type="submit">{t("list.search")}</button>
    </form>
  );
}

/** The row of filters; "Clear filters" appears when any of `params` is set. */
export function FilterBar({ label, params, children }: { label: string; params: string[]; children: ReactNode }) {
  const { t } = useI18n();
  const { search, set } = useSearch();
  const any = params.some((p) => search.has(p));
  return (
    <fieldset className="filters">
      <legend className="sr-only">{label}</legend>
      {children}
      {any && (
        <button type="button" className="small" onClick={() => set({ ...Object.fromEntries(params.map((p) => [p, null])), page: null })}>
          {t("list.clear")}
        </button>
      )}
    </fieldset>
  );
}

type Option = { value: string; label: string };

/** One value of a fixed set (an empty choice: no filter). */
export function ChoiceFilter({ label, param, options }: { label: string; param: string; options: Option[] }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  return (
    <Select
      label={label}
      value={get(param) ?? ""}
      onChange={(v) => set({ [param]: v, page: null })}
      options={[{ value: "", label: t("common.all") }, ...options]}
    />
  );
}

/** Several values of a set at once (a repeated URL key): a drop-down of checkboxes naming how many are on. */
export function MultiFilter({ label, param, options }: { label: string; param: string; options: Option[] }) {
  const { t } = useI18n();
  const { all, set } = useSearch();
  const chosen = all(param);
  const ref = useRef<HTMLDetailsElement>(null);
  // Closes like a menu: a click elsewhere or Esc (Esc puts the focus back on its button).
  useEffect(() => {
    const away = (e: Event) => {
      if (ref.current?.open && !ref.current.contains(e.target as Node)) ref.current.open = false;
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, []);
  const summary =
    chosen.length === 0
      ? t("common.all")
      : options
          .filter((o) => chosen.includes(o.value))
          .map((o) => o.label)
          .join(", ");
  return (
    <details
      className="multi"
      ref={ref}
      onKeyDown={(e) => {
        if (e.key === "Escape" && ref.current?.open) {
          ref.current.open = false;
          ref.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary>
        <span className="multi-label">{label}</span> <span className="multi-value">{summary || t("common.all")}</span>
      </summary>
      <fieldset>
        <legend className="sr-only">{label}</legend>
        {options.map((o) => (
          <label key={o.value} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(o.value)}
              onChange={(e) => set({ [param]: e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value), page: null })}
            />
            {o.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/**
 * A from–to range of two URL keys: dates apply when picked, numbers on Enter or leaving the box.
 * `min` is the lowest value the operation accepts.
 */
export function RangeFilter(props: { label: string; from: string; to: string; type: "date" | "number"; min?: number }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const id = useId();
  const input = (param: string, label: string) => {
    const value = get(param) ?? "";
    const apply = (v: string) => v !== value && set({ [param]: v, page: null });
    return (
      <label htmlFor={`${id}-${param}`}>
        {label}
        {props.type === "date" ? (
          <input id={`${id}-${param}`} type="date" value={value} onChange={(e) => apply(e.target.value)} />
        ) : (
          <input
            id={`${id}-${param}`}
            key={value}
            type="number"
            inputMode="numeric"
            min={props.min}
            step={1}
            defaultValue={value}
            className="narrow"
            onBlur={(e) => apply(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                apply(e.currentTarget.value);
              }
            }}
          />
        )}
      </label>
    );
  };
  return (
    <fieldset className="range">
      <legend>{props.label}</legend>
      {input(props.from, t("list.from"))}
      {input(props.to, t("list.to"))}
    </fieldset>
  );
}

/** Active filters as removable chips (the ones a plain control cannot show, e.g. several field filters). */
export function FilterChips({ param, label }: { param: string; label: (value: string) => string }) {
  const { t } = useI18n();
  const { all, set } = useSearch();
  const values = all(param);
  if (values.length === 0) return null;
  return (
    <ul className="chips">
      {values.map((v) => (
        <li key={v}>
          {label(v)}{" "}
          <button
            type="button"
            className="small"
            aria-label={t("list.removeFilter", { name: label(v) })}
            onClick={() => set({ [param]: values.filter((x) => x !== v), page: null })}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The pager of a page-style list, the page in the URL; with `sizes`, a choice of rows per page too (URL key `size`). */
export function UrlPager({ page, totalPages, sizes }: { page: number; totalPages: number; sizes?: readonly number[] }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  return (
    <div className="pager-row">
      <Pager page={page} totalPages={totalPages} onPage={(p) => set({ page: p === 1 ? null : String(p) })} />
      {sizes && (
        <Select
          label={t("list.pageSize")}
          value={get("size") ?? String(sizes[0])}
          onChange={(v) => set({ size: v === String(sizes[0]) ? null : v, page: null })}
          options={sizes.map((n) => ({ value: String(n), label: String(n) }))}
        />
      )}
    </div>
  );
}

/** Loading and failure of a list's query; `children` renders its data. */
export function ListResult<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const problem = useProblemText();
  if (query.isPending) return <Loading />;
  if (query.error)
    return (
      <p role="alert" className="error">
        {problem(query.error)}
      </p>
    );
  return <>{children(query.data as T)}</>;
}
