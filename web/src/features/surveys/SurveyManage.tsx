import { useI18n } from "../../i18n";
import { ContentTabs } from "../content-tabs/ContentTabs";
import { SurveyEditor } from "./SurveyEditor";
import { SurveyResults } from "./SurveyResults";

/** A survey for its managers: results first (charts, text answers, respondents), then its questions and window. */
export default function SurveyManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  return (
    <ContentTabs
      label={t("survey.label")}
      tabs={[
        { value: "results", label: t("survey.results"), render: () => <SurveyResults contentId={contentId} spaceId={spaceId} /> },
        { value: "edit", label: t("survey.edit"), render: () => <SurveyEditor contentId={contentId} /> },
      ]}
    />
  );
}
