import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../shell/router";
import { AssignmentEditor } from "./AssignmentEditor";
import { Grading } from "./Grading";

/** An assignment for its managers: its rules and rubric, then the grading view. */
export default function AssignmentManage({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const tab = get("tab") ?? "edit";
  return (
    <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === "edit" ? null : v, sub: null })}>
      <Tabs.List aria-label={t("assignment.label")} className="tabs">
        <Tabs.Trigger value="edit">{t("assignment.edit")}</Tabs.Trigger>
        <Tabs.Trigger value="grading">{t("assignment.grading")}</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="edit">{tab === "edit" && <AssignmentEditor contentId={contentId} />}</Tabs.Content>
      <Tabs.Content value="grading">{tab === "grading" && <Grading contentId={contentId} />}</Tabs.Content>
    </Tabs.Root>
  );
}
