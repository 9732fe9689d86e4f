import type { paths } from "../../api/schema";
import { roleLabel } from "../../i18n";
import type { Column } from "../../ui/DataTable";
import { formatDate } from "../../ui/ui";

export type Member = paths["/api/v1/members"]["get"]["responses"][200]["content"]["application/json"]["members"][number];
type Field = { id: string; label: string; type: string };
type DisplayItem = { fieldId: string; visible: boolean };
type T = (key: string, vars?: Record<string, string | number>) => string;

/** A field value as text: dates as the day they name. */
export function fieldValueText(m: Member, f: Field, lang: string) {
  const v = m.fieldValues.find((x) => x.fieldId === f.id);
  if (!v) return "—";
  if (f.type === "DATE") return v.valueDate ? new Date(v.valueDate).toLocaleDateString(lang === "ko" ? "ko-KR" : "en-GB") : "—";
  return v.valueText ?? (v.valueNumber !== null ? String(v.valueNumber) : "—");
}

/**
 * The member table's columns: the name (opens the record) and role always, then the default
 * columns and custom fields the field display shows, in its order (all of them until it has loaded).
 */
export function memberColumns(o: {
  t: T;
  lang: string;
  fields: Field[];
  display: DisplayItem[] | undefined;
  open: (id: string) => void;
}): Column<Member>[] {
  const { t, lang } = o;
  const defaults: Record<string, Column<Member>> = {
    userId: { key: "userId", header: t("members.userId"), sort: "userId", cell: (m) => m.userId ?? "—" },
    email: { key: "email", header: t("members.email"), sort: "email", cell: (m) => m.email ?? "—" },
    isActive: {
      key: "isActive",
      header: t("members.status"),
      sort: "isActive",
      cell: (m) => (m.isActive ? t("members.active") : t("members.inactive")),
    },
    lastLoginAt: { key: "lastLoginAt", header: t("members.lastLogin"), sort: "lastLoginAt", cell: (m) => formatDate(m.lastLoginAt, lang) },
    createdAt: { key: "createdAt", header: t("members.created"), sort: "createdAt", cell: (m) => formatDate(m.createdAt, lang) },
    activeSpaceCount: {
      key: "activeSpaceCount",
      header: t("members.activeSpaces"),
      sort: "activeSpaceCount",
      cell: (m) => m.activeSpaceCount ?? "—",
    },
    inactiveSpaceCount: {
      key: "inactiveSpaceCount",
      header: t("members.inactiveSpaces"),
      sort: "inactiveSpaceCount",
      cell: (m) => m.inactiveSpaceCount ?? "—",
    },
  };
  const byId = new Map(o.fields.map((f) => [f.id, f]));
  const shown = o.display ? o.display.filter((d) => d.visible).map((d) => d.fieldId) : Object.keys(defaults);
  const rest = shown.flatMap((id): Column<Member>[] => {
    const column = defaults[id];
    if (column) return [column];
    const f = byId.get(id);
    return f ? [{ key: f.id, header: f.label, sort: f.id, cell: (m) => fieldValueText(m, f, lang) }] : [];
  });
  return [
    {
      key: "displayName",
      header: t("members.name"),
      sort: "displayName",
      cell: (m) => (
        <button type="button" className="link" onClick={() => o.open(m.id)}>
          {m.displayName}
        </button>
      ),
    },
    { key: "role", header: t("members.role"), cell: (m) => roleLabel(m.role, t) },
    ...rest,
  ];
}
