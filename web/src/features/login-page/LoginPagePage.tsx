import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useUser } from "../../app/session";
import { type Lang, useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { ssoSettingsQuery } from "../sso/queries";
import { tenantKeys } from "../tenant/queries";
import { ImageInput, uploadedImageUrl } from "./ImageInput";
import { LinksEditor } from "./LinksEditor";
import { type Draft, Preview, type ProviderButton } from "./Preview";
import { loginDraftQuery, loginLiveQuery, loginPageKeys, publicLoginPageQuery, publishLoginPageDraft, saveLoginPageDraft } from "./queries";

const METHODS = ["email", "social_a", "social_b", "partner"] as const;
const LABELS = ["email", "sso", "social_a", "social_b", "partner"] as const;
/** Every top-level field of the settings: a problem on any of them lands on its input. */
const FIELDS = [
  "logoImageUrl",
  "logoImageFileId",
  "titleKo",
  "titleEn",
  "backgroundImageUrl",
  "backgroundImageFileId",
  "backgroundTitleEnabled",
  "backgroundTitleKo",
  "backgroundTitleEn",
  "backgroundTitleColor",
  "methods",
  "buttonLabels",
  "externalLinksEnabled",
  "externalLinks",
  "externalFeed",
  "allowUserSelfSignUp",
];

/** The draft as saveLoginPageDraft takes it: every field, an empty image URL as none. */
const draftBody = (d: Draft) => ({ ...d, logoImageUrl: d.logoImageUrl || null, backgroundImageUrl: d.backgroundImageUrl || null });

/** The hosted sign-in page: edit a draft (every field of the settings) with a live preview beside it, then publish. */
export default function LoginPagePage() {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const tenantKey = user.tenantKey ?? "";
  const saved = useQuery(loginDraftQuery());
  const live = useQuery(loginLiveQuery());
  const page = useQuery(publicLoginPageQuery(tenantKey));
  const sso = useQuery(ssoSettingsQuery());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [previewLang, setPreviewLang] = useState<Lang>("ko");
  useEffect(() => {
    if (saved.data) setDraft(saved.data.draft);
  }, [saved.data]);
  const save = useMutation({
    mutationFn: (d: Draft) => saveLoginPageDraft({ body: draftBody(d) }),
    onSuccess: (data) => qc.setQueryData(loginPageKeys.draft, data),
  });
  const publish = useMutation({
    mutationFn: async (d: Draft) => {
      await save.mutateAsync(d);
      return publishLoginPageDraft();
    },
    onSuccess: () => {
      for (const queryKey of [loginPageKeys.draft, loginPageKeys.live, loginPageKeys.public, tenantKeys.tenant])
        void qc.invalidateQueries({ queryKey });
    },
  });
  if (!draft) return <Loading />;
  const error = save.error ?? publish.error;
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const bind = (k: "titleKo" | "titleEn" | "backgroundTitleKo" | "backgroundTitleEn" | "backgroundTitleColor") => ({
    value: draft[k],
    maxLength: k === "backgroundTitleColor" ? 20 : 255,
    onChange: (e: { target: { value: string } }) => set({ [k]: e.target.value }),
    error: fieldError(error, k, t),
  });
  // An image as the preview shows it: this session's upload, else the live page's copy of the same file, else the URL.
  const image = (fileId: string | null, liveFileId: string | null | undefined, liveUrl: string | null | undefined, url: string | null) =>
    uploadedImageUrl(fileId) ?? (fileId && fileId === liveFileId ? (liveUrl ?? null) : null) ?? (url || null);
  const providers: ProviderButton[] = [];
  const saml = sso.data?.providers.find((p) => p.kind === "saml");
  if (saml?.available) providers.push({ key: "saml", labelKo: draft.buttonLabels.sso.ko, labelEn: draft.buttonLabels.sso.en });
  if (draft.methods.partner && sso.data?.allowedLoginMethods === "ALL")
    for (const p of sso.data.partnerProviders) if (p.enabled && p.oidc) providers.push(p);
  const loginUrl = `/t/${encodeURIComponent(tenantKey)}/login`;
  return (
    <section>
      <h1>{t("loginPage.title")}</h1>
      <p>
        {t("loginPage.published")} <a href={loginUrl}>{loginUrl}</a>
      </p>
      <div className="split">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            publish.reset();
            save.mutate(draft);
          }}
        >
          <h2>{t("loginPage.sectionTitle")}</h2>
          <Field label={t("loginPage.titleKo")} {...bind("titleKo")} />
          <Field label={t("loginPage.titleEn")} {...bind("titleEn")} />
          <ImageInput
            label={t("loginPage.logo")}
            fileId={draft.logoImageFileId}
            url={draft.logoImageUrl}
            onFile={(logoImageFileId) => set({ logoImageFileId })}
            onUrl={(logoImageUrl) => set({ logoImageUrl })}
            fileField="logoImageFileId"
            urlField="logoImageUrl"
            error={error}
          />
          <ImageInput
            label={t("loginPage.background")}
            fileId={draft.backgroundImageFileId}
            url={draft.backgroundImageUrl}
            onFile={(backgroundImageFileId) => set({ backgroundImageFileId })}
            onUrl={(backgroundImageUrl) => set({ backgroundImageUrl })}
            fileField="backgroundImageFileId"
            urlField="backgroundImageUrl"
            error={error}
          />
          <h2>{t("loginPage.sectionNotice")}</h2>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.backgroundTitleEnabled}
              onChange={(e) => set({ backgroundTitleEnabled: e.target.checked })}
            />
            {t("loginPage.noticeEnabled")}
          </label>
          <Field label={t("loginPage.noticeKo")} {...bind("backgroundTitleKo")} />
          <Field label={t("loginPage.noticeEn")} {...bind("backgroundTitleEn")} />
          <Field label={t("loginPage.noticeColor")} hint={t("loginPage.noticeColorHint")} {...bind("backgroundTitleColor")} />
          <h2>{t("loginPage.sectionMethods")}</h2>
          {METHODS.map((m) => (
            <label key={m} className="check">
              <input
                type="checkbox"
                checked={draft.methods[m]}
                onChange={(e) => set({ methods: { ...draft.methods, [m]: e.target.checked } })}
              />
              {t(`loginPage.methods.${m}`)}
            </label>
          ))}
          <p className="muted">{t("loginPage.methodsHint")}</p>
          <table className="label-table">
            <thead>
              <tr>
                <th>{t("loginPage.button")}</th>
                <th>{t("loginPage.labelKo")}</th>
                <th>{t("loginPage.labelEn")}</th>
              </tr>
            </thead>
            <tbody>
              {LABELS.map((k) => (
                <tr key={k}>
                  <th scope="row">{t(`loginPage.buttons.${k}`)}</th>
                  {(["ko", "en"] as const).map((l) => (
                    <td key={l}>
                      <input
                        aria-label={`${t(`loginPage.buttons.${k}`)} (${l === "ko" ? t("loginPage.labelKo") : t("loginPage.labelEn")})`}
                        maxLength={255}
                        value={draft.buttonLabels[k][l]}
                        aria-invalid={fieldError(error, `buttonLabels.${k}.${l}`, t) ? true : undefined}
                        onChange={(e) =>
                          set({ buttonLabels: { ...draft.buttonLabels, [k]: { ...draft.buttonLabels[k], [l]: e.target.value } } })
                        }
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {fieldError(error, "buttonLabels", t) && <small className="error">{fieldError(error, "buttonLabels", t)}</small>}
          <LinksEditor draft={draft} set={set} error={error} />
          <h2>{t("loginPage.sectionSignUp")}</h2>
          <label className="check">
            <input type="checkbox" checked={draft.allowUserSelfSignUp} onChange={(e) => set({ allowUserSelfSignUp: e.target.checked })} />
            {t("loginPage.selfSignUp")}
          </label>
          <p className="muted">{t("loginPage.selfSignUpHint")}</p>
          <FormError error={error} fields={FIELDS} />
          {save.isSuccess && !publish.isSuccess && <p role="status">{t("loginPage.draftSaved")}</p>}
          {publish.isSuccess && <p role="status">{t("loginPage.publishedNow")}</p>}
          <div className="actions">
            <button type="submit">{t("loginPage.saveDraft")}</button>
            <button type="button" className="primary" onClick={() => publish.mutate(draft)}>
              {t("loginPage.publish")}
            </button>
          </div>
        </form>
        <div className="preview-column">
          <fieldset className="inline" aria-label={t("loginPage.previewLanguage")}>
            <h2>{t("loginPage.preview")}</h2>
            <button type="button" className="small" aria-pressed={previewLang === "ko"} onClick={() => setPreviewLang("ko")}>
              한국어
            </button>
            <button type="button" className="small" aria-pressed={previewLang === "en"} onClick={() => setPreviewLang("en")}>
              English
            </button>
          </fieldset>
          <Preview
            draft={draft}
            lang={previewLang}
            schoolName={page.data?.name ?? ""}
            logoUrl={image(draft.logoImageFileId, live.data?.logoImageFileId, page.data?.logoImageUrl, draft.logoImageUrl)}
            backgroundUrl={image(
              draft.backgroundImageFileId,
              live.data?.backgroundImageFileId,
              page.data?.backgroundImageUrl,
              draft.backgroundImageUrl,
            )}
            providers={providers}
          />
        </div>
      </div>
    </section>
  );
}
