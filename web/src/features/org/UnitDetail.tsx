import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { MemberPicker } from "../../ui/MemberPicker";
import { useSearch } from "../../ui/router";
import { Field, FormError, fieldError, NameForm, Select } from "../../ui/ui";
import { addOrgUnitMembers, deleteOrgUnit, orgKeys, orgUnitMembersQuery, removeOrgUnitMember, updateOrgUnit } from "./queries";

export type Unit = {
  id: string;
  parentId: string | null;
  name: string;
  order: number;
  memberCount: number;
  leaderUserId: string | null;
  leaderName: string | null;
};

/** The unit and every unit under it: the parents it cannot move to (the server refuses them too). */
function selfAndBelow(units: Unit[], id: string): Set<string> {
  const out = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const u of units)
      if (u.parentId && out.has(u.parentId) && !out.has(u.id)) {
        out.add(u.id);
        grew = true;
      }
  }
  return out;
}

/** One unit: rename, move (another parent, order among siblings), leader (one of its members), members, delete. */
export function UnitDetail({ unit, units, manage }: { unit: Unit; units: Unit[]; manage: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const { set } = useSearch();
  const [name, setName] = useState<string | null>(null);
  const [place, setPlace] = useState({ parentId: unit.parentId ?? "", order: String(unit.order) });
  const members = useInfiniteQuery(orgUnitMembersQuery(unit.id));
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: orgKeys.unitMembers(unit.id) });
    void qc.invalidateQueries({ queryKey: orgKeys.units });
  };
  const update = useMutation({
    mutationFn: (body: { name?: string; parentId?: string | null; order?: number; leaderUserId?: string | null }) =>
      updateOrgUnit({ params: { path: { orgUnitId: unit.id } }, body }),
    onSuccess: refresh,
  });
  const add = useMutation({
    mutationFn: (id: string) => addOrgUnitMembers({ params: { path: { orgUnitId: unit.id } }, body: { userIds: [id] } }),
    onSuccess: refresh,
  });
  const removeMember = useMutation({
    mutationFn: (id: string) => removeOrgUnitMember({ params: { path: { orgUnitId: unit.id, userPkId: id } } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => deleteOrgUnit({ params: { path: { orgUnitId: unit.id } } }),
    onSuccess: () => {
      set({ open: null });
      void qc.invalidateQueries({ queryKey: orgKeys.units });
    },
  });
  const blocked = selfAndBelow(units, unit.id);
  const list = members.data?.pages.flatMap((p) => p.members) ?? [];
  return (
    <div className="panel">
      <h2>{unit.name}</h2>
      {manage && (
        <>
          <NameForm
            label={t("org.name")}
            required
            value={name ?? unit.name}
            onChange={setName}
            onSubmit={() => update.mutate({ name: name ?? unit.name })}
            error={update.error}
            submitLabel={t("org.rename")}
          />
          <form
            className="inline"
            aria-label={t("org.move")}
            onSubmit={(e) => {
              e.preventDefault();
              update.mutate({ parentId: place.parentId || null, order: Number(place.order) });
            }}
          >
            <Select
              label={t("org.parent")}
              value={place.parentId}
              onChange={(v) => setPlace({ ...place, parentId: v })}
              options={[
                { value: "", label: t("org.noParent") },
                ...units.filter((u) => !blocked.has(u.id)).map((u) => ({ value: u.id, label: u.name })),
              ]}
            />
            <Field
              label={t("org.order")}
              type="number"
              step={1}
              className="narrow"
              value={place.order}
              onChange={(e) => setPlace({ ...place, order: e.target.value })}
              error={fieldError(update.error, "order", t) ?? fieldError(update.error, "parentId", t)}
            />
            <button type="submit">{t("org.moveHere")}</button>
          </form>
          <Select
            label={t("org.leader")}
            value={unit.leaderUserId ?? ""}
            onChange={(v) => update.mutate({ leaderUserId: v || null })}
            options={[
              { value: "", label: t("org.noLeader") },
              ...(unit.leaderUserId && !list.some((m) => m.id === unit.leaderUserId)
                ? [{ value: unit.leaderUserId, label: unit.leaderName ?? unit.leaderUserId }]
                : []),
              ...list.map((m) => ({ value: m.id, label: m.displayName })),
            ]}
          />
          {update.isSuccess && <p role="status">{t("common.saved")}</p>}
          <FormError error={update.error} fields={["name", "order", "parentId"]} />
        </>
      )}
      {!manage && unit.leaderName && <p>{t("org.leaderIs", { name: unit.leaderName })}</p>}
      <h3>{t("org.memberCount", { count: unit.memberCount })}</h3>
      <DataTable
        label={t("org.members", { name: unit.name })}
        columns={[
          {
            key: "name",
            header: t("members.name"),
            cell: (m) => (
              <>
                {m.displayName} {m.id === unit.leaderUserId && <span className="badge">{t("org.leader")}</span>}
              </>
            ),
          },
          { key: "id", header: t("members.userId"), cell: (m) => m.userId ?? m.email ?? "—" },
          ...(manage
            ? [
                {
                  key: "remove",
                  header: t("common.actions"),
                  cell: (m: (typeof list)[number]) => (
                    <button type="button" className="small" onClick={() => removeMember.mutate(m.id)}>
                      {t("common.remove")}
                    </button>
                  ),
                },
              ]
            : []),
        ]}
        rows={list}
        rowKey={(m) => m.id}
      />
      {members.hasNextPage && (
        <button type="button" onClick={() => void members.fetchNextPage()} disabled={members.isFetchingNextPage}>
          {t("list.more")}
        </button>
      )}
      {manage && <MemberPicker label={t("groups.addMember")} onPick={(m) => add.mutate(m.id)} />}
      <FormError error={add.error ?? removeMember.error ?? remove.error} fields={[]} />
      {manage && (
        <button type="button" className="danger" onClick={() => window.confirm(t("org.confirmDelete")) && remove.mutate()}>
          {t("org.deleteUnit")}
        </button>
      )}
    </div>
  );
}
