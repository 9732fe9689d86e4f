import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useI18n } from "../i18n";
import { memberSearchQuery } from "./queries";

/**
 * Finds members by name, login id or e-mail (listMembers search) and hands the chosen member's id to
 * onPick; `action` words each result's button (default "Add <name>").
 */
export function MemberPicker({
  label,
  onPick,
  action,
}: {
  label: string;
  onPick: (member: { id: string; displayName: string }) => void;
  action?: (name: string) => string;
}) {
  const { t } = useI18n();
  const id = useId();
  const [q, setQ] = useState("");
  const found = useQuery(memberSearchQuery(q));
  return (
    <div className="picker">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={q} placeholder={t("picker.placeholder")} onChange={(e) => setQ(e.target.value)} />
      {q.trim() && (
        <ul className="list">
          {(found.data?.members ?? []).map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="link"
                onClick={() => {
                  onPick(m);
                  setQ("");
                }}
              >
                {action ? action(m.displayName) : t("picker.add", { name: m.displayName })}
              </button>{" "}
              <small className="muted">{m.userId ?? m.email}</small>
            </li>
          ))}
          {found.data?.members.length === 0 && <li>{t("common.empty")}</li>}
        </ul>
      )}
    </div>
  );
}
