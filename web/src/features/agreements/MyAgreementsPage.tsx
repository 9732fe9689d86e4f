import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { FormError, formatDate, Loading } from "../../ui/ui";
import { type AgreementRecord, consentBody, termName, usePending } from "./queries";
import { keyOf, TermChoices } from "./TermChoices";

/** A member's own agreements: what waits for consent (optional terms included), what they agreed to, and withdrawing an optional one. */
export default function MyAgreementsPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const user = useUser();
  const pending = usePending();
  const mine = useQuery({ queryKey: ["agreements", "mine"], queryFn: () => ok(api.GET("/api/v1/me/agreements")) });
  // Records carry no titles: the school's displayed terms name them.
  const shown = useQuery({
    queryKey: ["agreements", "display", user.tenantKey],
    queryFn: () => ok(api.GET("/api/v1/public/agreements", { params: { query: { tenantKey: user.tenantKey ?? undefined } } })),
  });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const refresh = () => void qc.invalidateQueries({ queryKey: ["agreements"] });
  const consent = useMutation({
    mutationFn: () =>
      ok(api.POST("/api/v1/me/agreements", { body: consentBody((pending.data?.items ?? []).filter((a) => chosen.has(keyOf(a)))) })),
    onSuccess: () => {
      setChosen(new Set());
      refresh();
    },
  });
  const withdraw = useMutation({
    mutationFn: (r: AgreementRecord) => ok(api.POST("/api/v1/me/agreements/withdraw", { body: { scope: r.scope, topic: r.topic } })),
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
        <table>
          <thead>
            <tr>
              <th>{t("agreements.term")}</th>
              <th>{t("agreements.agreedAt")}</th>
              <th>{t("agreements.expiresAt")}</th>
              <th>{t("agreements.state")}</th>
              <th>{t("common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => (
              <tr key={`${r.scope}-${r.topic}-${r.version}-${r.agreedAt}`}>
                <td>
                  {nameOf(r)} <small className="muted">{t("agreements.version", { n: r.version })}</small>{" "}
                  <span className="badge">{r.isEssential ? t("agreements.required") : t("agreements.optional")}</span>
                </td>
                <td>{formatDate(r.agreedAt, lang)}</td>
                <td>{formatDate(r.expiresAt, lang)}</td>
                <td>
                  {r.isEffective
                    ? t("agreements.effective")
                    : r.withdrawnAt
                      ? `${t("agreements.withdrawnAt")} ${formatDate(r.withdrawnAt, lang)}`
                      : t("agreements.notEffective")}
                </td>
                <td>
                  {r.isEffective && !r.isEssential && (
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
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FormError error={withdraw.error} fields={[]} />
    </section>
  );
}
