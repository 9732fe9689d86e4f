import { useI18n } from "../../i18n";
import { ContentTabs } from "../content-tabs/ContentTabs";
import { QuizEditor } from "./QuizEditor";
import { QuizResults } from "./QuizResults";

/** A quiz for its managers: the question editor and window, then results, statistics and hand scoring. */
export default function QuizManage({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  return (
    <ContentTabs
      label={t("quiz.label")}
      reset={["attempt"]}
      tabs={[
        { value: "edit", label: t("quiz.edit"), render: () => <QuizEditor contentId={contentId} /> },
        { value: "results", label: t("quiz.results"), render: () => <QuizResults contentId={contentId} /> },
      ]}
    />
  );
}
