import { useId, useState } from "react";
import { useI18n } from "../../i18n";
import { ChoiceFilter, FilterBar, FilterChips, MultiFilter, RangeFilter, SearchBox } from "../../ui/ListControls";
import { useSearch } from "../../ui/router";
import { FILTER_PARAMS } from "./queries";

type Field = { id: string; label: string; type: string; options: string[]; isActive: boolean };

/** Every filter of listMembers, each in the URL: search, roles, statuses, account kind, last sign-in, space counts, field values. */
export function MemberFilters({ roles, fields }: { roles: { key: string; name: string }[]; fields: Field[] }) {
  const { t } = useI18n();
  const labels = new Map(fields.map((f) => [f.id, f.label]));
  return (
    <>
      <SearchBox label={t("members.search")} />
      <FilterBar label={t("list.filters")} params={[...FILTER_PARAMS]}>
        {roles.length > 0 && (
          <MultiFilter label={t("members.role")} param="role" options={roles.map((r) => ({ value: r.key, label: r.name }))} />
        )}
        <MultiFilter
          label={t("members.status")}
          param="status"
          options={[
            { value: "active", label: t("members.active") },
            { value: "inactive", label: t("members.inactive") },
          ]}
        />
        <ChoiceFilter
          label={t("members.issued")}
          param="issued"
          options={[
            { value: "true", label: t("members.issuedYes") },
            { value: "false", label: t("members.issuedNo") },
          ]}
        />
        <RangeFilter label={t("members.lastLogin")} from="loginFrom" to="loginTo" type="date" />
        <RangeFilter label={t("members.activeSpaces")} from="activeMin" to="activeMax" type="number" min={0} />
        <RangeFilter label={t("members.inactiveSpaces")} from="inactiveMin" to="inactiveMax" type="number" min={0} />
        {fields.some((f) => f.isActive) && <FieldFilterAdder fields={fields.filter((f) => f.isActive)} />}
      </FilterBar>
      <FilterChips
        param="ff"
        label={(v) => {
          const at = v.indexOf(":");
          return `${labels.get(v.slice(0, at)) ?? v.slice(0, at)}: ${v.slice(at + 1)}`;
        }}
      />
    </>
  );
}

/** Adds one "<fieldId>:<value>" filter (up to 10, each matching on its own field: AND). */
function FieldFilterAdder({ fields }: { fields: Field[] }) {
  const { t } = useI18n();
  const { all, set } = useSearch();
  const id = useId();
  const [fieldId, setFieldId] = useState(fields[0]?.id ?? "");
  const [value, setValue] = useState("");
  const field = fields.find((f) => f.id === fieldId);
  const current = all("ff");
  const add = () => {
    const v = value.trim();
    if (!field || !v || current.length >= 10) return;
    set({ ff: [...current.filter((x) => x !== `${field.id}:${v}`), `${field.id}:${v}`], page: null });
    setValue("");
  };
  return (
    <fieldset className="range">
      <legend>{t("members.fieldFilter")}</legend>
      <label>
        {t("members.field")}
        <select
          value={fieldId}
          onChange={(e) => {
            setFieldId(e.target.value);
            setValue("");
          }}
        >
          {fields.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={id}>
        {t("members.fieldValue")}
        {field?.type === "SELECT" ? (
          <select id={id} value={value} onChange={(e) => setValue(e.target.value)}>
            <option value="">—</option>
            {field.options.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            type={field?.type === "NUMBER" ? "number" : field?.type === "DATE" ? "date" : "text"}
            maxLength={255}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
        )}
      </label>
      <button type="button" onClick={add} disabled={!value.trim() || current.length >= 10}>
        {t("members.addFilter")}
      </button>
    </fieldset>
  );
}
