import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { Field } from "../../ui/ui";

type Window = { opensAt?: string | null; closesAt?: string | null };

/** When a quiz or survey is open (opensAt, closesAt), and closing it now. */
export function WindowFields({
  value,
  onChange,
  onCloseNow,
  error,
}: {
  value: Window;
  onChange: (patch: Window) => void;
  onCloseNow: () => void;
  error: (field: string) => string | undefined;
}) {
  const { t } = useI18n();
  return (
    <>
      <Field
        label={t("questionSet.opensAt")}
        type="datetime-local"
        value={toLocalInput(value.opensAt)}
        onChange={(e) => onChange({ opensAt: fromLocalInput(e.target.value) })}
        error={error("opensAt")}
      />
      <Field
        label={t("questionSet.closesAt")}
        type="datetime-local"
        value={toLocalInput(value.closesAt)}
        onChange={(e) => onChange({ closesAt: fromLocalInput(e.target.value) })}
        error={error("closesAt")}
      />
      <button type="button" onClick={onCloseNow}>
        {t("questionSet.closeNow")}
      </button>
    </>
  );
}
