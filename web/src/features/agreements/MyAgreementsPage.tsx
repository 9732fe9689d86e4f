import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { FormError, formatDate, Loading } from "../../ui/ui";
import {
  type AgreementRecord,
  agreementKeys,
  consentAgreements,
  consentBody,
  displayedTermsQuery,
  myAgreementsQuery,
  termName,
  usePending,
  withdrawAgreement,
} from "./queries";
import { keyOf, TermChoices } from "./TermChoices";

/** A member's own agreements: what waits for consent (optional terms included), what they agreed to, and withdrawing an optional one. */
export default function MyAgreementsPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const user = useUser();
  const pending = usePending();
  const mine = useQuery(myAgreementsQuery());
  // Records carry no titles: the school's displayed terms name them.
  const shown = useQuery(displayedTermsQuery(user.tenantKey));
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const refresh = () => void qc.invalidateQueries({ queryKey: agreementKeys.all });
  const consent = useMutation({
    mutationFn: () => consentAgreements({ body: consentBody((pending.data?.items ?? []).filter((a) => chosen.has(keyOf(a)))) }),
    onSuccess: () => {
      setChosen(new Set());
      refresh();
    },
  });
  const withdraw = useMutation({
    mutationFn: (r: AgreementRecord) => withdrawAgreement({ body: { scope: r.scope, topic: r.topic } }),
    onSuccess: refresh,
  });
  if (!pending.data || !mine.data) return <Loading />;
  const terms = [...(shown.data?.platformAgreements ?? []), ...(shown.data?.tenantAgreements ?? [])];
  const nameOf = (r: AgreementRecord) => {
    const term = terms.find((x) => x.scope === r.scope && x.topic === r.topic);
    return term ? termName(term, lang) : r.topic;
  };
  const records = [...mine.data.platformAgreements, ...mine.data.tenantAgreements];
  return (
    <section className="stack">
      <h1>{t("agreements.title")}</h1>
      <h2>{t("agreements.pending")}</h2>
      {pending.data.items.length === 0 ? (
        <p className="muted">{t("agreements.noPending")}</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen.size > 0) consent.mutate();
          }}
        >
          <TermChoices items={pending.data.items} chosen={chosen} onChange={setChosen} />
          <FormError error={consent.error} fields={[]} />
          <button type="submit" className="primary" disabled={chosen.size === 0 || consent.isPending}>
            {t("agreements.agreeSelected")}
          </button>
        </form>
      )}
      <h2>{t("agreements.records")}</h2>
      {records.length === 0 ? (
        <p className="muted">{t("agreements.noRecords")}</p>
      ) : (
        <DataTable
          label={t("agreements.title")}
          rows={records}
          rowKey={(r) => `${r.scope}-${r.topic}-${r.version}-${r.agreedAt}`}
          columns={[
            {
              key: "term",
              header: t("agreements.term"),
              cell: (r) => (
                <>
                  {nameOf(r)} <small className="muted">{t("agreements.version", { n: r.version })}</small>{" "}
                  <span className="badge">{r.isEssential ? t("agreements.required") : t("agreements.optional")}</span>
                </>
              ),
            },
            { key: "agreedAt", header: t("agreements.agreedAt"), cell: (r) => formatDate(r.agreedAt, lang) },
            { key: "expiresAt", header: t("agreements.expiresAt"), cell: (r) => formatDate(r.expiresAt, lang) },
            {
              key: "state",
              header: t("agreements.state"),
              cell: (r) =>
                r.isEffective
                  ? t("agreements.effective")
                  : r.withdrawnAt
                    ? `${t("agreements.withdrawnAt")} ${formatDate(r.withdrawnAt, lang)}`
                    : t("agreements.notEffective"),
            },
            {
              key: "actions",
              header: t("common.actions"),
              cell: (r) =>
                r.isEffective &&
                !r.isEssential && (
                  <button
                    type="button"
                    className="small danger"
                    aria-label={t("agreements.withdrawName", { name: nameOf(r) })}
                    onClick={() => {
                      if (window.confirm(t("agreements.withdrawConfirm", { name: nameOf(r) }))) withdraw.mutate(r);
                    }}
                  >
                    {t("agreements.withdraw")}
                  </button>
                ),
            },
          ]}
        />
      )}
      <FormError error={withdraw.error} fields={[]} />
    </section>
  );
}
