import { useId } from "react";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Select } from "../../ui/ui";
import { useSpaceCategories } from "./queries";

/** The menus of a space (docs/rules/spaces.md#creation), in the order they are offered. */
export const MENUS = ["announcement", "content", "community", "team", "challenge", "grade"] as const;
const FLAGS = ["isPublic", "autoJoin", "exitRestricted", "allowFileDownload", "retainEnrollmentHistory"] as const;

export type SpaceDraft = {
  name: string;
  representativeName: string;
  semester: string;
  description: string;
  isPublic: boolean;
  autoJoin: boolean;
  exitRestricted: boolean;
  allowFileDownload: boolean;
  retainEnrollmentHistory: boolean;
  messageEnabled: boolean;
  startMenu: string;
  enabledMenus: string[];
};

/** The create/update body of a draft: empty texts are null (createSpace and updateSpace take s|null). */
export function spaceBody(d: SpaceDraft) {
  const text = (v: string) => (v.trim() ? v.trim() : null);
  return {
    name: d.name,
    representativeName: text(d.representativeName),
    semester: text(d.semester),
    description: text(d.description),
    isPublic: d.isPublic,
    autoJoin: d.autoJoin,
    exitRestricted: d.exitRestricted,
    allowFileDownload: d.allowFileDownload,
    retainEnrollmentHistory: d.retainEnrollmentHistory,
  };
}

/**
 * A space's fields. The semester field follows the school's space-category settings (shown when
 * semesters are on, in the year-and-term form when they carry a year); the menus only when editing
 * (a new space copies them from the category settings).
 */
export function SpaceForm(props: {
  draft: SpaceDraft;
  onChange: (patch: Partial<SpaceDraft>) => void;
  onSubmit: () => void;
  error: unknown;
  submitLabel: string;
  editing: boolean;
  busy?: boolean;
}) {
  const { t } = useI18n();
  const { draft: d, onChange, error } = props;
  const categories = useSpaceCategories();
  const descId = useId();
  const semesters = categories.data?.semesterEnabled || d.semester !== "";
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <Field
        label={t("spaces.name")}
        value={d.name}
        required
        onChange={(e) => onChange({ name: e.target.value })}
        error={fieldError(error, "name", t)}
      />
      <Field
        label={t("spaces.representative")}
        value={d.representativeName}
        onChange={(e) => onChange({ representativeName: e.target.value })}
        error={fieldError(error, "representativeName", t)}
      />
      {semesters && (
        <Field
          label={t("spaces.semester")}
          value={d.semester}
          hint={categories.data?.semesterWithYear ? t("spaces.semesterWithYearHint") : t("spaces.semesterHint")}
          onChange={(e) => onChange({ semester: e.target.value })}
          error={fieldError(error, "semester", t)}
        />
      )}
      <div className="field">
        <label htmlFor={descId}>{t("spaces.description")}</label>
        <textarea id={descId} rows={3} value={d.description} onChange={(e) => onChange({ description: e.target.value })} />
      </div>
      <fieldset className="bare">
        <legend>{t("spaces.options")}</legend>
        {FLAGS.map((f) => (
          <label key={f} className="check">
            <input type="checkbox" checked={d[f]} onChange={(e) => onChange({ [f]: e.target.checked })} /> {t(`spaces.flags.${f}`)}
          </label>
        ))}
        {props.editing && (
          <label className="check">
            <input type="checkbox" checked={d.messageEnabled} onChange={(e) => onChange({ messageEnabled: e.target.checked })} />{" "}
            {t("spaces.flags.messageEnabled")}
          </label>
        )}
      </fieldset>
      {props.editing && <MenuFields startMenu={d.startMenu} enabledMenus={d.enabledMenus} onChange={onChange} error={error} />}
      <FormError error={error} fields={["name", "representativeName", "semester", "enabledMenus", "startMenu"]} />
      <div>
        <button type="submit" className="primary" disabled={props.busy}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}

/** The start menu and the enabled menus, for a space and for the school's category settings alike. */
export function MenuFields(props: {
  startMenu: string;
  enabledMenus: string[];
  onChange: (patch: { startMenu?: string; enabledMenus?: string[] }) => void;
  error: unknown;
}) {
  const { t } = useI18n();
  const { enabledMenus } = props;
  return (
    <>
      <fieldset className="bare">
        <legend>{t("spaces.enabledMenus")}</legend>
        {MENUS.map((m) => (
          <label key={m} className="check">
            <input
              type="checkbox"
              checked={enabledMenus.includes(m)}
              onChange={(e) =>
                props.onChange({ enabledMenus: e.target.checked ? [...enabledMenus, m] : enabledMenus.filter((x) => x !== m) })
              }
            />{" "}
            {t(`spaces.menus.${m}`)}
          </label>
        ))}
        {fieldError(props.error, "enabledMenus", t) && <small className="error">{t("errors.fieldInvalid")}</small>}
      </fieldset>
      <Select
        label={t("spaces.startMenu")}
        value={props.startMenu}
        onChange={(v) => props.onChange({ startMenu: v })}
        options={MENUS.map((m) => ({ value: m, label: t(`spaces.menus.${m}`) }))}
      />
    </>
  );
}
