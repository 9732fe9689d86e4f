import { Suspense, useEffect } from "react";
import { useI18n } from "../i18n";
import { SCREENS } from "./nav";
import { navigate, useLocation } from "./router";
import { can, useSession, useUser } from "./session";
import { Loading } from "./ui";

/** The signed-in frame: navigation of the screens the member may open, language switch, sign-out. */
export function Layout() {
  const { t, lang, setLang } = useI18n();
  const user = useUser();
  const { signOut } = useSession();
  const { path } = useLocation();
  const screens = SCREENS.filter((s) => can(user, s.permission));
  const current = screens.find((s) => path === s.path || path.startsWith(`${s.path}/`));
  const fallback = current ? null : (screens[0]?.path ?? null);
  // "/" and a screen the member may not open both lead to the first screen they may.
  useEffect(() => {
    if (fallback) navigate(fallback, true);
  }, [fallback]);
  const Page = current?.page;
  return (
    <div className="shell">
      <a className="skip" href="#main">
        {t("common.skip")}
      </a>
      <header className="top">
        <strong>learnspace</strong>
        <span className="who">
          {user.displayName} · {user.role?.name ?? ""}
        </span>
        <select aria-label={t("common.language")} value={lang} onChange={(e) => setLang(e.target.value as "ko" | "en")}>
          <option value="ko">한국어</option>
          <option value="en">English</option>
        </select>
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
      </header>
      <nav className="side" aria-label={t("nav.label")}>
        <ul>
          {screens.map((s) => (
            <li key={s.path}>
              <a
                href={s.path}
                aria-current={s === current ? "page" : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(s.path);
                }}
              >
                {t(s.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        {Page ? (
          <Suspense fallback={<Loading />}>
            <Page />
          </Suspense>
        ) : screens.length === 0 ? (
          <>
            <h1>{t("home.title", { name: user.displayName })}</h1>
            <p>{t("home.noScreens")}</p>
          </>
        ) : (
          <Loading />
        )}
      </main>
    </div>
  );
}
