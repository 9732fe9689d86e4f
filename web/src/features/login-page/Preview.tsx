import type { paths } from "../../api/schema";
import type { Lang } from "../../i18n";
import { useI18n } from "../../i18n";

export type Draft = paths["/api/v1/login-page-settings/draft"]["get"]["responses"]["200"]["content"]["application/json"]["draft"];
/** A sign-in button the page would show for a provider (SAML or a partner), labels in both languages. */
export type ProviderButton = { key: string; labelKo: string; labelEn: string };

/** The hosted page's own words (src/modules/hosted-pages), in the preview's language rather than the console's. */
const WORDS = {
  ko: {
    id: "아이디 또는 이메일",
    password: "비밀번호",
    signIn: "로그인",
    email: "이메일",
    code: "인증 코드",
    signUp: "처음이신가요? 가입하기",
  },
  en: { id: "User ID or e-mail", password: "Password", signIn: "Sign in", email: "E-mail", code: "Code", signUp: "New here? Sign up" },
} as const;

/**
 * A likeness of the hosted sign-in page (src/modules/hosted-pages) drawn from the unsaved draft, in either language:
 * what that page shows and nothing more (it shows no feed and no sign-up link).
 */
export function Preview(props: {
  draft: Draft;
  lang: Lang;
  schoolName: string;
  logoUrl: string | null;
  backgroundUrl: string | null;
  providers: ProviderButton[];
}) {
  const { t } = useI18n();
  const { draft, lang } = props;
  const w = WORDS[lang];
  const pick = (ko: string, en: string) => (lang === "ko" ? ko : en);
  // Like the hosted page: an empty title falls back to the school's name.
  const title = pick(draft.titleKo, draft.titleEn) || props.schoolName || t("loginPage.untitled");
  const notice = pick(draft.backgroundTitleKo, draft.backgroundTitleEn);
  const label = (k: keyof Draft["buttonLabels"]) => draft.buttonLabels[k][lang];
  const socials = (["social_a", "social_b"] as const).filter((k) => draft.methods[k]);
  return (
    <div
      className="preview-stage"
      lang={lang}
      // The CSP allows no inline style attribute; the object model may set one.
      ref={(el) => el?.style.setProperty("background-image", props.backgroundUrl ? `url("${props.backgroundUrl}")` : "none")}
      data-testid="login-preview"
      data-background={props.backgroundUrl ? "set" : "none"}
    >
      <section className="preview" aria-label={t("loginPage.preview")}>
        {props.logoUrl && <img src={props.logoUrl} alt={t("loginPage.logo")} />}
        <p className="preview-title">{title}</p>
        <p>{props.schoolName}</p>
        {draft.backgroundTitleEnabled && notice && (
          <p className="notice" ref={(el) => el?.style.setProperty("color", draft.backgroundTitleColor || "")}>
            {notice}
          </p>
        )}
        <div className="fake-input">{w.id}</div>
        <div className="fake-input">{w.password}</div>
        <div className="fake-button">{w.signIn}</div>
        {draft.methods.email && (
          <>
            <p className="preview-heading">{label("email")}</p>
            <div className="fake-input">{w.email}</div>
            <div className="fake-input">{w.code}</div>
          </>
        )}
        {props.providers.map((p) => (
          <div key={p.key} className="fake-button alt">
            {pick(p.labelKo, p.labelEn) || p.key}
          </div>
        ))}
        {socials.map((k) => (
          <div key={k} className="fake-button alt">
            {label(k)}
          </div>
        ))}
        {draft.externalLinksEnabled && draft.externalLinks.length > 0 && (
          <ul className="preview-links" aria-label={lang === "ko" ? "바로가기" : "Links"}>
            {draft.externalLinks.map((l) => (
              <li key={`${l.url}-${l.labelKo}-${l.labelEn}`}>
                {/* Like the hosted page: the label in this language, else the other one, else the URL. */}
                <span className="link">{pick(l.labelKo || l.labelEn, l.labelEn || l.labelKo) || l.url}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
