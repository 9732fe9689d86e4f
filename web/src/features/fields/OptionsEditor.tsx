import { useId, useState } from "react";
import { useI18n } from "../../i18n";

/** The choices of a choice (SELECT) field: remove any, add one at a time; the server checks 1..100 characters and at most 50. */
export function OptionsEditor(props: { fieldLabel: string; options: string[]; onChange: (options: string[]) => void; error?: string }) {
  const { t } = useI18n();
  const id = useId();
  const [next, setNext] = useState("");
  const add = () => {
    const v = next.trim();
    if (!v || props.options.includes(v)) return;
    props.onChange([...props.options, v]);
    setNext("");
  };
  return (
    <div className="options">
      <ul className="chips" aria-label={t("fields.optionsOf", { name: props.fieldLabel })}>
        {props.options.map((o) => (
          <li key={o}>
            {o}{" "}
            <button
              type="button"
              className="small"
              aria-label={t("fields.removeOption", { name: o })}
              onClick={() => props.onChange(props.options.filter((x) => x !== o))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="inline">
        <input
          id={id}
          aria-label={t("fields.newOptionFor", { name: props.fieldLabel })}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${id}-e` : undefined}
          placeholder={t("fields.newOption")}
          value={next}
          onChange={(e) => setNext(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="small" onClick={add} disabled={!next.trim()}>
          {t("fields.addOption")}
        </button>
      </div>
      {props.error && (
        <small id={`${id}-e`} className="error">
          {props.error}
        </small>
      )}
    </div>
  );
}
