import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../shell/router";
import { PeerResults } from "./PeerResults";
import { PeerSetup } from "./PeerSetup";

/** A peer assessment for its managers: who assesses whom on which criteria, then progress and averages. */
export default function PeerManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const tab = get("tab") ?? "edit";
  return (
    <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === "edit" ? null : v })}>
      <Tabs.List aria-label={t("peer.label")} className="tabs">
        <Tabs.Trigger value="edit">{t("peer.edit")}</Tabs.Trigger>
        <Tabs.Trigger value="results">{t("peer.results")}</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="edit">{tab === "edit" && <PeerSetup contentId={contentId} spaceId={spaceId} />}</Tabs.Content>
      <Tabs.Content value="results">{tab === "results" && <PeerResults contentId={contentId} />}</Tabs.Content>
    </Tabs.Root>
  );
}
