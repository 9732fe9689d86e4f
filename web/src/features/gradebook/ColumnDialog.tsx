import { useState } from "react";
import { useI18n } from "../../i18n";
import { ConfirmButton, Field, FormError, fieldError, Modal } from "../../ui/ui";
import { type Column, type ColumnBody, useGradebookWrites } from "./queries";

/** Creates a manual column (an offline test, participation…), or edits or deletes one (`column`). */
export function ColumnDialog({ spaceId, column, onClose }: { spaceId: string; column: Column | null; onClose: () => void }) {
  const { t } = useI18n();
  const writes = useGradebookWrites(spaceId);
  const [v, setV] = useState({
    title: column?.title ?? "",
    maxScore: String(column?.maxScore ?? 100),
    weight: String(column?.weight ?? 1),
  });
  const save = column?.columnId ? writes.update : writes.create;
  const body: ColumnBody = { title: v.title, maxScore: Number(v.maxScore), weight: Number(v.weight) };
  const submit = () => {
    const done = { onSuccess: onClose };
    if (column?.columnId) writes.update.mutate({ columnId: column.columnId, body }, done);
    else writes.create.mutate(body, done);
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={column ? t("grades.columns.edit", { title: column.title }) : t("grades.columns.new")}
    >
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field
          label={t("grades.columns.title")}
          required
          value={v.title}
          onChange={(e) => setV({ ...v, title: e.target.value })}
          error={fieldError(save.error, "title", t)}
        />
        <Field
          label={t("grades.columns.maxScore")}
          type="number"
          min="0.01"
          step="any"
          required
          value={v.maxScore}
          onChange={(e) => setV({ ...v, maxScore: e.target.value })}
          error={fieldError(save.error, "maxScore", t)}
        />
        <Field
          label={t("grades.columns.weight")}
          hint={t("grades.columns.weightHint")}
          type="number"
          min="0"
          step="any"
          required
          value={v.weight}
          onChange={(e) => setV({ ...v, weight: e.target.value })}
          error={fieldError(save.error, "weight", t)}
        />
        <FormError error={save.error} fields={["title", "maxScore", "weight"]} />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {column ? t("common.save") : t("grades.columns.add")}
          </button>
          {column?.columnId && (
            <ConfirmButton
              className="danger"
              question={t("grades.columns.deleteConfirm", { title: column.title })}
              onConfirm={() => writes.remove.mutate(column.columnId as string, { onSuccess: onClose })}
            >
              {t("grades.columns.delete")}
            </ConfirmButton>
          )}
        </div>
        <FormError error={writes.remove.error} fields={[]} />
      </form>
    </Modal>
  );
}

/** Every column's weight in the total (setGradebookWeights), content and manual columns alike. */
export function WeightsDialog({ spaceId, columns, onClose }: { spaceId: string; columns: Column[]; onClose: () => void }) {
  const { t } = useI18n();
  const writes = useGradebookWrites(spaceId);
  const [weights, setWeights] = useState(() => columns.map((c) => String(c.weight)));
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("grades.weights.title")}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          writes.weights.mutate(
            columns.map((c, i) => ({
              ...(c.columnId ? { columnId: c.columnId } : { contentId: c.contentId ?? "" }),
              weight: Number(weights[i]),
            })),
            { onSuccess: onClose },
          );
        }}
      >
        <p className="muted">{t("grades.weights.help")}</p>
        {columns.map((c, i) => (
          <Field
            key={c.columnId ?? c.contentId}
            label={c.title}
            type="number"
            min="0"
            step="any"
            required
            value={weights[i] ?? ""}
            onChange={(e) => setWeights(weights.map((w, j) => (j === i ? e.target.value : w)))}
            error={fieldError(writes.weights.error, `weights[${i}]`, t)}
          />
        ))}
        <FormError error={writes.weights.error} fields={["weights"]} />
        <div>
          <button type="submit" className="primary" disabled={writes.weights.isPending}>
            {t("common.save")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
