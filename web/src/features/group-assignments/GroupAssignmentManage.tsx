import { useI18n } from "../../i18n";
import { ContentTabs } from "../content-tabs/ContentTabs";
import { GroupAssignmentEditor } from "./GroupAssignmentEditor";
import { GroupGrading } from "./GroupGrading";

/** A group assignment for its managers: its group set and rules, then grading per group. */
export default function GroupAssignmentManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  return (
    <ContentTabs
      label={t("groupWork.label")}
      reset={["sub"]}
      tabs={[
        { value: "edit", label: t("groupWork.edit"), render: () => <GroupAssignmentEditor contentId={contentId} spaceId={spaceId} /> },
        { value: "grading", label: t("assignment.grading"), render: () => <GroupGrading contentId={contentId} spaceId={spaceId} /> },
      ]}
    />
  );
}
