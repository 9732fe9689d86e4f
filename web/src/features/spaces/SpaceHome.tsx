import * as Tabs from "@radix-ui/react-tabs";
import { lazy, Suspense } from "react";
import { useI18n } from "../../i18n";
import { Link } from "../../shell/Link";
import { useSearch } from "../../shell/router";
import { Loading } from "../../shell/ui";
import { useIsSpaceAdmin, useSpace } from "./queries";

const Stream = lazy(() => import("../posts/Stream"));
const Classwork = lazy(() => import("../library/Classwork"));
const SpaceMembers = lazy(() => import("./SpaceMembers"));
const Gradebook = lazy(() => import("../gradebook/Gradebook"));
const MyGrades = lazy(() => import("../gradebook/MyGrades"));

/** A space's home: its stream, classwork, members and grades, one tab each (the tab is in the URL). */
export default function SpaceHome({ spaceId }: { spaceId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const space = useSpace(spaceId);
  const admin = useIsSpaceAdmin(spaceId);
  const tab = get("tab") ?? "stream";
  if (!space.data || admin === undefined) return <Loading />;
  return (
    <section>
      <p>
        <Link to="/spaces">← {t("spaces.title")}</Link>
      </p>
      <h1>{space.data.name}</h1>
      {space.data.description && <p>{space.data.description}</p>}
      <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === "stream" ? null : v })}>
        <Tabs.List aria-label={space.data.name} className="tabs">
          <Tabs.Trigger value="stream">{t("spaces.stream")}</Tabs.Trigger>
          <Tabs.Trigger value="classwork">{t("spaces.classwork")}</Tabs.Trigger>
          <Tabs.Trigger value="members">{t("spaces.members")}</Tabs.Trigger>
          <Tabs.Trigger value="grades">{admin ? t("grades.gradebook") : t("grades.mine")}</Tabs.Trigger>
        </Tabs.List>
        <Suspense fallback={<Loading />}>
          <Tabs.Content value="stream">{tab === "stream" && <Stream spaceId={spaceId} admin={admin} />}</Tabs.Content>
          <Tabs.Content value="classwork">{tab === "classwork" && <Classwork spaceId={spaceId} admin={admin} />}</Tabs.Content>
          <Tabs.Content value="members">{tab === "members" && <SpaceMembers spaceId={spaceId} admin={admin} />}</Tabs.Content>
          <Tabs.Content value="grades">
            {tab === "grades" && (admin ? <Gradebook spaceId={spaceId} /> : <MyGrades spaceId={spaceId} />)}
          </Tabs.Content>
        </Suspense>
      </Tabs.Root>
    </section>
  );
}
