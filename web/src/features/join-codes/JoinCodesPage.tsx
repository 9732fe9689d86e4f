import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { ListResult } from "../../ui/ListControls";
import { Field, FormError, fieldError, formatDate } from "../../ui/ui";
import { createTenantJoinCode, joinCodeKeys, joinCodesQuery, updateTenantJoinCode } from "./queries";

/** Tenant join codes with their join link; create, enable and disable. */
export default function JoinCodesPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const codes = useQuery(joinCodesQuery());
  const [days, setDays] = useState("");
  const refresh = () => void qc.invalidateQueries({ queryKey: joinCodeKeys.all });
  const create = useMutation({
    mutationFn: () => createTenantJoinCode({ body: days ? { expiresInDays: Number(days) } : {} }),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: (v: { id: string; enabled: boolean }) =>
      updateTenantJoinCode({ params: { path: { joinCodeId: v.id } }, body: { enabled: v.enabled } }),
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
      <ListResult query={codes}>
        {(data) => (
          <DataTable
            label={t("joinCodes.title")}
            rows={data.joinCodes}
            rowKey={(c) => c.id}
            columns={[
              { key: "code", header: t("joinCodes.code"), cell: (c) => <code>{c.code}</code> },
              {
                key: "link",
                header: t("joinCodes.link"),
                cell: (c) => (
                  <>
                    <a href={c.link}>{c.link}</a>{" "}
                    <button type="button" className="small" onClick={() => void navigator.clipboard?.writeText(c.link)}>
                      {t("common.copy")}
                    </button>
                  </>
                ),
              },
              {
                key: "expires",
                header: t("joinCodes.expiresAt"),
                cell: (c) => (c.expiresAt ? formatDate(c.expiresAt, lang) : t("joinCodes.never")),
              },
              {
                key: "enabled",
                header: t("joinCodes.enabled"),
                cell: (c) => (
                  <label className="check">
                    <input type="checkbox" checked={c.enabled} onChange={(e) => toggle.mutate({ id: c.id, enabled: e.target.checked })} />
                    <span className="sr-only">{t("joinCodes.enabled")}</span>
                    {c.enabled ? t("common.yes") : t("common.no")}
                  </label>
                ),
              },
            ]}
          />
        )}
      </ListResult>
    </section>
  );
}
