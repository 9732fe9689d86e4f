import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, formatDate, Loading } from "../../shell/ui";

/** Tenant join codes with their join link; create, enable and disable. */
export default function JoinCodesPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const codes = useQuery({ queryKey: ["join-codes"], queryFn: () => ok(api.GET("/api/v1/join-codes")) });
  const [days, setDays] = useState("");
  const refresh = () => void qc.invalidateQueries({ queryKey: ["join-codes"] });
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/join-codes", { body: days ? { expiresInDays: Number(days) } : {} })),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: (v: { id: string; enabled: boolean }) =>
      ok(api.PATCH("/api/v1/join-codes/{joinCodeId}", { params: { path: { joinCodeId: v.id } }, body: { enabled: v.enabled } })),
    onSuccess: refresh,
  });
  return (
    <section>
      <h1>{t("joinCodes.title")}</h1>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label={t("joinCodes.expiresInDays")}
          type="number"
          min={1}
          max={3650}
          value={days}
          onChange={(e) => setDays(e.target.value)}
          error={fieldError(create.error, "expiresInDays", t)}
        />
        <button type="submit" className="primary">
          {t("joinCodes.create")}
        </button>
      </form>
      <FormError error={create.error ?? toggle.error} fields={["expiresInDays"]} />
      {!codes.data ? (
        <Loading />
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t("joinCodes.code")}</th>
              <th>{t("joinCodes.link")}</th>
              <th>{t("joinCodes.expiresAt")}</th>
              <th>{t("joinCodes.enabled")}</th>
            </tr>
          </thead>
          <tbody>
            {codes.data.joinCodes.map((c) => (
              <tr key={c.id}>
                <td>
                  <code>{c.code}</code>
                </td>
                <td>
                  <a href={c.link}>{c.link}</a>{" "}
                  <button type="button" className="small" onClick={() => void navigator.clipboard?.writeText(c.link)}>
                    {t("common.copy")}
                  </button>
                </td>
                <td>{c.expiresAt ? formatDate(c.expiresAt, lang) : t("joinCodes.never")}</td>
                <td>
                  <label className="check">
                    <input type="checkbox" checked={c.enabled} onChange={(e) => toggle.mutate({ id: c.id, enabled: e.target.checked })} />
                    <span className="sr-only">{t("joinCodes.enabled")}</span>
                    {c.enabled ? t("common.yes") : t("common.no")}
                  </label>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {codes.data?.joinCodes.length === 0 && <p>{t("common.empty")}</p>}
    </section>
  );
}
