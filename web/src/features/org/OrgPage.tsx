import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { FormError, Loading, NameForm } from "../../ui/ui";
import { Positions } from "./Positions";
import { createOrgUnit, orgKeys, orgUnitsQuery } from "./queries";
import { type Unit, UnitDetail } from "./UnitDetail";

/** Organization units as a tree (create under any unit; a unit: rename, move, leader, members) and the positions. */
export default function OrgPage() {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const { get, set } = useSearch();
  const manage = can(user, "member:manage");
  const units = useQuery(orgUnitsQuery());
  const [name, setName] = useState("");
  const open = get("open");
  const create = useMutation({
    mutationFn: () => createOrgUnit({ body: { name, parentId: open ?? null } }),
    onSuccess: () => {
      setName("");
      void qc.invalidateQueries({ queryKey: orgKeys.units });
    },
  });
  if (!units.data) return <Loading />;
  const children = new Map<string | null, Unit[]>();
  for (const u of units.data.orgUnits) children.set(u.parentId, [...(children.get(u.parentId) ?? []), u]);
  const tree = (parent: string | null) => {
    const list = children.get(parent) ?? [];
    if (list.length === 0) return null;
    return (
      <ul aria-label={parent === null ? t("org.units") : undefined}>
        {list.map((u) => (
          <li key={u.id}>
            <button type="button" className="link" aria-current={u.id === open ? "true" : undefined} onClick={() => set({ open: u.id })}>
              {u.name}
            </button>{" "}
            <small className="muted">
              {t("org.memberCount", { count: u.memberCount })}
              {u.leaderName ? ` · ${t("org.leaderIs", { name: u.leaderName })}` : ""}
            </small>
            {tree(u.id)}
          </li>
        ))}
      </ul>
    );
  };
  const selected = units.data.orgUnits.find((u) => u.id === open);
  return (
    <section>
      <h1>{t("org.title")}</h1>
      <div className="split">
        <div className="tree">
          {tree(null) ?? <p>{t("common.empty")}</p>}
          {manage && (
            <NameForm
              label={selected ? t("org.newUnder", { name: selected.name }) : t("org.newTop")}
              required
              value={name}
              onChange={setName}
              onSubmit={() => create.mutate()}
              error={create.error}
              submitLabel={t("common.create")}
            >
              {selected && (
                <button type="button" className="small" onClick={() => set({ open: null })}>
                  {t("org.topLevel")}
                </button>
              )}
              <FormError error={create.error} fields={["name"]} />
            </NameForm>
          )}
        </div>
        {selected && <UnitDetail key={selected.id} unit={selected} units={units.data.orgUnits} manage={manage} />}
      </div>
      <Positions manage={manage} switchable={can(user, "tenant-settings:manage")} />
    </section>
  );
}
