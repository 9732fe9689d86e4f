import * as Tabs from "@radix-ui/react-tabs";
import { lazy, Suspense } from "react";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { useSearch } from "../../ui/router";
import { Loading } from "../../ui/ui";
import { JoinPublicSpace } from "./JoinPublicSpace";
import { MENU_TABS, useMyEnrolment, useSpace } from "./queries";

const Stream = lazy(() => import("../posts/Stream"));
const Community = lazy(() => import("../posts/Community"));
const Conversations = lazy(() => import("../messages/Conversations"));
const Classwork = lazy(() => import("../library/Classwork"));
const Challenges = lazy(() => import("../challenges/Challenges"));
const SpaceMembers = lazy(() => import("./SpaceMembers"));
const SpaceSettings = lazy(() => import("./SpaceSettings"));
const Gradebook = lazy(() => import("../gradebook/Gradebook"));
const MyGrades = lazy(() => import("../gradebook/MyGrades"));

/**
 * A space's home: one tab per menu the space enables (its start menu first opened), members, and
 * for its admins the settings. The tab is in the URL. A visitor of a public space is offered to join.
 */
export default function SpaceHome({ spaceId }: { spaceId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const space = useSpace(spaceId);
  const mine = useMyEnrolment(spaceId);
  if (!space.data || mine.data === undefined) return <Loading />;
  const s = space.data;
  const admin = mine.data?.role === "ADMIN";
  const menus = Object.entries(MENU_TABS).filter(([menu]) => s.enabledMenus.includes(menu));
  const community = s.enabledMenus.includes("community");
  const tabs = [
    ...menus.map(([, tab]) => tab as string),
    ...(s.messageEnabled ? ["messages"] : []),
    "members",
    ...(admin ? ["settings"] : []),
  ];
  const start = MENU_TABS[s.startMenu as keyof typeof MENU_TABS] ?? tabs[0] ?? "members";
  const asked = get("tab");
  const tab = asked && tabs.includes(asked) ? asked : tabs.includes(start) ? start : (tabs[0] as string);
  return (
    <section>
      <p>
        <Link to="/spaces">← {t("spaces.title")}</Link>
      </p>
      <h1>{s.name}</h1>
      <p className="muted">
        {[s.semester, s.representativeName].filter(Boolean).join(" · ")}
        {!s.isActive && <span className="badge">{t("spaces.archived")}</span>}
      </p>
      {s.description && <p className="pre">{s.description}</p>}
      {mine.data === null ? (
        <JoinPublicSpace space={s} />
      ) : (
        <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === start ? null : v, with: null, view: null, answered: null })}>
          <Tabs.List aria-label={s.name} className="tabs">
            {tabs.map((v) => (
              <Tabs.Trigger key={v} value={v}>
                {v === "grades" ? (admin ? t("grades.gradebook") : t("grades.mine")) : t(`spaces.tabs.${v}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Suspense fallback={<Loading />}>
            {tabs.map((v) => (
              <Tabs.Content key={v} value={v}>
                {v === tab && v === "stream" && <Stream spaceId={spaceId} admin={admin} community={community && s.isActive} />}
                {v === tab && v === "community" && <Community spaceId={spaceId} admin={admin} open={s.isActive} />}
                {v === tab && v === "messages" && <Conversations spaceId={spaceId} admin={admin} enabled={s.isActive} />}
                {v === tab && v === "classwork" && <Classwork spaceId={spaceId} admin={admin} />}
                {v === tab && v === "challenges" && <Challenges spaceId={spaceId} admin={admin} />}
                {v === tab && v === "members" && <SpaceMembers spaceId={spaceId} admin={admin} />}
                {v === tab && v === "grades" && (admin ? <Gradebook spaceId={spaceId} /> : <MyGrades spaceId={spaceId} />)}
                {v === tab && v === "settings" && <SpaceSettings space={s} isOwner={mine.data?.isOwner ?? false} />}
              </Tabs.Content>
            ))}
          </Suspense>
        </Tabs.Root>
      )}
    </section>
  );
}
