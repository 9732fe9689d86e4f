import * as Tabs from "@radix-ui/react-tabs";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { GrantsPanel } from "./GrantsPanel";
import { RolesPanel } from "./RolesPanel";

/** Roles and their permissions, and the permission grants to groups, members or everyone. */
export default function RolesPage() {
  const { t } = useI18n();
  const { get, set } = useSearch();
  return (
    <section>
      <h1>{t("roles.title")}</h1>
      <Tabs.Root value={get("tab") ?? "roles"} onValueChange={(v) => set({ tab: v, open: null })}>
        <Tabs.List aria-label={t("roles.title")} className="tabs">
          <Tabs.Trigger value="roles">{t("roles.roles")}</Tabs.Trigger>
          <Tabs.Trigger value="grants">{t("roles.grants")}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="roles">
          <RolesPanel />
        </Tabs.Content>
        <Tabs.Content value="grants">
          <GrantsPanel />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
