import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading } from "../../shell/ui";

/** The school's terms (each topic versioned) and how many members consented to the current version. */
export default function TermsPage() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const terms = useQuery({ queryKey: ["terms"], queryFn: () => ok(api.GET("/api/v1/terms")) });
  const [form, setForm] = useState({ topic: "", ko: "", en: "", isEssential: true });
  const refresh = () => void qc.invalidateQueries({ queryKey: ["terms"] });
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/terms", {
          body: { topic: form.topic, isEssential: form.isEssential, documentUrl: { ko: form.ko, en: form.en } },
        }),
      ),
    onSuccess: () => {
      setForm({ topic: "", ko: "", en: "", isEssential: true });
      refresh();
    },
  });
  const update = useMutation({
    mutationFn: (v: { topic: string; body: { isActive?: boolean; isVisible?: boolean; isEssential?: boolean } }) =>
      ok(api.PATCH("/api/v1/terms/{topic}", { params: { path: { topic: v.topic } }, body: v.body })),
    onSuccess: refresh,
  });
  if (!terms.data) return <Loading />;
  const own = terms.data.terms.filter((x) => x.scope === "tenant");
  return (
    <section>
      <h1>{t("terms.title")}</h1>
      <table>
        <thead>
          <tr>
            <th>{t("terms.topic")}</th>
            <th>{t("terms.version")}</th>
            <th>{t("terms.essential")}</th>
            <th>{t("terms.visible")}</th>
            <th>{t("terms.active")}</th>
            <th>{t("terms.consents")}</th>
            <th>{t("terms.document")}</th>
          </tr>
        </thead>
        <tbody>
          {terms.data.terms.map((x) => (
            <tr key={`${x.scope}-${x.topic}`}>
              <td>
                <code>{x.topic}</code> {x.scope === "platform" && <small className="muted">{t("terms.platform")}</small>}
              </td>
              <td>{x.version}</td>
              {(["isEssential", "isVisible", "isActive"] as const).map((k) => (
                <td key={k}>
                  <input
                    type="checkbox"
                    aria-label={`${x.topic}: ${t(`terms.${k === "isEssential" ? "essential" : k === "isVisible" ? "visible" : "active"}`)}`}
                    disabled={x.scope !== "tenant"}
                    checked={x[k]}
                    onChange={(e) => update.mutate({ topic: x.topic, body: { [k]: e.target.checked } })}
                  />
                </td>
              ))}
              <td>{x.consentCount}</td>
              <td>
                {x.documentUrl.ko && <a href={x.documentUrl.ko}>한국어</a>} {x.documentUrl.en && <a href={x.documentUrl.en}>English</a>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {own.length === 0 && <p className="muted">{t("terms.noneOwn")}</p>}
      <FormError error={update.error} fields={[]} />
      <h2>{t("terms.create")}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label={t("terms.topic")}
          hint={t("terms.topicHint")}
          required
          value={form.topic}
          onChange={(e) => setForm({ ...form, topic: e.target.value })}
          error={fieldError(create.error, "topic", t)}
        />
        <Field
          label={t("terms.urlKo")}
          type="url"
          value={form.ko}
          onChange={(e) => setForm({ ...form, ko: e.target.value })}
          error={fieldError(create.error, "documentUrl.ko", t)}
        />
        <Field
          label={t("terms.urlEn")}
          type="url"
          value={form.en}
          onChange={(e) => setForm({ ...form, en: e.target.value })}
          error={fieldError(create.error, "documentUrl.en", t)}
        />
        <label className="check">
          <input type="checkbox" checked={form.isEssential} onChange={(e) => setForm({ ...form, isEssential: e.target.checked })} />
          {t("terms.essential")}
        </label>
        <FormError error={create.error} fields={["topic", "documentUrl"]} />
        <button type="submit" className="primary">
          {t("common.create")}
        </button>
      </form>
    </section>
  );
}
