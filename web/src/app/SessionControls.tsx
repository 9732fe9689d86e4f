import { useI18n } from "../i18n";
import { useSession, useUser } from "./session";

/** The language switch of a signed-in screen (the frame's header, the consent gate). */
export function LanguageSelect() {
  const { t, lang, setLang } = useI18n();
  return (
    <select aria-label={t("common.language")} value={lang} onChange={(e) => setLang(e.target.value as "ko" | "en")}>
      <option value="ko">한국어</option>
      <option value="en">English</option>
    </select>
  );
}

/** Signs out and returns to the school's hosted sign-in page. */
export function SignOutButton() {
  const { t } = useI18n();
  const user = useUser();
  const { signOut } = useSession();
  return (
    <button
      type="button"
      onClick={async () => {
        const key = user.tenantKey;
        await signOut();
        if (key) window.location.assign(`/t/${encodeURIComponent(key)}/login`);
      }}
    >
      {t("common.signOut")}
    </button>
  );
}
