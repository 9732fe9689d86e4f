import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../shell/router";
import { QuizEditor } from "./QuizEditor";
import { QuizResults } from "./QuizResults";

/** A quiz for its managers: the question editor and window, then results, statistics and hand scoring. */
export default function QuizManage({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const tab = get("tab") ?? "edit";
  return (
    <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === "edit" ? null : v, attempt: null })}>
      <Tabs.List aria-label={t("quiz.label")} className="tabs">
        <Tabs.Trigger value="edit">{t("quiz.edit")}</Tabs.Trigger>
        <Tabs.Trigger value="results">{t("quiz.results")}</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="edit">{tab === "edit" && <QuizEditor contentId={contentId} />}</Tabs.Content>
      <Tabs.Content value="results">{tab === "results" && <QuizResults contentId={contentId} />}</Tabs.Content>
    </Tabs.Root>
  );
}
