import { useI18n } from "../../i18n";
import { ContentTabs } from "../content-tabs/ContentTabs";
import { Roster } from "../deadlines/Roster";
import { AssignmentEditor } from "./AssignmentEditor";
import { Grading } from "./Grading";

/** An assignment for its managers: its rules and rubric, the grading view, and the roster with extensions. */
export default function AssignmentManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  return (
    <ContentTabs
      label={t("assignment.label")}
      reset={["sub"]}
      tabs={[
        { value: "edit", label: t("assignment.edit"), render: () => <AssignmentEditor contentId={contentId} /> },
        { value: "grading", label: t("assignment.grading"), render: () => <Grading contentId={contentId} /> },
        { value: "roster", label: t("roster.title"), render: () => <Roster spaceId={spaceId} contentId={contentId} kind="ASSIGNMENT" /> },
      ]}
    />
  );
}
