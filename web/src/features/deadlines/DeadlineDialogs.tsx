import { useState } from "react";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { Field, FormError, fieldError, Modal } from "../../ui/ui";
import { type OverrideBody, useDeadlineWrites } from "./queries";

type Who = { profileId: string; displayName: string };

/** One student's own due date for an assignment (setSubmissionExtension); removing it restores the class's. */
export function ExtensionDialog({
  contentId,
  student,
  own,
  onClose,
}: {
  contentId: string;
  student: Who;
  own: string | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const { extend } = useDeadlineWrites(contentId, student.profileId);
  const [dueAt, setDueAt] = useState(toLocalInput(own));
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("roster.extensionTitle", { name: student.displayName })}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          extend.mutate(fromLocalInput(dueAt), { onSuccess: onClose });
        }}
      >
        <Field
          label={t("roster.ownDue")}
          type="datetime-local"
          required
          value={dueAt}
          onChange={(e) => setDueAt(e.target.value)}
          error={fieldError(extend.error, "dueAt", t)}
        />
        <FormError error={extend.error} fields={["dueAt"]} />
        <div className="actions">
          <button type="submit" className="primary" disabled={extend.isPending}>
            {t("common.save")}
          </button>
          {own && (
            <button type="button" disabled={extend.isPending} onClick={() => extend.mutate(null, { onSuccess: onClose })}>
              {t("roster.removeExtension")}
            </button>
          )}
        </div>
      </form>
    </Modal>
  );
}

/** One student's exception to a quiz (setQuizOverride): each empty field keeps the quiz's own value. */
export function OverrideDialog({
  contentId,
  student,
  current,
  onClose,
}: {
  contentId: string;
  student: Who;
  current: OverrideBody | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const { override, removeOverride } = useDeadlineWrites(contentId, student.profileId);
  const [v, setV] = useState({
    opensAt: toLocalInput(current?.opensAt),
    closesAt: toLocalInput(current?.closesAt),
    timeLimitMinutes: current?.timeLimitMinutes?.toString() ?? "",
    maxAttempts: current?.maxAttempts?.toString() ?? "",
  });
  const num = (s: string) => (s.trim() === "" ? null : Number(s));
  const fieldProps = (key: keyof typeof v) => ({
    value: v[key],
    onChange: (e: { target: { value: string } }) => setV({ ...v, [key]: e.target.value }),
    error: fieldError(override.error, key, t),
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("roster.exceptionTitle", { name: student.displayName })}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          override.mutate(
            {
              opensAt: fromLocalInput(v.opensAt),
              closesAt: fromLocalInput(v.closesAt),
              timeLimitMinutes: num(v.timeLimitMinutes),
              maxAttempts: num(v.maxAttempts),
            },
            { onSuccess: onClose },
          );
        }}
      >
        <p className="muted">{t("roster.exceptionHelp")}</p>
        <Field label={t("roster.opensAt")} type="datetime-local" {...fieldProps("opensAt")} />
        <Field label={t("roster.closesAt")} type="datetime-local" {...fieldProps("closesAt")} />
        <Field label={t("roster.timeLimit")} type="number" min="1" step="1" {...fieldProps("timeLimitMinutes")} />
        <Field label={t("roster.maxAttempts")} type="number" min="1" step="1" {...fieldProps("maxAttempts")} />
        <FormError error={override.error ?? removeOverride.error} fields={["opensAt", "closesAt", "timeLimitMinutes", "maxAttempts"]} />
        <div className="actions">
          <button type="submit" className="primary" disabled={override.isPending}>
            {t("common.save")}
          </button>
          {current && (
            <button
              type="button"
              disabled={removeOverride.isPending}
              onClick={() => removeOverride.mutate(undefined, { onSuccess: onClose })}
            >
              {t("roster.removeException")}
            </button>
          )}
        </div>
      </form>
    </Modal>
  );
}
