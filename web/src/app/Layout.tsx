import { Suspense, useEffect } from "react";
import { useMyStudents } from "../features/guardians/queries";
import { Bell } from "../features/notifications/Bell";
import { roleLabel, useI18n } from "../i18n";
import { navigate, useLocation } from "../ui/router";
import { Loading } from "../ui/ui";
import { GUARDIAN, homeOf, SCREENS } from "./nav";
import { LanguageSelect, SignOutButton } from "./SessionControls";
import { can, useUser } from "./session";

/** The signed-in frame: navigation of the screens the member may open, language switch, sign-out. */
export function Layout() {
  const { t } = useI18n();
  const user = useUser();
  const { path } = useLocation();
  const students = useMyStudents();
  const guardian = (students.data?.length ?? 0) > 0;
  const screens = SCREENS.filter((s) => (s.permission === GUARDIAN ? guardian : can(user, s.permission)));
  const current = screens.find((s) => path === s.path || path.startsWith(`${s.path}/`));
  // Whether the member is a guardian decides their first screen: wait for it before leaving "/".
  const fallback = current || students.isPending ? null : homeOf(screens, (p) => can(user, p));
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
          {user.displayName} · {roleLabel(user.role, t)}
        </span>
        <Bell />
        <LanguageSelect />
        <SignOutButton />
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
