import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { type Partner, PartnerProviders, partnersBody, partnersOf } from "./PartnerProviders";
import { ssoKeys, ssoSettingsQuery, updateSsoSettings } from "./queries";

type Mapping = { fieldId: string; samlAttribute: string; uid: number };
let uids = 0;

/**
 * SAML: the SP values to give the IdP (metadata URL to copy), the IdP's URL and certificate, attribute mappings;
 * beside it the partner providers (OpenID Connect) and which providers the sign-in page offers now.
 */
export default function SsoPage() {
  const { t, lang } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const sso = useQuery(ssoSettingsQuery());
  const [form, setForm] = useState({ enabled: false, idpSsoUrl: "", idpEntityUrl: "", x509Cert: "", sasoOnly: false, provision: false });
  const [mappings, setMappings] = useState<Mapping[]>([]);
  const [partners, setPartners] = useState<Partner[]>([]);
  useEffect(() => {
    if (!sso.data) return;
    const d = sso.data;
    setForm({
      enabled: d.enabled,
      idpSsoUrl: d.idpSsoUrl ?? "",
      idpEntityUrl: d.idpEntityUrl ?? "",
      x509Cert: d.x509Cert ?? "",
      sasoOnly: d.allowedLoginMethods === "SSO_ONLY",
      provision: d.provisionMembers,
    });
    setMappings(d.attributeMappings.map((m) => ({ ...m, uid: ++uids })));
    setPartners(partnersOf(d));
  }, [sso.data]);
  const save = useMutation({
    mutationFn: () =>
      updateSsoSettings({
        body: {
          enabled: form.enabled,
          idpSsoUrl: form.idpSsoUrl || null,
          idpEntityUrl: form.idpEntityUrl || null,
          x509Cert: form.x509Cert || null,
          allowedLoginMethods: form.sasoOnly ? "SSO_ONLY" : "ALL",
          provisionMembers: form.provision,
          attributeMappings: mappings
            .filter((m) => m.fieldId && m.samlAttribute)
            .map(({ fieldId, samlAttribute }) => ({ fieldId, samlAttribute })),
          partnerProviders: partnersBody(partners),
        },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ssoKeys.settings }),
  });
  if (!sso.data) return <Loading />;
  const metadataUrl = `${window.location.origin}/api/v1/public/tenants/${encodeURIComponent(user.tenantKey ?? "")}/saml/metadata`;
  const labels = sso.data.mappingLabels;
  return (
    <section>
      <h1>{t("sso.title")}</h1>
      <h2>{t("sso.forIdp")}</h2>
      <dl className="facts">
        <dt>{t("sso.metadataUrl")}</dt>
        <dd>
          <code>{metadataUrl}</code>{" "}
          <button type="button" className="small" onClick={() => void navigator.clipboard?.writeText(metadataUrl)}>
            {t("common.copy")}
          </button>
        </dd>
        <dt>{t("sso.entityId")}</dt>
        <dd>
          <code>{sso.data.spEntityId}</code>
        </dd>
        <dt>{t("sso.acsUrl")}</dt>
        <dd>
          <code>{sso.data.spAcsUrl}</code>
        </dd>
      </dl>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <h2>{t("sso.idp")}</h2>
        <label className="check">
          <input type="checkbox" checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />
          {t("sso.enabled")}
        </label>
        <Field
          label={t("sso.idpSsoUrl")}
          type="url"
          value={form.idpSsoUrl}
          onChange={(e) => setForm({ ...form, idpSsoUrl: e.target.value })}
          error={fieldError(save.error, "idpSsoUrl", t)}
        />
        <Field
          label={t("sso.idpEntityUrl")}
          value={form.idpEntityUrl}
          onChange={(e) => setForm({ ...form, idpEntityUrl: e.target.value })}
          error={fieldError(save.error, "idpEntityUrl", t)}
        />
        <div className="field">
          <label htmlFor="sso-cert">{t("sso.certificate")}</label>
          <textarea id="sso-cert" rows={5} value={form.x509Cert} onChange={(e) => setForm({ ...form, x509Cert: e.target.value })} />
          <label className="file">
            {t("sso.certificateFile")}
            <input
              type="file"
              accept=".pem,.crt,.cer,text/plain"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) setForm({ ...form, x509Cert: (await file.text()).trim() });
              }}
            />
          </label>
          {fieldError(save.error, "x509Cert", t) && <small className="error">{fieldError(save.error, "x509Cert", t)}</small>}
        </div>
        <label className="check">
          <input type="checkbox" checked={form.sasoOnly} onChange={(e) => setForm({ ...form, sasoOnly: e.target.checked })} />
          {t("sso.ssoOnly")}
        </label>
        <label className="check">
          <input type="checkbox" checked={form.provision} onChange={(e) => setForm({ ...form, provision: e.target.checked })} />
          {t("sso.provision")}
        </label>
        <h2>{t("sso.mappings")}</h2>
        <table>
          <thead>
            <tr>
              <th>{t("sso.field")}</th>
              <th>{t("sso.attribute")}</th>
              <th>
                <span className="sr-only">{t("common.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {mappings.map((m, i) => (
              <tr key={m.uid}>
                <td>
                  <select
                    aria-label={t("sso.field")}
                    value={m.fieldId}
                    onChange={(e) => setMappings(mappings.map((x, j) => (j === i ? { ...x, fieldId: e.target.value } : x)))}
                  >
                    <option value="">—</option>
                    {Object.entries(labels).map(([id, label]) => (
                      <option key={id} value={id}>
                        {label}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input
                    aria-label={t("sso.attribute")}
                    value={m.samlAttribute}
                    onChange={(e) => setMappings(mappings.map((x, j) => (j === i ? { ...x, samlAttribute: e.target.value } : x)))}
                  />
                </td>
                <td>
                  <button type="button" className="small" onClick={() => setMappings(mappings.filter((_, j) => j !== i))}>
                    {t("common.remove")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={() => setMappings([...mappings, { fieldId: "", samlAttribute: "", uid: ++uids }])}>
          {t("sso.addMapping")}
        </button>
        <PartnerProviders list={partners} onChange={setPartners} error={save.error} origin={new URL(sso.data.spAcsUrl).origin} />
        <FormError error={save.error} fields={["idpSsoUrl", "idpEntityUrl", "x509Cert", "attributeMappings", "partnerProviders"]} />
        {save.isSuccess && <p role="status">{t("common.saved")}</p>}
        <div className="actions">
          <button type="submit" className="primary">
            {t("common.save")}
          </button>
        </div>
      </form>
      <h2>{t("sso.offered")}</h2>
      <table>
        <thead>
          <tr>
            <th>{t("sso.providerKey")}</th>
            <th>{t("sso.providerLabel")}</th>
            <th>{t("sso.providerEnabled")}</th>
            <th>{t("sso.providerAvailable")}</th>
          </tr>
        </thead>
        <tbody>
          {sso.data.providers.map((p) => (
            <tr key={p.key}>
              <td>
                <code>{p.key}</code>
              </td>
              <td>{lang === "ko" ? p.labelKo : p.labelEn}</td>
              <td>{p.enabled ? t("common.yes") : t("common.no")}</td>
              <td>{p.available ? t("common.yes") : t("common.no")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{t("sso.offeredHint")}</p>
    </section>
  );
}
