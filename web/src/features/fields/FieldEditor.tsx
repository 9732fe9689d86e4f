import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useI18n } from "../../i18n";
import { type Column, DataTable } from "../../ui/DataTable";
import { MoveButtons, moved } from "../../ui/MoveButtons";
import { FormError, fieldError, Loading } from "../../ui/ui";
import { type Batch, isEmpty, type Kind, prefixOf, type Row, type Saved, toBatch, toRow } from "./draft";
import { NewFieldForm } from "./NewFieldForm";
import { OptionsEditor } from "./OptionsEditor";
import { fieldKeys, fieldsQuery, saveFields } from "./queries";

/**
 * Every field of a kind as an editable table: label, choices, required, in use, order, delete
 * (member fields), new fields; nothing is sent until "Save changes", then as one batch.
 */
export function FieldEditor({ kind }: { kind: Kind }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const fields = useQuery(fieldsQuery(kind));
  const [draft, setDraft] = useState<Row[] | null>(null);
  const [sent, setSent] = useState<Batch | null>(null);
  const saved = (fields.data?.fields ?? []) as Saved[];
  const rows = draft ?? saved.map(toRow);
  const save = useMutation({
    mutationFn: (batch: Batch) => {
      setSent(batch);
      return saveFields(kind, batch);
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: fieldKeys.list(kind) });
      if (kind === "member") void qc.invalidateQueries({ queryKey: fieldKeys.display });
      setDraft(null);
    },
  });
  if (!fields.data) return <Loading />;
  const edit = (tempId: string, patch: Partial<Row>) => setDraft(rows.map((r) => (r.tempId === tempId ? { ...r, ...patch } : r)));
  const err = (r: Row, field: string) => {
    const prefix = prefixOf(sent, r.tempId);
    return prefix === null ? undefined : fieldError(save.error, `${prefix}${field}`, t);
  };
  const savedCount = rows.filter((r) => r.id !== null).length;
  const name = (r: Row) => r.label || r.key || t("fields.newField");
  const columns: Column<Row>[] = [
    {
      key: "order",
      header: t("fields.order"),
      cell: (r) => {
        if (r.id === null) return <span className="badge">{t("fields.new")}</span>;
        const i = rows.indexOf(r);
        return <MoveButtons name={name(r)} index={i} last={savedCount - 1} onMove={(d) => setDraft(moved(rows, i, d))} />;
      },
    },
    {
      key: "label",
      header: t("fields.label"),
      cell: (r) => (
        <CellInput
          label={`${r.key || t("fields.newField")}: ${t("fields.label")}`}
          value={r.label}
          disabled={r.deleted}
          onChange={(label) => edit(r.tempId, { label })}
          error={err(r, "label")}
        />
      ),
    },
    {
      key: "key",
      header: t("fields.key"),
      cell: (r) =>
        r.id === null ? (
          <CellInput
            label={`${r.label || t("fields.newField")}: ${t("fields.key")}`}
            value={r.key}
            onChange={(key) => edit(r.tempId, { key })}
            error={err(r, "key")}
          />
        ) : (
          <code>{r.key}</code>
        ),
    },
    { key: "type", header: t("fields.type"), cell: (r) => t(`fields.types.${r.type}`) },
    {
      key: "options",
      header: t("fields.options"),
      cell: (r) =>
        r.type === "SELECT" ? (
          <OptionsEditor
            fieldLabel={name(r)}
            options={r.options}
            onChange={(options) => edit(r.tempId, { options })}
            error={err(r, "options")}
          />
        ) : (
          "—"
        ),
    },
    {
      key: "required",
      header: t("fields.required"),
      cell: (r) => (
        <input
          type="checkbox"
          aria-label={`${name(r)}: ${t("fields.required")}`}
          checked={r.required}
          disabled={r.deleted}
          onChange={(e) => edit(r.tempId, { required: e.target.checked })}
        />
      ),
    },
    {
      key: "active",
      header: t("fields.active"),
      cell: (r) => (
        <input
          type="checkbox"
          aria-label={`${name(r)}: ${t("fields.active")}`}
          checked={r.isActive}
          disabled={r.deleted || r.id === null}
          onChange={(e) => edit(r.tempId, { isActive: e.target.checked })}
        />
      ),
    },
  ];
  if (kind === "member")
    columns.push({
      key: "delete",
      header: t("common.delete"),
      cell: (r) =>
        r.id === null ? (
          <button type="button" className="small" onClick={() => setDraft(rows.filter((x) => x !== r))}>
            {t("common.remove")}
          </button>
        ) : (
          <input
            type="checkbox"
            aria-label={`${name(r)}: ${t("fields.deleteField")}`}
            checked={r.deleted}
            onChange={(e) => edit(r.tempId, { deleted: e.target.checked })}
          />
        ),
    });
  const batch = toBatch(saved, rows);
  return (
    <>
      <DataTable
        label={kind === "member" ? t("fields.title") : t("fields.spaceTitle")}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.tempId}
      />
      {kind === "space" && <p className="muted">{t("fields.spaceNoDelete")}</p>}
      <div className="actions">
        <button type="button" className="primary" disabled={isEmpty(batch) || save.isPending} onClick={() => save.mutate(batch)}>
          {t("fields.saveChanges")}
        </button>
        <button type="button" disabled={draft === null} onClick={() => setDraft(null)}>
          {t("fields.discard")}
        </button>
        {batch.deletes.length > 0 && <span className="error">{t("fields.willDelete", { count: batch.deletes.length })}</span>}
        {save.isSuccess && draft === null && <span role="status">{t("common.saved")}</span>}
      </div>
      <FormError error={save.error} fields={["updates", "creates"]} />
      <NewFieldForm onAdd={(row) => setDraft([...rows, row])} />
    </>
  );
}

/** A text box inside a table cell: named for screen readers, its problem under it. */
function CellInput(props: { label: string; value: string; onChange: (v: string) => void; error?: string; disabled?: boolean }) {
  const id = useId();
  return (
    <>
      <input
        id={id}
        aria-label={props.label}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-e` : undefined}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && (
        <small id={`${id}-e`} className="error cell-error">
          {props.error}
        </small>
      )}
    </>
  );
}
