import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { MoveButtons, moved } from "../../ui/MoveButtons";
import { FormError, Loading } from "../../ui/ui";
import { fieldKeys, memberFieldDisplayQuery, setMemberFieldDisplay } from "./queries";

type Item = { fieldId: string; visible: boolean; label: string; isDefault: boolean };
// The default columns' names in the members list's own words (the server labels them in English).
const DEFAULT_LABELS: Record<string, string> = {
  displayName: "members.name",
  userId: "members.userId",
  email: "members.email",
  lastLoginAt: "members.lastLogin",
  createdAt: "members.created",
  isActive: "members.status",
  activeSpaceCount: "members.activeSpaces",
  inactiveSpaceCount: "members.inactiveSpaces",
};

/** Which columns and fields the members list shows, in which order (setMemberFieldDisplay). */
export function FieldDisplay() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const display = useQuery(memberFieldDisplayQuery());
  const [draft, setDraft] = useState<Item[] | null>(null);
  const save = useMutation({
    mutationFn: (items: Item[]) =>
      setMemberFieldDisplay({
        body: { entries: items.map((x, order) => ({ fieldId: x.fieldId, visible: x.visible, order, visibility: "PUBLIC" as const })) },
      }),
    onSuccess: (data) => {
      qc.setQueryData(fieldKeys.display, data);
      setDraft(null);
    },
  });
  if (!display.data) return <Loading />;
  const items: Item[] = draft ?? display.data.items;
  const label = (x: Item) => (x.isDefault && DEFAULT_LABELS[x.fieldId] ? t(DEFAULT_LABELS[x.fieldId] as string) : x.label);
  return (
    <section aria-labelledby="display-title">
      <h2 id="display-title">{t("fields.display")}</h2>
      <p className="muted">{t("fields.displayHint")}</p>
      <DataTable
        label={t("fields.display")}
        columns={[
          {
            key: "label",
            header: t("fields.column"),
            cell: (x) => (
              <>
                {label(x)} {x.isDefault && <small className="muted">({t("fields.builtIn")})</small>}
              </>
            ),
          },
          {
            key: "visible",
            header: t("fields.visible"),
            cell: (x) => (
              <input
                type="checkbox"
                aria-label={`${label(x)}: ${t("fields.visible")}`}
                checked={x.visible}
                onChange={(e) => setDraft(items.map((y) => (y === x ? { ...y, visible: e.target.checked } : y)))}
              />
            ),
          },
          {
            key: "order",
            header: t("fields.order"),
            cell: (x) => {
              const i = items.indexOf(x);
              return <MoveButtons name={label(x)} index={i} last={items.length - 1} onMove={(d) => setDraft(moved(items, i, d))} />;
            },
          },
        ]}
        rows={items}
        rowKey={(x) => x.fieldId}
      />
      <div className="actions">
        <button type="button" className="primary" disabled={draft === null || save.isPending} onClick={() => save.mutate(items)}>
          {t("fields.saveDisplay")}
        </button>
        {save.isSuccess && draft === null && <span role="status">{t("common.saved")}</span>}
      </div>
      <FormError error={save.error} fields={[]} />
    </section>
  );
}
