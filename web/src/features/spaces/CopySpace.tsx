import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { navigate } from "../../ui/router";
import { Field, FormError, fieldError } from "../../ui/ui";
import { copySpace, type Space, spaceKeys, spacePath } from "./queries";

/** The year after a "2026-1" semester ("2027-1"); any other text is kept as it is. */
export const nextYearSemester = (semester: string | null) => semester?.replace(/^(\d{4})(?=\D|$)/, (y) => String(Number(y) + 1)) ?? "";

/**
 * "Copy class for next year" (copySpace): the space's settings, folders and classwork (as drafts)
 * in a new space the caller owns; no students, submissions or history. The copy opens when made.
 */
export function CopySpace({ space }: { space: Space }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [v, setV] = useState({
    name: space.name,
    semester: nextYearSemester(space.semester),
    includeAdmins: true,
    includeContents: true,
    includePosts: false,
  });
  const copy = useMutation({
    mutationFn: () => copySpace({ params: { path: { spaceId: space.id } }, body: { ...v, semester: v.semester.trim() || null } }),
    onSuccess: (s) => {
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
      navigate(spacePath(s.id));
    },
  });
  const flag = (key: "includeAdmins" | "includeContents" | "includePosts") => (
    <label className="check">
      <input type="checkbox" checked={v[key]} onChange={(e) => setV({ ...v, [key]: e.target.checked })} /> {t(`spaces.copy.${key}`)}
    </label>
  );
  return (
    <section className="panel" aria-labelledby="copy-space-title">
      <h2 id="copy-space-title">{t("spaces.copy.title")}</h2>
      <p>{t("spaces.copy.help")}</p>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          copy.mutate();
        }}
      >
        <Field
          label={t("spaces.copy.name")}
          required
          value={v.name}
          onChange={(e) => setV({ ...v, name: e.target.value })}
          error={fieldError(copy.error, "name", t)}
        />
        <Field
          label={t("spaces.semester")}
          value={v.semester}
          onChange={(e) => setV({ ...v, semester: e.target.value })}
          error={fieldError(copy.error, "semester", t)}
        />
        {flag("includeContents")}
        {flag("includeAdmins")}
        {flag("includePosts")}
        <FormError error={copy.error} fields={["name", "semester"]} />
        <div>
          <button type="submit" className="primary" disabled={copy.isPending}>
            {copy.isPending ? t("spaces.copy.copying") : t("spaces.copy.submit")}
          </button>
        </div>
      </form>
    </section>
  );
}
