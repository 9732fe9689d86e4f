import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../../api/client";
import { useI18n } from "../../i18n";
import { FormError, Loading } from "../../ui/ui";
import { GradeTable } from "./GradeTable";
import { gradebookQuery } from "./queries";

/** The space gradebook: a row per participant, a column per graded content; the same as CSV (Accept: text/csv). */
export default function Gradebook({ spaceId }: { spaceId: string }) {
  const { t } = useI18n();
  const [inactive, setInactive] = useState(false);
  const includeInactive = inactive ? ("true" as const) : undefined;
  const book = useQuery(gradebookQuery(spaceId, inactive));
  const csv = useMutation({
    mutationFn: async () => {
      const { data, response } = await api.GET("/api/v1/spaces/{spaceId}/gradebook", {
        params: { path: { spaceId }, query: { includeInactive } },
        headers: { accept: "text/csv" },
        parseAs: "blob",
      });
      if (!response.ok || !data) throw new Error(`gradebook csv ${response.status}`);
      const a = document.createElement("a");
      a.href = URL.createObjectURL(data);
      a.download = `gradebook-${spaceId}.csv`;
      a.click();
      URL.revokeObjectURL(a.href);
    },
  });
  if (!book.data) return <Loading />;
  return (
    <div>
      <p>
        <button type="button" onClick={() => csv.mutate()}>
          {t("grades.downloadCsv")}
        </button>{" "}
        <label>
          <input type="checkbox" checked={inactive} onChange={(e) => setInactive(e.target.checked)} /> {t("grades.showInactive")}
        </label>
      </p>
      <FormError error={csv.error} fields={[]} />
      <GradeTable columns={book.data.columns} rows={book.data.rows} />
    </div>
  );
}
