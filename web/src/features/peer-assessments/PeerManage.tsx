import { useI18n } from "../../i18n";
import { ContentTabs } from "../content-tabs/ContentTabs";
import { PeerResults } from "./PeerResults";
import { PeerSetup } from "./PeerSetup";

/** A peer assessment for its managers: who assesses whom on which criteria, then progress and averages. */
export default function PeerManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  return (
    <ContentTabs
      label={t("peer.label")}
      tabs={[
        { value: "edit", label: t("peer.edit"), render: () => <PeerSetup contentId={contentId} spaceId={spaceId} /> },
        { value: "results", label: t("peer.results"), render: () => <PeerResults contentId={contentId} /> },
      ]}
    />
  );
}
