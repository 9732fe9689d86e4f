import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { spaceKeys, updateSpaceCategories, useSpaceCategories } from "./queries";
import { MenuFields } from "./SpaceForm";

type Settings = paths["/api/v1/space-categories"]["get"]["responses"]["200"]["content"]["application/json"];
type Body = NonNullable<paths["/api/v1/space-categories"]["put"]["requestBody"]>["content"]["application/json"];
type Item = { id?: string; name: string };

const words = (s: string) =>
  s
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);

/**
 * The school's space-category settings (updateSpaceCategories, a full replace): semesters, the
 * menus a new space starts with, tags, roles and the categories in their order.
 */
export default function SpaceCategories() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const settings = useSpaceCategories();
  const [draft, setDraft] = useState<
    (Omit<Settings, "categories" | "tags" | "roles"> & { tags: string; roles: string; items: Item[] }) | null
  >(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const s = settings.data;
    if (s && !draft)
      setDraft({ ...s, tags: s.tags.join(", "), roles: s.roles.join(", "), items: s.categories.map((c) => ({ id: c.id, name: c.name })) });
  }, [settings.data, draft]);
  const save = useMutation({
    mutationFn: (d: NonNullable<typeof draft>) =>
      updateSpaceCategories({
        body: {
          semesterEnabled: d.semesterEnabled,
          semesterWithYear: d.semesterWithYear,
          startMenu: d.startMenu as Body["startMenu"],
          enabledMenus: d.enabledMenus as Body["enabledMenus"],
          tags: words(d.tags),
          roles: words(d.roles),
          categories: d.items.map((c, order) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, order })),
        },
      }),
    onSuccess: (s) => {
      qc.setQueryData(spaceKeys.categories, s);
      setDraft({ ...s, tags: s.tags.join(", "), roles: s.roles.join(", "), items: s.categories.map((c) => ({ id: c.id, name: c.name })) });
      setSaved(true);
    },
  });
  if (!draft) return <Loading />;
  const change = (p: Partial<typeof draft>) => {
    setSaved(false);
    setDraft({ ...draft, ...p });
  };
  const move = (i: number, by: number) => {
    const items = [...draft.items];
    const [it] = items.splice(i, 1);
    if (it) items.splice(i + by, 0, it);
    change({ items });
  };
  return (
    <form
      className="panel stack"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft);
      }}
    >
      <h2>{t("spaces.categories")}</h2>
      <p className="muted">{t("spaces.categoriesHelp")}</p>
      <label className="check">
        <input type="checkbox" checked={draft.semesterEnabled} onChange={(e) => change({ semesterEnabled: e.target.checked })} />{" "}
        {t("spaces.semesterEnabled")}
      </label>
      <label className="check">
        <input type="checkbox" checked={draft.semesterWithYear} onChange={(e) => change({ semesterWithYear: e.target.checked })} />{" "}
        {t("spaces.semesterWithYear")}
      </label>
      <MenuFields startMenu={draft.startMenu} enabledMenus={draft.enabledMenus} onChange={change} error={save.error} />
      <Field
        label={t("spaces.tags")}
        hint={t("spaces.commaHint")}
        value={draft.tags}
        onChange={(e) => change({ tags: e.target.value })}
        error={fieldError(save.error, "tags", t)}
      />
      <Field
        label={t("spaces.spaceRoles")}
        hint={t("spaces.commaHint")}
        value={draft.roles}
        onChange={(e) => change({ roles: e.target.value })}
        error={fieldError(save.error, "roles", t)}
      />
      <fieldset className="bare">
        <legend>{t("spaces.categoryList")}</legend>
        {draft.items.map((c, i) => (
          <div key={c.id ?? `new-${i}`} className="inline">
            <Field
              label={t("spaces.categoryN", { n: i + 1 })}
              value={c.name}
              required
              onChange={(e) => change({ items: draft.items.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })}
              error={fieldError(save.error, `categories[${i}]`, t)}
            />
            <button
              type="button"
              className="small"
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label={t("spaces.moveUp", { n: i + 1 })}
            >
              ↑
            </button>
            <button
              type="button"
              className="small"
              disabled={i === draft.items.length - 1}
              onClick={() => move(i, 1)}
              aria-label={t("spaces.moveDown", { n: i + 1 })}
            >
              ↓
            </button>
            <button type="button" className="small" onClick={() => change({ items: draft.items.filter((_, j) => j !== i) })}>
              {t("spaces.removeCategory", { n: i + 1 })}
            </button>
          </div>
        ))}
        <button type="button" disabled={draft.items.length >= 20} onClick={() => change({ items: [...draft.items, { name: "" }] })}>
          {t("spaces.addCategory")}
        </button>
      </fieldset>
      <FormError error={save.error} fields={["tags", "roles", "categories", "enabledMenus", "startMenu"]} />
      <div>
        <button type="submit" className="primary" disabled={save.isPending}>
          {t("common.save")}
        </button>
      </div>
      {saved && <p role="status">{t("common.saved")}</p>}
    </form>
  );
}
