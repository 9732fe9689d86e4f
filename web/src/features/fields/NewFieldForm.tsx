import { useState } from "react";
import { useI18n } from "../../i18n";
import { Field, Select } from "../../ui/ui";
import { type FieldType, type Row, TYPES } from "./draft";
import { OptionsEditor } from "./OptionsEditor";

let added = 0;
const EMPTY = { key: "", label: "", type: "SHORT_TEXT" as FieldType, options: [] as string[], required: false };

/** A new field joins the editor's draft (saved with the other changes); the server checks it then. */
export function NewFieldForm({ onAdd }: { onAdd: (row: Row) => void }) {
  const { t } = useI18n();
  const [form, setForm] = useState(EMPTY);
  return (
    <form
      className="panel new-field"
      onSubmit={(e) => {
        e.preventDefault();
        onAdd({ ...form, id: null, tempId: `new-${++added}`, deleted: false, isActive: true });
        setForm(EMPTY);
      }}
    >
      <h2>{t("fields.create")}</h2>
      <Field
        label={t("fields.key")}
        hint={t("fields.keyHint")}
        required
        value={form.key}
        onChange={(e) => setForm({ ...form, key: e.target.value })}
      />
      <Field label={t("fields.label")} required value={form.label} onChange={(e) => setForm({ ...form, label: e.target.value })} />
      <Select
        label={t("fields.type")}
        value={form.type}
        onChange={(v) => setForm({ ...form, type: v as FieldType, options: [] })}
        options={TYPES.map((x) => ({ value: x, label: t(`fields.types.${x}`) }))}
      />
      {form.type === "SELECT" && (
        <OptionsEditor
          fieldLabel={form.label || t("fields.newField")}
          options={form.options}
          onChange={(options) => setForm({ ...form, options })}
        />
      )}
      <label className="check">
        <input type="checkbox" checked={form.required} onChange={(e) => setForm({ ...form, required: e.target.checked })} />
        {t("fields.required")}
      </label>
      <button type="submit">{t("fields.addToList")}</button>
    </form>
  );
}
