import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { TermDialog } from "./TermDialog";
import { EMPTY_TERM, TERM_FIELDS, TermFields, termBody } from "./TermFields";

/**
 * The terms members consent to (the platform's and the school's own, each topic versioned) with the effective
 * consents to each current version; the school's own are edited, versioned and switched in a dialog (?open=TOPIC).
 */
export default function TermsPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const { get, set } = useSearch();
  const terms = useQuery({ queryKey: ["terms"], queryFn: () => ok(api.GET("/api/v1/terms")) });
  const [topic, setTopic] = useState("");
  const [form, setForm] = useState(EMPTY_TERM);
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/terms", { body: { topic, ...termBody(form) } })),
    onSuccess: (data) => {
      qc.setQueryData(["terms"], data);
      setTopic("");
      setForm(EMPTY_TERM);
    },
  });
  const update = useMutation({
    mutationFn: (v: { topic: string; body: { isActive?: boolean; isVisible?: boolean; isEssential?: boolean } }) =>
      ok(api.PATCH("/api/v1/terms/{topic}", { params: { path: { topic: v.topic } }, body: v.body })),
    onSuccess: (data) => qc.setQueryData(["terms"], data),
  });
  if (!terms.data) return <Loading />;
  const own = terms.data.terms.filter((x) => x.scope === "tenant");
  const open = own.find((x) => x.topic === get("open"));
  return (
    <section>
      <h1>{t("terms.title")}</h1>
      <p className="muted">{t("terms.consentsHint")}</p>
      <table>
        <thead>
          <tr>
            <th>{t("terms.topic")}</th>
            <th>{t("terms.termTitle")}</th>
            <th>{t("terms.version")}</th>
            <th>{t("terms.essential")}</th>
            <th>{t("terms.visible")}</th>
            <th>{t("terms.active")}</th>
            <th>{t("terms.consents")}</th>
            <th>{t("terms.ttlShort")}</th>
            <th>{t("terms.document")}</th>
            <th>
              <span className="sr-only">{t("common.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {terms.data.terms.map((x) => (
            <tr key={`${x.scope}-${x.topic}`}>
              <td>
                <code>{x.topic}</code> {x.scope === "platform" && <small className="muted">{t("terms.platform")}</small>}
              </td>
              <td>{x.title[lang] || x.title.ko || x.title.en}</td>
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
              <td>{x.consentTtlDays === null ? "—" : t("terms.days", { count: x.consentTtlDays })}</td>
              <td>
                {x.documentUrl.ko && (
                  <a href={x.documentUrl.ko} lang="ko">
                    한국어
                  </a>
                )}{" "}
                {x.documentUrl.en && (
                  <a href={x.documentUrl.en} lang="en">
                    English
                  </a>
                )}
              </td>
              <td>
                {x.scope === "tenant" && (
                  <button type="button" className="small" onClick={() => set({ open: x.topic })}>
                    {t("terms.edit", { topic: x.topic })}
                  </button>
                )}
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
          maxLength={50}
          value={topic}
          onChange={(e) => setTopic(e.target.value)}
          error={fieldError(create.error, "topic", t)}
        />
        <TermFields form={form} onChange={setForm} error={create.error} />
        <FormError error={create.error} fields={["topic", ...TERM_FIELDS]} />
        <button type="submit" className="primary">
          {t("common.create")}
        </button>
      </form>
      {open && <TermDialog term={open} onClose={() => set({ open: null })} />}
    </section>
  );
}
