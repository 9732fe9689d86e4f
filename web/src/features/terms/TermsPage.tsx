import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { useSearch } from "../../ui/router";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { createTerm, termKeys, termsQuery, updateTerm } from "./queries";
import { type Term, TermDialog } from "./TermDialog";
import { EMPTY_TERM, TERM_FIELDS, TermFields, termBody } from "./TermFields";

/** The yes/no columns a school edits in place, with their header keys. */
const FLAGS = [
  ["isEssential", "essential"],
  ["isVisible", "visible"],
  ["isActive", "active"],
] as const;

/**
 * The terms members consent to (the platform's and the school's own, each topic versioned) with the effective
 * consents to each current version; the school's own are edited, versioned and switched in a dialog (?open=TOPIC).
 */
export default function TermsPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const { get, set } = useSearch();
  const terms = useQuery(termsQuery());
  const [topic, setTopic] = useState("");
  const [form, setForm] = useState(EMPTY_TERM);
  const create = useMutation({
    mutationFn: () => createTerm({ body: { topic, ...termBody(form) } }),
    onSuccess: (data) => {
      qc.setQueryData(termKeys.all, data);
      setTopic("");
      setForm(EMPTY_TERM);
    },
  });
  const update = useMutation({
    mutationFn: (v: { topic: string; body: { isActive?: boolean; isVisible?: boolean; isEssential?: boolean } }) =>
      updateTerm({ params: { path: { topic: v.topic } }, body: v.body }),
    onSuccess: (data) => qc.setQueryData(termKeys.all, data),
  });
  if (!terms.data) return <Loading />;
  const own = terms.data.terms.filter((x) => x.scope === "tenant");
  const open = own.find((x) => x.topic === get("open"));
  return (
    <section>
      <h1>{t("terms.title")}</h1>
      <p className="muted">{t("terms.consentsHint")}</p>
      <DataTable
        label={t("terms.title")}
        empty={null}
        rows={terms.data.terms}
        rowKey={(x) => `${x.scope}-${x.topic}`}
        columns={[
          {
            key: "topic",
            header: t("terms.topic"),
            cell: (x) => (
              <>
                <code>{x.topic}</code> {x.scope === "platform" && <small className="muted">{t("terms.platform")}</small>}
              </>
            ),
          },
          { key: "title", header: t("terms.termTitle"), cell: (x) => x.title[lang] || x.title.ko || x.title.en },
          { key: "version", header: t("terms.version"), cell: (x) => x.version },
          ...FLAGS.map(([k, label]) => ({
            key: k,
            header: t(`terms.${label}`),
            cell: (x: Term) => (
              <input
                type="checkbox"
                aria-label={`${x.topic}: ${t(`terms.${label}`)}`}
                disabled={x.scope !== "tenant"}
                checked={x[k]}
                onChange={(e) => update.mutate({ topic: x.topic, body: { [k]: e.target.checked } })}
              />
            ),
          })),
          { key: "consents", header: t("terms.consents"), cell: (x) => x.consentCount },
          {
            key: "ttl",
            header: t("terms.ttlShort"),
            cell: (x) => (x.consentTtlDays === null ? "—" : t("terms.days", { count: x.consentTtlDays })),
          },
          {
            key: "document",
            header: t("terms.document"),
            cell: (x) => (
              <>
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
              </>
            ),
          },
          {
            key: "actions",
            header: t("common.actions"),
            hideHeader: true,
            cell: (x) =>
              x.scope === "tenant" && (
                <button type="button" className="small" onClick={() => set({ open: x.topic })}>
                  {t("terms.edit", { topic: x.topic })}
                </button>
              ),
          },
        ]}
      />
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
