import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { FormError, Loading } from "../../ui/ui";
import { useSpace } from "../spaces/queries";
import { ColumnDialog, WeightsDialog } from "./ColumnDialog";
import { GradeTable } from "./GradeTable";
import { type Column, gradebookCsv, useGradebook, useGradebookWrites } from "./queries";

/**
 * The space gradebook: a row per participant, a column per graded content and per manual column
 * (typed in place), weights and the weighted total; the same as CSV (Accept: text/csv).
 */
export default function Gradebook({ spaceId }: { spaceId: string }) {
  const { t } = useI18n();
  const [inactive, setInactive] = useState(false);
  const [dialog, setDialog] = useState<{ kind: "column"; column: Column | null } | { kind: "weights" } | null>(null);
  const book = useGradebook(spaceId, inactive);
  const space = useSpace(spaceId);
  const writes = useGradebookWrites(spaceId);
  const csv = useMutation({
    mutationFn: async () => {
      const data = await gradebookCsv(spaceId, inactive);
      const a = document.createElement("a");
      a.href = URL.createObjectURL(data);
      a.download = `${t("grades.gradebook")} - ${space.data?.name ?? spaceId}.csv`;
      a.click();
      URL.revokeObjectURL(a.href);
    },
  });
  if (!book.data) return <Loading />;
  const columns = book.data.columns;
  return (
    <div>
      <div className="inline">
        <button type="button" onClick={() => setDialog({ kind: "column", column: null })}>
          {t("grades.columns.new")}
        </button>
        {columns.length > 0 && (
          <button type="button" onClick={() => setDialog({ kind: "weights" })}>
            {t("grades.weights.title")}
          </button>
        )}
        <button type="button" onClick={() => csv.mutate()}>
          {t("grades.downloadCsv")}
        </button>
        <label className="check">
          <input type="checkbox" checked={inactive} onChange={(e) => setInactive(e.target.checked)} /> {t("grades.showInactive")}
        </label>
      </div>
      <FormError error={csv.error} fields={[]} />
      <FormError error={writes.score.error} fields={[]} />
      {writes.score.isSuccess && !writes.score.isPending && (
        <p role="status" className="muted">
          {t("common.saved")}
        </p>
      )}
      <GradeTable
        columns={columns}
        rows={book.data.rows}
        manage={{
          onEditColumn: (column) => setDialog({ kind: "column", column }),
          onScore: (c, r, score, failed) =>
            writes.score.mutate({ columnId: c.columnId as string, profileId: r.profileId, score }, { onError: failed }),
        }}
      />
      {dialog?.kind === "column" && <ColumnDialog spaceId={spaceId} column={dialog.column} onClose={() => setDialog(null)} />}
      {dialog?.kind === "weights" && <WeightsDialog spaceId={spaceId} columns={columns} onClose={() => setDialog(null)} />}
    </div>
  );
}
