import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { hasMessage, useI18n } from "../../i18n";
import { Field, FormError, fieldError, formatDate, Loading, Select } from "../../ui/ui";
import { tenantKeys, tenantQuery, updateTenant } from "./queries";

/** getTenant / updateTenant: name, description, contact, session policy; plan, contract, logo and field limit are read-only. */
export default function TenantPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const tenant = useQuery(tenantQuery());
  const [form, setForm] = useState({
    name: "",
    description: "",
    contactInfo: "",
    defaultSessionType: "personal",
    publicAbsoluteTimeoutMinutes: "60",
    timeZone: "Asia/Seoul",
  });
  useEffect(() => {
    if (tenant.data)
      setForm({
        name: tenant.data.name,
        description: tenant.data.description ?? "",
        contactInfo: tenant.data.contactInfo ?? "",
        defaultSessionType: tenant.data.sessionPolicy.defaultSessionType,
        publicAbsoluteTimeoutMinutes: String(tenant.data.sessionPolicy.publicAbsoluteTimeoutMinutes),
        timeZone: tenant.data.timeZone,
      });
  }, [tenant.data]);
  const save = useMutation({
    mutationFn: () =>
      updateTenant({
        body: {
          name: form.name,
          description: form.description || null,
          contactInfo: form.contactInfo || null,
          timeZone: form.timeZone,
          sessionPolicy: {
            defaultSessionType: form.defaultSessionType as "personal" | "public",
            publicAbsoluteTimeoutMinutes: Number(form.publicAbsoluteTimeoutMinutes),
          },
        },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: tenantKeys.tenant }),
  });
  if (!tenant.data) return <Loading />;
  const d = tenant.data;
  return (
    <section>
      <h1>{t("tenant.title")}</h1>
      <dl className="facts">
        <dt>{t("tenant.key")}</dt>
        <dd>
          <code>{d.key}</code>
        </dd>
        <dt>{t("tenant.plan")}</dt>
        <dd>{hasMessage(lang, `tenant.plans.${d.currentPlan}`) ? t(`tenant.plans.${d.currentPlan}`) : d.currentPlan}</dd>
        <dt>{t("tenant.contract")}</dt>
        <dd>
          {formatDate(d.currentContractPeriod.startedAt, lang)} – {formatDate(d.currentContractPeriod.expiredAt, lang)}
        </dd>
        <dt>{t("tenant.loginIdentifier")}</dt>
        <dd>
          {hasMessage(lang, `tenant.loginIdentifiers.${d.loginIdentifier}`)
            ? t(`tenant.loginIdentifiers.${d.loginIdentifier}`)
            : d.loginIdentifier}
        </dd>
        <dt>{t("tenant.customFieldMax")}</dt>
        <dd>{d.customFieldMaxCount}</dd>
        <dt>{t("tenant.logo")}</dt>
        <dd>{d.logoImageUrl ? <img className="logo" src={d.logoImageUrl} alt={t("tenant.logo")} /> : t("tenant.noLogo")}</dd>
      </dl>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Field
          label={t("tenant.name")}
          required
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={fieldError(save.error, "name", t)}
        />
        <div className="field">
          <label htmlFor="tenant-description">{t("tenant.description")}</label>
          <textarea
            id="tenant-description"
            rows={4}
            maxLength={5000}
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
            aria-invalid={fieldError(save.error, "description", t) ? true : undefined}
          />
          {fieldError(save.error, "description", t) && <small className="error">{fieldError(save.error, "description", t)}</small>}
        </div>
        <Field
          label={t("tenant.contactInfo")}
          value={form.contactInfo}
          onChange={(e) => setForm({ ...form, contactInfo: e.target.value })}
          error={fieldError(save.error, "contactInfo", t)}
        />
        <Select
          label={t("tenant.defaultSessionType")}
          value={form.defaultSessionType}
          onChange={(v) => setForm({ ...form, defaultSessionType: v })}
          options={[
            { value: "personal", label: t("tenant.personal") },
            { value: "public", label: t("tenant.public") },
          ]}
        />
        <Field
          label={t("tenant.publicTimeout")}
          type="number"
          min={5}
          max={43200}
          value={form.publicAbsoluteTimeoutMinutes}
          onChange={(e) => setForm({ ...form, publicAbsoluteTimeoutMinutes: e.target.value })}
          error={fieldError(save.error, "sessionPolicy.publicAbsoluteTimeoutMinutes", t)}
        />
        <Field
          label={t("tenant.timeZone")}
          value={form.timeZone}
          list="tenant-time-zones"
          onChange={(e) => setForm({ ...form, timeZone: e.target.value })}
          error={fieldError(save.error, "timeZone", t)}
        />
        <datalist id="tenant-time-zones">
          {Intl.supportedValuesOf("timeZone").map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <FormError error={save.error} fields={["name", "description", "contactInfo", "sessionPolicy", "timeZone"]} />
        {save.isSuccess && <p role="status">{t("common.saved")}</p>}
        <button type="submit" className="primary">
          {t("common.save")}
        </button>
      </form>
    </section>
  );
}
