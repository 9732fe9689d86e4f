import * as Tabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";
import { useSearch } from "../../ui/router";

type Tab = { value: string; label: string; render: () => ReactNode };

/**
 * A content's tabs for its managers (editor, results, grading), kept in ?tab= (the first tab leaves the URL
 * clean); switching drops the `reset` keys the old tab had opened (an attempt, a submission).
 */
export function ContentTabs({ label, tabs, reset = [] }: { label: string; tabs: Tab[]; reset?: string[] }) {
  const { get, set } = useSearch();
  const first = tabs[0]?.value ?? "";
  const tab = get("tab") ?? first;
  return (
    <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v === first ? null : v, ...Object.fromEntries(reset.map((k) => [k, null])) })}>
      <Tabs.List aria-label={label} className="tabs">
        {tabs.map((x) => (
          <Tabs.Trigger key={x.value} value={x.value}>
            {x.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((x) => (
        <Tabs.Content key={x.value} value={x.value}>
          {tab === x.value && x.render()}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
