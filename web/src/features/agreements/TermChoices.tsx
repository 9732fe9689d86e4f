import { useI18n } from "../../i18n";
import { type Pending, termName } from "./queries";

/** Pending terms as checkboxes: required or optional, why it is asked again, and a link to read the document. */
export function TermChoices({ items, chosen, onChange }: { items: Pending[]; chosen: Set<string>; onChange: (next: Set<string>) => void }) {
  const { t, lang } = useI18n();
  return (
    <ul className="list">
      {items.map((a) => {
        const key = `${a.scope}:${a.topic}`;
        const doc = a.documentUrl[lang] || a.documentUrl[lang === "ko" ? "en" : "ko"];
        return (
          <li key={key}>
            <label className="check">
              <input
                type="checkbox"
                checked={chosen.has(key)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(key);
                  else next.delete(key);
                  onChange(next);
                }}
              />
              {t("agreements.agreeTo", { name: termName(a, lang) })}
            </label>{" "}
            <span className="badge">{a.isEssential ? t("agreements.required") : t("agreements.optional")}</span>{" "}
            <small className="muted">
              {t(`agreements.reason.${a.reason}`)} · {t("agreements.version", { n: a.version })}
              {a.scope === "platform" && ` · ${t("agreements.platform")}`}
            </small>{" "}
            {doc && (
              <a href={doc} target="_blank" rel="noopener noreferrer">
                {t("agreements.read")}
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export const keyOf = (a: Pending) => `${a.scope}:${a.topic}`;
