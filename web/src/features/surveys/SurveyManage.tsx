import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../shell/router";
import { SurveyEditor } from "./SurveyEditor";
import { SurveyResults } from "./SurveyResults";

/** A survey for its managers: its questions and window, then results (charts, text answers, respondents). */
export default function SurveyManage({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const tab = get("tab") ?? "results";
  return (
    <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === "results" ? null : v })}>
      <Tabs.List aria-label={t("survey.label")} className="tabs">
        <Tabs.Trigger value="results">{t("survey.results")}</Tabs.Trigger>
        <Tabs.Trigger value="edit">{t("survey.edit")}</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="results">{tab === "results" && <SurveyResults contentId={contentId} spaceId={spaceId} />}</Tabs.Content>
      <Tabs.Content value="edit">{tab === "edit" && <SurveyEditor contentId={contentId} />}</Tabs.Content>
    </Tabs.Root>
  );
}
