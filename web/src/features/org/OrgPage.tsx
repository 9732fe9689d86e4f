import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { MemberPicker } from "../../shell/MemberPicker";
import { useSearch } from "../../shell/router";
import { can, useUser } from "../../shell/session";
import { FormError, Loading, NameForm } from "../../shell/ui";

type Unit = { id: string; parentId: string | null; name: string; memberCount: number; leaderName: string | null };

/** Organization units as a tree (create under any unit, members) and the positions list. */
export default function OrgPage() {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const { get, set } = useSearch();
  const manage = can(user, "member:manage");
  const units = useQuery({ queryKey: ["org-units"], queryFn: () => ok(api.GET("/api/v1/org-units")) });
  const [name, setName] = useState("");
  const open = get("open");
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/org-units", { body: { name, parentId: open ?? null } })),
    onSuccess: () => {
      setName("");
      void qc.invalidateQueries({ queryKey: ["org-units"] });
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
            <small className="muted">{t("org.memberCount", { count: u.memberCount })}</small>
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
        {selected && <UnitDetail key={selected.id} unit={selected} manage={manage} />}
      </div>
      <Positions manage={manage} />
    </section>
  );
}

function UnitDetail({ unit, manage }: { unit: Unit; manage: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const { set } = useSearch();
  const members = useQuery({
    queryKey: ["org-unit-members", unit.id],
    queryFn: () => ok(api.GET("/api/v1/org-units/{orgUnitId}/members", { params: { path: { orgUnitId: unit.id } } })),
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["org-unit-members", unit.id] });
    void qc.invalidateQueries({ queryKey: ["org-units"] });
  };
  const add = useMutation({
    mutationFn: (id: string) =>
      ok(api.POST("/api/v1/org-units/{orgUnitId}/members", { params: { path: { orgUnitId: unit.id } }, body: { userIds: [id] } })),
    onSuccess: refresh,
  });
  const removeMember = useMutation({
    mutationFn: (id: string) =>
      ok(api.DELETE("/api/v1/org-units/{orgUnitId}/members/{userPkId}", { params: { path: { orgUnitId: unit.id, userPkId: id } } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE("/api/v1/org-units/{orgUnitId}", { params: { path: { orgUnitId: unit.id } } })),
    onSuccess: () => {
      set({ open: null });
      void qc.invalidateQueries({ queryKey: ["org-units"] });
    },
  });
  return (
    <div className="panel">
      <h2>{unit.name}</h2>
      <ul className="list">
        {(members.data?.members ?? []).map((m) => (
          <li key={m.id}>
            {m.displayName}{" "}
            {manage && (
              <button type="button" className="small" onClick={() => removeMember.mutate(m.id)}>
                {t("common.remove")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {manage && <MemberPicker label={t("groups.addMember")} onPick={(m) => add.mutate(m.id)} />}
      <FormError error={add.error ?? removeMember.error ?? remove.error} fields={[]} />
      {manage && (
        <button type="button" className="danger" onClick={() => window.confirm(t("org.confirmDelete")) && remove.mutate()}>
          {t("common.delete")}
        </button>
      )}
    </div>
  );
}

function Positions({ manage }: { manage: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ["positions"], queryFn: () => ok(api.GET("/api/v1/position-settings")) });
  const [name, setName] = useState("");
  const refresh = () => void qc.invalidateQueries({ queryKey: ["positions"] });
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/positions", { body: { name } })),
    onSuccess: () => {
      setName("");
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.DELETE("/api/v1/positions/{positionId}", { params: { path: { positionId: id } } })),
    onSuccess: refresh,
  });
  return (
    <>
      <h2>{t("org.positions")}</h2>
      {settings.data && (
        <ul className="list">
          {settings.data.positions.map((p) => (
            <li key={p.id}>
              {p.name} <small className="muted">{t("org.memberCount", { count: p.memberCount })}</small>{" "}
              {manage && (
                <button type="button" className="small" onClick={() => remove.mutate(p.id)}>
                  {t("common.delete")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {manage && (
        <NameForm
          label={t("org.newPosition")}
          required
          value={name}
          onChange={setName}
          onSubmit={() => create.mutate()}
          error={create.error}
          submitLabel={t("common.create")}
        />
      )}
      <FormError error={create.error ?? remove.error} fields={["name"]} />
    </>
  );
}
