import { useI18n } from "../../i18n";
import { ContentTabs } from "../content-tabs/ContentTabs";
import { AssignmentEditor } from "./AssignmentEditor";
import { Grading } from "./Grading";

/** An assignment for its managers: its rules and rubric, then the grading view. */
export default function AssignmentManage({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  return (
    <ContentTabs
      label={t("assignment.label")}
      reset={["sub"]}
      tabs={[
        { value: "edit", label: t("assignment.edit"), render: () => <AssignmentEditor contentId={contentId} /> },
        { value: "grading", label: t("assignment.grading"), render: () => <Grading contentId={contentId} /> },
      ]}
    />
  );
}
