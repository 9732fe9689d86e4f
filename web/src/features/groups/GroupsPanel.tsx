import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { ListResult, SearchBox, UrlPager } from "../../ui/ListControls";
import { MemberPicker } from "../../ui/MemberPicker";
import { pageOf, useSearch } from "../../ui/router";
import { FormError, Loading, NameForm } from "../../ui/ui";
import { groupCalls, groupKeys, groupQuery, groupsQuery, type Kind } from "./queries";

export function GroupsPanel({ kind }: { kind: Kind }) {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const { search, get, set } = useSearch();
  const manage = can(user, "member:manage");
  const query = { page: pageOf(search), pageSize: 20, search: get("q") ?? undefined };
  const list = useQuery({ ...groupsQuery(kind, query), placeholderData: keepPreviousData });
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => groupCalls.create(kind, name),
    onSuccess: (g) => {
      setName("");
      void qc.invalidateQueries({ queryKey: groupKeys.all });
      set({ open: g.id });
    },
  });
  const open = get("open");
  return (
    <div className="split">
      <div>
        <SearchBox label={t("groups.search")} />
        <ListResult query={list}>
          {(data) => (
            <>
              <DataTable
                label={kind === "grant" ? t("groups.groups") : t("groups.plainGroups")}
                columns={[
                  {
                    key: "name",
                    header: t("groups.name"),
                    cell: (g) => (
                      <button
                        type="button"
                        className="link"
                        aria-current={g.id === open ? "true" : undefined}
                        onClick={() => set({ open: g.id })}
                      >
                        {g.name}
                      </button>
                    ),
                  },
                  { key: "members", header: t("groups.memberCount"), cell: (g) => g.memberCount },
                ]}
                rows={data.items}
                rowKey={(g) => g.id}
              />
              <UrlPager page={data.page} totalPages={data.totalPages} />
            </>
          )}
        </ListResult>
        {manage && (
          <NameForm
            label={t("groups.newName")}
            required
            value={name}
            onChange={setName}
            onSubmit={() => create.mutate()}
            error={create.error}
            submitLabel={t("common.create")}
          >
            <FormError error={create.error} fields={["name"]} />
          </NameForm>
        )}
      </div>
      {open && <GroupDetail key={open} kind={kind} id={open} manage={manage} />}
    </div>
  );
}

function GroupDetail({ kind, id, manage }: { kind: Kind; id: string; manage: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const { set } = useSearch();
  const group = useQuery(groupQuery(kind, id));
  const [name, setName] = useState<string | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: groupKeys.detail(kind, id) });
    void qc.invalidateQueries({ queryKey: groupKeys.all });
  };
  const rename = useMutation({ mutationFn: () => groupCalls.rename(kind, id, name ?? ""), onSuccess: refresh });
  const add = useMutation({ mutationFn: (memberId: string) => groupCalls.addMembers(kind, id, [memberId]), onSuccess: refresh });
  const removeMember = useMutation({ mutationFn: (memberId: string) => groupCalls.removeMember(kind, id, memberId), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => groupCalls.remove(kind, id),
    onSuccess: () => {
      set({ open: null });
      void qc.invalidateQueries({ queryKey: groupKeys.all });
    },
  });
  if (!group.data) return <Loading />;
  const g = group.data;
  return (
    <div className="panel">
      <h2>{g.name}</h2>
      {manage && (
        <NameForm
          label={t("groups.name")}
          value={name ?? g.name}
          onChange={setName}
          onSubmit={() => rename.mutate()}
          error={rename.error}
          submitLabel={t("common.save")}
        />
      )}
      <h3>{t("groups.members", { count: g.memberCount })}</h3>
      <ul className="list">
        {g.members.map((m) => (
          <li key={m.id}>
            {m.displayName} <small className="muted">{m.userId ?? m.email}</small>{" "}
            {manage && (
              <button type="button" className="small" onClick={() => removeMember.mutate(m.id)}>
                {t("common.remove")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {manage && <MemberPicker label={t("groups.addMember")} onPick={(m) => add.mutate(m.id)} />}
      <FormError error={rename.error ?? add.error ?? removeMember.error ?? remove.error} fields={["name"]} />
      {manage && (
        <button type="button" className="danger" onClick={() => window.confirm(t("groups.confirmDelete")) && remove.mutate()}>
          {t("common.delete")}
        </button>
      )}
    </div>
  );
}
