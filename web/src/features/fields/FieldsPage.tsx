import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading, Select } from "../../shell/ui";

const TYPES = ["SHORT_TEXT", "LONG_TEXT", "NUMBER", "DATE", "SELECT"] as const;
type FieldType = (typeof TYPES)[number];

/** Custom member fields: create, relabel, required, activate/deactivate, reorder. */
export default function FieldsPage() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const fields = useQuery({ queryKey: ["member-fields"], queryFn: () => ok(api.GET("/api/v1/member-fields")) });
  const [form, setForm] = useState({ key: "", label: "", type: "SHORT_TEXT" as FieldType, options: "", required: false });
  const refresh = () => void qc.invalidateQueries({ queryKey: ["member-fields"] });
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/member-fields", {
          body: {
            key: form.key,
            label: form.label,
            type: form.type,
            required: form.required,
            ...(form.type === "SELECT"
              ? {
                  options: form.options
                    .split(",")
                    .map((o) => o.trim())
                    .filter(Boolean),
                }
              : {}),
          },
        }),
      ),
    onSuccess: () => {
      setForm({ key: "", label: "", type: "SHORT_TEXT", options: "", required: false });
      refresh();
    },
  });
  const update = useMutation({
    mutationFn: (v: { id: string; body: { isActive?: boolean; required?: boolean; label?: string } }) =>
      ok(api.PATCH("/api/v1/member-fields/{fieldId}", { params: { path: { fieldId: v.id } }, body: v.body })),
    onSuccess: refresh,
  });
  const reorder = useMutation({
    mutationFn: (orderedIds: string[]) => ok(api.PUT("/api/v1/member-fields/order", { body: { orderedIds } })),
    onSuccess: refresh,
  });
  if (!fields.data) return <Loading />;
  const list = fields.data.fields;
  const move = (i: number, d: number) => {
    const ids = list.map((f) => f.id);
    const [x] = ids.splice(i, 1);
    ids.splice(i + d, 0, x as string);
    reorder.mutate(ids);
  };
  return (
    <section>
      <h1>{t("fields.title")}</h1>
      <table>
        <thead>
          <tr>
            <th>{t("fields.label")}</th>
            <th>{t("fields.key")}</th>
            <th>{t("fields.type")}</th>
            <th>{t("fields.required")}</th>
            <th>{t("fields.active")}</th>
            <th>{t("fields.order")}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((f, i) => (
            <tr key={f.id}>
              <td>{f.label}</td>
              <td>
                <code>{f.key}</code>
              </td>
              <td>
                {t(`fields.types.${f.type}`)}
                {f.options.length > 0 && <small className="muted"> ({f.options.join(", ")})</small>}
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${f.label}: ${t("fields.required")}`}
                  checked={f.required}
                  onChange={(e) => update.mutate({ id: f.id, body: { required: e.target.checked } })}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${f.label}: ${t("fields.active")}`}
                  checked={f.isActive}
                  onChange={(e) => update.mutate({ id: f.id, body: { isActive: e.target.checked } })}
                />
              </td>
              <td>
                <button
                  type="button"
                  className="small"
                  disabled={i === 0}
                  aria-label={`${f.label}: ${t("fields.up")}`}
                  onClick={() => move(i, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="small"
                  disabled={i === list.length - 1}
                  aria-label={`${f.label}: ${t("fields.down")}`}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.length === 0 && <p>{t("common.empty")}</p>}
      <FormError error={update.error ?? reorder.error} fields={[]} />
      <h2>{t("fields.create")}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label={t("fields.key")}
          hint={t("fields.keyHint")}
          required
          value={form.key}
          onChange={(e) => setForm({ ...form, key: e.target.value })}
          error={fieldError(create.error, "key", t)}
        />
        <Field
          label={t("fields.label")}
          required
          value={form.label}
          onChange={(e) => setForm({ ...form, label: e.target.value })}
          error={fieldError(create.error, "label", t)}
        />
        <Select
          label={t("fields.type")}
          value={form.type}
          onChange={(v) => setForm({ ...form, type: v as FieldType })}
          options={TYPES.map((x) => ({ value: x, label: t(`fields.types.${x}`) }))}
        />
        {form.type === "SELECT" && (
          <Field
            label={t("fields.options")}
            hint={t("fields.optionsHint")}
            value={form.options}
            onChange={(e) => setForm({ ...form, options: e.target.value })}
            error={fieldError(create.error, "options", t)}
          />
        )}
        <label className="check">
          <input type="checkbox" checked={form.required} onChange={(e) => setForm({ ...form, required: e.target.checked })} />
          {t("fields.required")}
        </label>
        <FormError error={create.error} fields={["key", "label", "type", "options"]} />
        <button type="submit" className="primary">
          {t("common.create")}
        </button>
      </form>
    </section>
  );
}
