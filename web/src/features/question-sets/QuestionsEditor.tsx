import { type ReactNode, useState } from "react";
import { useI18n } from "../../i18n";
import { Field } from "../../ui/ui";

/**
 * The editor core that quizzes and surveys share (as the server shares src/modules/question-sets): a list of
 * typed questions with their text, moved, removed and added by type; each type's own part comes from `children`.
 */
export function QuestionsEditor<Q, T extends string>(props: {
  questions: Q[];
  onChange: (next: Q[]) => void;
  types: readonly T[];
  typeOf: (q: Q) => T;
  typeLabel: (type: T) => string;
  blank: (type: T) => Q;
  keyOf: (q: Q, i: number) => string;
  /** The question's own text: `field` is its name in the request body (`body`, `title`). */
  text: { get: (q: Q) => string; set: (q: Q, value: string) => Q; field: string };
  error: (field: string) => string | undefined;
  children: (q: Q, i: number, update: (next: Q) => void) => ReactNode;
}) {
  const { t } = useI18n();
  const { questions, onChange } = props;
  const [newType, setNewType] = useState<T>(props.types[0] as T);
  const update = (i: number, next: Q) => onChange(questions.map((q, j) => (j === i ? next : q)));
  const move = (i: number, by: number) => {
    const next = [...questions];
    const [q] = next.splice(i, 1);
    next.splice(i + by, 0, q as Q);
    onChange(next);
  };
  return (
    <>
      {questions.map((q, i) => {
        const id = `q-${props.keyOf(q, i)}`;
        const textError = props.error(`questions[${i}].${props.text.field}`);
        return (
          <fieldset key={props.keyOf(q, i)} className="panel question">
            <legend>
              {t("questionSet.questionN", { n: i + 1 })} · {props.typeLabel(props.typeOf(q))}
            </legend>
            <div className="field">
              <label htmlFor={`${id}-text`}>{t("questionSet.text")}</label>
              <textarea
                id={`${id}-text`}
                rows={2}
                value={props.text.get(q)}
                onChange={(e) => update(i, props.text.set(q, e.target.value))}
                aria-invalid={textError ? true : undefined}
                aria-describedby={textError ? `${id}-text-e` : undefined}
              />
              {textError && (
                <small id={`${id}-text-e`} className="error">
                  {textError}
                </small>
              )}
            </div>
            {props.children(q, i, (next) => update(i, next))}
            <div className="inline">
              <button type="button" className="small" disabled={i === 0} onClick={() => move(i, -1)}>
                {t("questionSet.moveUp")}
              </button>
              <button type="button" className="small" disabled={i === questions.length - 1} onClick={() => move(i, 1)}>
                {t("questionSet.moveDown")}
              </button>
              <button type="button" className="small danger" onClick={() => onChange(questions.filter((_, j) => j !== i))}>
                {t("questionSet.removeQuestion")}
              </button>
            </div>
          </fieldset>
        );
      })}
      <div className="inline">
        <div className="field">
          <label htmlFor="new-q-type">{t("questionSet.questionType")}</label>
          <select id="new-q-type" value={newType} onChange={(e) => setNewType(e.target.value as T)}>
            {props.types.map((x) => (
              <option key={x} value={x}>
                {props.typeLabel(x)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => onChange([...questions, props.blank(newType)])}>
          {t("questionSet.addQuestion")}
        </button>
      </div>
    </>
  );
}

/** A question's options (choices): each one's text, an extra control per type (correct, "other"), added and removed. */
export function OptionsEditor<O>(props: {
  options: O[];
  onChange: (next: O[]) => void;
  blank: () => O;
  keyOf: (o: O, k: number) => string;
  text: { get: (o: O) => string; set: (o: O, value: string) => O };
  /** The options' path in the request body, e.g. `questions[2].options`. */
  field: string;
  error: (field: string) => string | undefined;
  extra?: (o: O, k: number) => ReactNode;
}) {
  const { t } = useI18n();
  const { options, onChange } = props;
  return (
    <>
      {options.map((o, k) => (
        <OptionRow
          key={props.keyOf(o, k)}
          label={t("questionSet.optionN", { n: k + 1 })}
          value={props.text.get(o)}
          onChange={(v) => onChange(options.map((x, m) => (m === k ? props.text.set(x, v) : x)))}
          error={props.error(`${props.field}[${k}]`)}
          onRemove={options.length > 1 ? () => onChange(options.filter((_, m) => m !== k)) : undefined}
          removeLabel={t("questionSet.removeOptionN", { n: k + 1 })}
        >
          {props.extra?.(o, k)}
        </OptionRow>
      ))}
      <button type="button" className="small" onClick={() => onChange([...options, props.blank()])}>
        {t("questionSet.addOption")}
      </button>
    </>
  );
}

function OptionRow(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  onRemove?: () => void;
  removeLabel: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className="inline">
      <Field label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value)} error={props.error} />
      {props.children}
      {props.onRemove && (
        <button type="button" className="small" aria-label={props.removeLabel} onClick={props.onRemove}>
          {t("common.remove")}
        </button>
      )}
    </div>
  );
}
