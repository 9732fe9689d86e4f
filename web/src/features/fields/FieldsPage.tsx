import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { FieldDisplay } from "./FieldDisplay";
import { FieldEditor } from "./FieldEditor";

/** Custom fields of members (batch edit, choices, display in the members list) and of spaces. */
export default function FieldsPage() {
  const { t } = useI18n();
  const { get, set } = useSearch();
  return (
    <section>
      <h1>{t("fields.title")}</h1>
      <Tabs.Root value={get("kind") ?? "member"} onValueChange={(v) => set({ kind: v === "member" ? null : v })}>
        <Tabs.List aria-label={t("fields.title")} className="tabs">
          <Tabs.Trigger value="member">{t("fields.memberTab")}</Tabs.Trigger>
          <Tabs.Trigger value="space">{t("fields.spaceTab")}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="member">
          <FieldEditor kind="member" />
          <FieldDisplay />
        </Tabs.Content>
        <Tabs.Content value="space">
          <FieldEditor kind="space" />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
