import { useId } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { Field, fieldError } from "../../ui/ui";

type Settings = paths["/api/v1/sso-settings"]["get"]["responses"]["200"]["content"]["application/json"];
type Body = NonNullable<
  NonNullable<paths["/api/v1/sso-settings"]["patch"]["requestBody"]>["content"]["application/json"]["partnerProviders"]
>;

/** One partner provider as the form holds it; the client secret is write-only, so `secret` is only what was typed now. */
export type Partner = {
  uid: number;
  key: string;
  labelKo: string;
  labelEn: string;
  partnerKey: string;
  enabled: boolean;
  useOidc: boolean;
  issuer: string;
  clientId: string;
  secret: string;
  scopes: string;
  secretSet: boolean;
  storedKey: string | null;
};
let uids = 0;

export const partnersOf = (s: Settings): Partner[] =>
  s.partnerProviders.map((p) => ({
    uid: ++uids,
    key: p.key,
    labelKo: p.labelKo,
    labelEn: p.labelEn,
    partnerKey: p.partnerKey,
    enabled: p.enabled,
    useOidc: p.oidc !== null,
    issuer: p.oidc?.issuer ?? "",
    clientId: p.oidc?.clientId ?? "",
    secret: "",
    scopes: p.oidc?.scopes ?? "openid email profile",
    secretSet: p.oidc?.clientSecretSet ?? false,
    storedKey: p.key,
  }));

/** updateSsoSettings' partnerProviders: an untyped secret is left out, so the stored one of the same key is kept. */
export const partnersBody = (list: Partner[]): Body =>
  list.map((p) => ({
    key: p.key,
    labelKo: p.labelKo,
    labelEn: p.labelEn,
    ...(p.partnerKey ? { partnerKey: p.partnerKey } : {}),
    enabled: p.enabled,
    oidc: p.useOidc
      ? { issuer: p.issuer, clientId: p.clientId, scopes: p.scopes || undefined, ...(p.secret ? { clientSecret: p.secret } : {}) }
      : null,
  }));

const blank = (): Partner => ({
  uid: ++uids,
  key: "",
  labelKo: "",
  labelEn: "",
  partnerKey: "",
  enabled: true,
  useOidc: true,
  issuer: "",
  clientId: "",
  secret: "",
  scopes: "openid email profile",
  secretSet: false,
  storedKey: null,
});

/** The partner providers (OpenID Connect) beside the SAML IdP: each with its redirect URI to register at the provider. */
export function PartnerProviders({
  list,
  onChange,
  error,
  origin,
}: {
  list: Partner[];
  onChange: (l: Partner[]) => void;
  error: unknown;
  origin: string;
}) {
  const { t } = useI18n();
  const edit = (i: number, patch: Partial<Partner>) => onChange(list.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <>
      <h2>{t("sso.partners")}</h2>
      <p className="muted">{t("sso.partnersHint")}</p>
      {list.map((p, i) => (
        <PartnerFieldset
          key={p.uid}
          p={p}
          n={i + 1}
          at={`partnerProviders[${i}]`}
          edit={(patch) => edit(i, patch)}
          remove={() => onChange(list.filter((_, j) => j !== i))}
          error={error}
          origin={origin}
          t={t}
        />
      ))}
      <button type="button" onClick={() => onChange([...list, blank()])} disabled={list.length >= 10}>
        {t("sso.addPartner")}
      </button>
    </>
  );
}

function PartnerFieldset(props: {
  p: Partner;
  n: number;
  at: string;
  edit: (patch: Partial<Partner>) => void;
  remove: () => void;
  error: unknown;
  origin: string;
  t: (k: string, v?: Record<string, string | number>) => string;
}) {
  const { p, at, edit, error, t } = props;
  const legend = useId();
  const err = (f: string) => fieldError(error, `${at}.${f}`, t);
  // The server keeps a stored secret only for the same key.
  const kept = p.secretSet && p.key === p.storedKey;
  const redirect = `${props.origin}/api/v1/auth/external/${encodeURIComponent(p.key || "…")}/callback`;
  return (
    <fieldset className="partner" aria-labelledby={legend}>
      <legend id={legend}>{t("sso.partnerN", { n: props.n, key: p.key || "—" })}</legend>
      <Field
        label={t("sso.partnerKey")}
        hint={t("sso.partnerKeyHint")}
        required
        maxLength={50}
        value={p.key}
        onChange={(e) => edit({ key: e.target.value })}
        error={err("key")}
      />
      <Field
        label={t("sso.labelKo")}
        maxLength={255}
        value={p.labelKo}
        onChange={(e) => edit({ labelKo: e.target.value })}
        error={err("labelKo")}
      />
      <Field
        label={t("sso.labelEn")}
        maxLength={255}
        value={p.labelEn}
        onChange={(e) => edit({ labelEn: e.target.value })}
        error={err("labelEn")}
      />
      <Field
        label={t("sso.partnerCode")}
        hint={t("sso.partnerCodeHint")}
        maxLength={255}
        value={p.partnerKey}
        onChange={(e) => edit({ partnerKey: e.target.value })}
        error={err("partnerKey")}
      />
      <label className="check">
        <input type="checkbox" checked={p.enabled} onChange={(e) => edit({ enabled: e.target.checked })} />
        {t("sso.partnerEnabled")}
      </label>
      <label className="check">
        <input type="checkbox" checked={p.useOidc} onChange={(e) => edit({ useOidc: e.target.checked })} />
        {t("sso.useOidc")}
      </label>
      {p.useOidc && (
        <>
          <p className="muted">
            {t("sso.redirectUri")} <code>{redirect}</code>
          </p>
          <Field
            label={t("sso.issuer")}
            hint={t("sso.issuerHint")}
            type="url"
            required
            value={p.issuer}
            onChange={(e) => edit({ issuer: e.target.value })}
            error={err("oidc.issuer")}
          />
          <Field
            label={t("sso.clientId")}
            required
            maxLength={255}
            value={p.clientId}
            onChange={(e) => edit({ clientId: e.target.value })}
            error={err("oidc.clientId")}
          />
          <Field
            label={t("sso.clientSecret")}
            hint={kept ? t("sso.secretKept") : t("sso.secretNeeded")}
            type="password"
            autoComplete="new-password"
            required={!kept}
            maxLength={1000}
            value={p.secret}
            onChange={(e) => edit({ secret: e.target.value })}
            error={err("oidc.clientSecret")}
          />
          <Field label={t("sso.scopes")} value={p.scopes} onChange={(e) => edit({ scopes: e.target.value })} error={err("oidc.scopes")} />
          {kept && (
            <p className="muted" data-testid="secret-set">
              {t("sso.secretSet")}
            </p>
          )}
        </>
      )}
      <button type="button" className="small danger" onClick={props.remove}>
        {t("sso.removePartner", { key: p.key || String(props.n) })}
      </button>
    </fieldset>
  );
}
