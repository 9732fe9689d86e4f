import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../shell/router";
import { GroupAssignmentEditor } from "./GroupAssignmentEditor";
import { GroupGrading } from "./GroupGrading";

/** A group assignment for its managers: its group set and rules, then grading per group. */
export default function GroupAssignmentManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const tab = get("tab") ?? "edit";
  return (
    <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === "edit" ? null : v, sub: null })}>
      <Tabs.List aria-label={t("groupWork.label")} className="tabs">
        <Tabs.Trigger value="edit">{t("groupWork.edit")}</Tabs.Trigger>
        <Tabs.Trigger value="grading">{t("assignment.grading")}</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="edit">{tab === "edit" && <GroupAssignmentEditor contentId={contentId} spaceId={spaceId} />}</Tabs.Content>
      <Tabs.Content value="grading">{tab === "grading" && <GroupGrading contentId={contentId} spaceId={spaceId} />}</Tabs.Content>
    </Tabs.Root>
  );
}
