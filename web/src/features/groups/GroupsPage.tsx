import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { GroupsPanel } from "./GroupsPanel";

/** Groups (classes; grantable) and plain groups (lists without permissions). */
export default function GroupsPage() {
  const { t } = useI18n();
  const { get, set } = useSearch();
  return (
    <section>
      <h1>{t("groups.title")}</h1>
      <Tabs.Root value={get("kind") ?? "grant"} onValueChange={(v) => set({ kind: v, open: null, page: null, q: null })}>
        <Tabs.List aria-label={t("groups.title")} className="tabs">
          <Tabs.Trigger value="grant">{t("groups.groups")}</Tabs.Trigger>
          <Tabs.Trigger value="plain">{t("groups.plainGroups")}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="grant">
          <GroupsPanel kind="grant" />
        </Tabs.Content>
        <Tabs.Content value="plain">
          <GroupsPanel kind="plain" />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
