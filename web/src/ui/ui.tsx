import * as Dialog from "@radix-ui/react-dialog";
import { type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, useId } from "react";
import { ApiError } from "../api/problem";
import { useI18n } from "../i18n";

/** The sentence for a problem's code in the user's language (the server's English message is never shown). */
export function useProblemText() {
  const { t } = useI18n();
  return (error: unknown) => {
    if (!(error instanceof ApiError)) return t("errors.NETWORK");
    const known = t(`errors.${error.code}`);
    return known.startsWith("errors.") ? t("errors.INTERNAL") : known;
  };
}

// The bounds a validation message states (the server's schemas word them these ways), so the field can say them in the user's language.
const BOUNDS: [RegExp, string][] = [
  [/^must be (\d+)\.\.(\d+) characters$/, "errors.bounds.chars"],
  [/^must be an integer (-?\d+)\.\.(-?\d+)$/, "errors.bounds.integer"],
  [/^must be at most (\d+) options of (\d+)\.\.(\d+) characters$/, "errors.bounds.options"],
  [/^Expected string length less or equal to (\d+)$/, "errors.bounds.maxChars"],
];

/** The message for one field of a failed request: a validation entry names it (`errors[].field`), with the bounds it broke. */
export function fieldError(error: unknown, field: string, t: (k: string, vars?: Record<string, string>) => string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const hit = error.errors.find((e) => e.field === field || e.field.startsWith(`${field}[`) || e.field.startsWith(`${field}.`));
  if (!hit) return undefined;
  for (const [pattern, key] of BOUNDS) {
    const m = hit.message.match(pattern);
    if (m) return `${t("errors.fieldInvalid")} ${t(key, { a: m[1] ?? "", b: m[2] ?? "", c: m[3] ?? "" })}`;
  }
  return t("errors.fieldInvalid");
}

/** A problem that did not land on a field of the form, shown once above its buttons. */
export function FormError({ error, fields }: { error: unknown; fields: string[] }) {
  const text = useProblemText();
  if (!error) return null;
  if (error instanceof ApiError && error.errors.length > 0 && error.errors.every((e) => fields.some((f) => e.field.startsWith(f))))
    return null;
  return (
    <p role="alert" className="error">
      {text(error)}
    </p>
  );
}

/**
 * A one-field form that creates or renames something by its `name` (or the body field `field`): the
 * field shows its own problem; `children` go after the submit button (extra buttons, the form's other problems).
 */
export function NameForm(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  error: unknown;
  submitLabel: string;
  required?: boolean;
  field?: string;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <Field
        label={props.label}
        required={props.required}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        error={fieldError(props.error, props.field ?? "name", t)}
      />
      <button type="submit">{props.submitLabel}</button>
      {props.children}
    </form>
  );
}

type FieldProps = { label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>;
export function Field({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-e` : undefined} {...input} />
      {hint && <small>{hint}</small>}
      {error && (
        <small id={`${id}-e`} className="error">
          {error}
        </small>
      )}
    </div>
  );
}

export function Select({
  label,
  value,
  onChange,
  options,
  name,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
  name?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An accessible modal (Radix): focus trapped, Esc closes, title announced. */
export function Modal({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  title: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>{title}</Dialog.Title>
          {children}
          <Dialog.Close className="close" aria-label={t("common.close")}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function Pager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (p: number) => void }) {
  const { t } = useI18n();
  return (
    <nav className="pager" aria-label={t("common.pages")}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("common.prev")}
      </button>
      <span>{t("common.pageOf", { page, total: Math.max(1, totalPages) })}</span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        {t("common.next")}
      </button>
    </nav>
  );
}

export function Loading() {
  const { t } = useI18n();
  return <p aria-busy="true">{t("common.loading")}</p>;
}

export const formatDate = (iso: string | null | undefined, lang: string) =>
  iso ? new Date(iso).toLocaleString(lang === "ko" ? "ko-KR" : "en-GB", { dateStyle: "medium", timeStyle: "short" }) : "—";

/** A list of checkboxes choosing some of `items` by id (candidates to add, spaces to post to, menus). */
export function CheckList({
  items,
  picked,
  onChange,
  className = "list",
}: {
  items: { id: string; label: ReactNode }[];
  picked: string[];
  onChange: (picked: string[]) => void;
  className?: string;
}) {
  return (
    <ul className={className}>
      {items.map((it) => (
        <li key={it.id}>
          <label className="check">
            <input
              type="checkbox"
              checked={picked.includes(it.id)}
              onChange={(e) => onChange(e.target.checked ? [...picked, it.id] : picked.filter((x) => x !== it.id))}
            />{" "}
            {it.label}
          </label>
        </li>
      ))}
    </ul>
  );
}

/** A button that asks `question` (window.confirm) before it does anything. */
export function ConfirmButton({
  question,
  onConfirm,
  children,
  ...button
}: { question: string; onConfirm: () => void } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick" | "type">) {
  return (
    <button
      type="button"
      {...button}
      onClick={() => {
        if (window.confirm(question)) onConfirm();
      }}
    >
      {children}
    </button>
  );
}

/** "More" under a cursor-paged list (a TanStack infinite query): shown while there is a next page. */
export function MoreButton({
  list,
  label,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  label: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
      {label}
    </button>
  );
}
