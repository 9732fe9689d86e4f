import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, ok } from "../../api/client";
import type { paths } from "../../api/schema";
import { type Lang, useI18n } from "../../i18n";
import { useUser } from "../../shell/session";
import { Field, FormError, fieldError, Loading } from "../../shell/ui";

type Draft = paths["/api/v1/login-page-settings/draft"]["get"]["responses"]["200"]["content"]["application/json"]["draft"];

/** The hosted sign-in page: edit a draft with a live preview beside it, then publish. */
export default function LoginPagePage() {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const saved = useQuery({ queryKey: ["login-draft"], queryFn: () => ok(api.GET("/api/v1/login-page-settings/draft")) });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [previewLang, setPreviewLang] = useState<Lang>("ko");
  useEffect(() => {
    if (saved.data) setDraft(saved.data.draft);
  }, [saved.data]);
  const save = useMutation({
    mutationFn: (d: Draft) => {
      const {
        logoImageUrl,
        titleKo,
        titleEn,
        backgroundTitleEnabled,
        backgroundTitleKo,
        backgroundTitleEn,
        backgroundTitleColor,
        methods,
      } = d;
      return ok(
        api.PUT("/api/v1/login-page-settings/draft", {
          body: {
            logoImageUrl: logoImageUrl || null,
            titleKo,
            titleEn,
            backgroundTitleEnabled,
            backgroundTitleKo,
            backgroundTitleEn,
            backgroundTitleColor,
            methods,
          },
        }),
      );
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["login-draft"] }),
  });
  const publish = useMutation({
    mutationFn: async (d: Draft) => {
      await save.mutateAsync(d);
      return ok(api.POST("/api/v1/login-page-settings/draft/publish"));
    },
  });
  if (!draft) return <Loading />;
  const bind = (k: "titleKo" | "titleEn" | "backgroundTitleKo" | "backgroundTitleEn" | "backgroundTitleColor" | "logoImageUrl") => ({
    value: draft[k] ?? "",
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }),
    error: fieldError(save.error, k, t),
  });
  const loginUrl = `/t/${encodeURIComponent(user.tenantKey ?? "")}/login`;
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
            save.mutate(draft);
          }}
        >
          <Field label={t("loginPage.titleKo")} {...bind("titleKo")} />
          <Field label={t("loginPage.titleEn")} {...bind("titleEn")} />
          <Field label={t("loginPage.logoUrl")} type="url" {...bind("logoImageUrl")} />
          <label className="check">
            <input
              type="checkbox"
              checked={draft.backgroundTitleEnabled}
              onChange={(e) => setDraft({ ...draft, backgroundTitleEnabled: e.target.checked })}
            />
            {t("loginPage.noticeEnabled")}
          </label>
          <Field label={t("loginPage.noticeKo")} {...bind("backgroundTitleKo")} />
          <Field label={t("loginPage.noticeEn")} {...bind("backgroundTitleEn")} />
          <Field label={t("loginPage.noticeColor")} {...bind("backgroundTitleColor")} />
          <label className="check">
            <input
              type="checkbox"
              checked={draft.methods.email}
              onChange={(e) => setDraft({ ...draft, methods: { ...draft.methods, email: e.target.checked } })}
            />
            {t("loginPage.emailCode")}
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.allowUserSelfSignUp}
              onChange={(e) => setDraft({ ...draft, allowUserSelfSignUp: e.target.checked })}
            />
            {t("loginPage.selfSignUp")}
          </label>
          <FormError
            error={save.error ?? publish.error}
            fields={["titleKo", "titleEn", "logoImageUrl", "backgroundTitleKo", "backgroundTitleEn", "backgroundTitleColor"]}
          />
          {save.isSuccess && !publish.isSuccess && <p role="status">{t("loginPage.draftSaved")}</p>}
          {publish.isSuccess && <p role="status">{t("loginPage.publishedNow")}</p>}
          <div className="actions">
            <button type="submit">{t("loginPage.saveDraft")}</button>
            <button type="button" className="primary" onClick={() => publish.mutate(draft)}>
              {t("loginPage.publish")}
            </button>
          </div>
        </form>
        <div>
          <fieldset className="inline" aria-label={t("loginPage.previewLanguage")}>
            <h2>{t("loginPage.preview")}</h2>
            <button type="button" className="small" aria-pressed={previewLang === "ko"} onClick={() => setPreviewLang("ko")}>
              한국어
            </button>
            <button type="button" className="small" aria-pressed={previewLang === "en"} onClick={() => setPreviewLang("en")}>
              English
            </button>
          </fieldset>
          <Preview draft={draft} lang={previewLang} />
        </div>
      </div>
    </section>
  );
}

/** A likeness of the hosted page (src/modules/hosted-pages) drawn from the unsaved draft. */
function Preview({ draft, lang }: { draft: Draft; lang: Lang }) {
  const { t } = useI18n();
  const tenant = useQuery({ queryKey: ["tenant"], queryFn: () => ok(api.GET("/api/v1/tenant")) });
  // Like the hosted page: an empty title falls back to the school's name.
  const title = (lang === "ko" ? draft.titleKo : draft.titleEn) || tenant.data?.name || t("loginPage.untitled");
  const notice = lang === "ko" ? draft.backgroundTitleKo : draft.backgroundTitleEn;
  const label = (ko: string, en: string) => (lang === "ko" ? ko : en);
  return (
    <section className="preview" aria-label={t("loginPage.preview")} data-testid="login-preview">
      {draft.logoImageUrl && <img src={draft.logoImageUrl} alt="" />}
      <p className="preview-title">{title}</p>
      {draft.backgroundTitleEnabled && notice && (
        <p className="notice" ref={(el) => el?.style.setProperty("color", draft.backgroundTitleColor || "")}>
          {notice}
        </p>
      )}
      <div className="fake-input">{label("아이디 또는 이메일", "User ID or e-mail")}</div>
      <div className="fake-input">{label("비밀번호", "Password")}</div>
      <div className="fake-button">{label("로그인", "Sign in")}</div>
      {draft.methods.email && (
        <div className="fake-button alt">
          {draft.buttonLabels.email[lang] || label("이메일 코드로 로그인", "Sign in with an e-mail code")}
        </div>
      )}
    </section>
  );
}
