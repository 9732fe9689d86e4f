import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { Field, FormError, fieldError, Modal, NameForm } from "../../ui/ui";
import { createPosition, deletePosition, orgKeys, positionsQuery, updatePosition, updatePositionSettings } from "./queries";

type Position = { id: string; name: string; order: number; memberCount: number };

/** Positions (create, edit name and order, delete) and the school's switch that shows them on members. */
export function Positions({ manage, switchable }: { manage: boolean; switchable: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const settings = useQuery(positionsQuery());
  const [name, setName] = useState("");
  const [editing, setEditing] = useState<Position | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: orgKeys.positions });
  const create = useMutation({
    mutationFn: () => createPosition({ body: { name } }),
    onSuccess: () => {
      setName("");
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => deletePosition({ params: { path: { positionId: id } } }),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => updatePositionSettings({ body: { enabled } }),
    onSuccess: refresh,
  });
  return (
    <>
      <h2>{t("org.positions")}</h2>
      {settings.data && (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={settings.data.enabled}
              disabled={!switchable || toggle.isPending}
              onChange={(e) => toggle.mutate(e.target.checked)}
            />
            {t("org.positionsEnabled")}
          </label>
          <FormError error={toggle.error} fields={[]} />
          <DataTable
            label={t("org.positions")}
            columns={[
              { key: "name", header: t("org.name"), cell: (p) => p.name },
              { key: "order", header: t("org.order"), cell: (p) => p.order },
              { key: "members", header: t("groups.memberCount"), cell: (p) => p.memberCount },
              ...(manage
                ? [
                    {
                      key: "actions",
                      header: t("common.actions"),
                      cell: (p: Position) => (
                        <>
                          <button
                            type="button"
                            className="small"
                            aria-label={t("org.editNamed", { name: p.name })}
                            onClick={() => setEditing(p)}
                          >
                            {t("org.edit")}
                          </button>{" "}
                          <button
                            type="button"
                            className="small"
                            aria-label={t("org.deleteNamed", { name: p.name })}
                            onClick={() => remove.mutate(p.id)}
                          >
                            {t("common.delete")}
                          </button>
                        </>
                      ),
                    },
                  ]
                : []),
            ]}
            rows={settings.data.positions}
            rowKey={(p) => p.id}
          />
        </>
      )}
      {manage && (
        <NameForm
          label={t("org.newPosition")}
          required
          value={name}
          onChange={setName}
          onSubmit={() => create.mutate()}
          error={create.error}
          submitLabel={t("common.create")}
        />
      )}
      <FormError error={create.error ?? remove.error} fields={["name"]} />
      {editing && <EditPosition position={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function EditPosition({ position, onClose }: { position: Position; onClose: () => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [form, setForm] = useState({ name: position.name, order: String(position.order) });
  const save = useMutation({
    mutationFn: () =>
      updatePosition({
        params: { path: { positionId: position.id } },
        body: { name: form.name, order: Number(form.order) },
      }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: orgKeys.positions });
      onClose();
    },
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("org.editPosition")}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Field
          label={t("org.name")}
          required
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={fieldError(save.error, "name", t)}
        />
        <Field
          label={t("org.order")}
          type="number"
          step={1}
          hint={t("org.positionOrderHint")}
          value={form.order}
          onChange={(e) => setForm({ ...form, order: e.target.value })}
          error={fieldError(save.error, "order", t)}
        />
        <FormError error={save.error} fields={["name", "order"]} />
        <button type="submit" className="primary">
          {t("common.save")}
        </button>
      </form>
    </Modal>
  );
}
