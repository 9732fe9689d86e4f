import { useI18n } from "../../i18n";
import { ContentTabs } from "../content-tabs/ContentTabs";
import { Roster } from "../deadlines/Roster";
import { QuizEditor } from "./QuizEditor";
import { QuizResults } from "./QuizResults";

/** A quiz for its managers: the question editor and window, results, statistics and hand scoring, and the roster with exceptions. */
export default function QuizManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  return (
    <ContentTabs
      label={t("quiz.label")}
      reset={["attempt"]}
      tabs={[
        { value: "edit", label: t("quiz.edit"), render: () => <QuizEditor contentId={contentId} /> },
        { value: "results", label: t("quiz.results"), render: () => <QuizResults contentId={contentId} /> },
        { value: "roster", label: t("roster.title"), render: () => <Roster spaceId={spaceId} contentId={contentId} kind="QUIZ" /> },
      ]}
    />
  );
}
