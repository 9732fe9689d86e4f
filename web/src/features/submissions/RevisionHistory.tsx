import { useI18n } from "../../i18n";
import { formatDate } from "../../ui/ui";

/** Earlier revisions of one submitter's (or group's) chain, shown when there is more than one. */
export function RevisionHistory({
  history,
}: {
  history: { id: string; revision: number; submittedAt: string; status: string; score: number | null }[];
}) {
  const { t, lang } = useI18n();
  if (history.length <= 1) return null;
  return (
    <details>
      <summary>{t("assignment.history", { n: history.length })}</summary>
      <ul className="list">
        {history.map((h) => (
          <li key={h.id}>
            {t("assignment.revision", { n: h.revision })} · {formatDate(h.submittedAt, lang)} · {t(`assignment.statuses.${h.status}`)} ·{" "}
            {h.score ?? "—"}
          </li>
        ))}
      </ul>
    </details>
  );
}
