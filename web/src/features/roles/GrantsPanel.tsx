import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { MemberPicker } from "../../ui/MemberPicker";
import { useSearch } from "../../ui/router";
import { FormError, Loading } from "../../ui/ui";
import { pickableGroupsQuery } from "../groups/queries";
import { addGrantSubject, grantQuery, grantsQuery, removeGrantSubject, roleKeys, setGrantAllEnabled } from "./queries";

/** Permission grants: to everyone (allEnabled), to groups, to single members. */
export function GrantsPanel() {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const grants = useQuery(grantsQuery());
  if (!grants.data) return <Loading />;
  const code = get("grant");
  return (
    <div className="split">
      <DataTable
        label={t("roles.grants")}
        rows={grants.data.grants}
        rowKey={(g) => g.code}
        columns={[
          {
            key: "permission",
            header: t("roles.permission"),
            cell: (g) => (
              <button type="button" className="link" onClick={() => set({ grant: g.code })}>
                {t(`permissions.${g.code}`)}
              </button>
            ),
          },
          { key: "everyone", header: t("roles.everyone"), cell: (g) => (g.allEnabled ? t("common.yes") : t("common.no")) },
          { key: "groups", header: t("roles.groupCount"), cell: (g) => g.groupTotal },
          { key: "members", header: t("roles.memberCount"), cell: (g) => g.memberTotal },
        ]}
      />
      {code && <GrantEditor key={code} code={code} />}
    </div>
  );
}

function GrantEditor({ code }: { code: string }) {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const manage = can(user, "role:manage");
  const grant = useQuery(grantQuery(code));
  const groups = useQuery(pickableGroupsQuery());
  const [groupId, setGroupId] = useState("");
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: roleKeys.grant(code) });
    void qc.invalidateQueries({ queryKey: roleKeys.grants });
  };
  const all = useMutation({
    mutationFn: (enabled: boolean) => setGrantAllEnabled({ params: { path: { code } }, body: { enabled } }),
    onSuccess: refresh,
  });
  const add = useMutation({
    mutationFn: (s: { subjectType: "GROUP" | "MEMBER"; subjectId: string }) => addGrantSubject({ params: { path: { code } }, body: s }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (s: { subjectType: "GROUP" | "MEMBER"; subjectId: string }) => removeGrantSubject({ params: { path: { code } }, body: s }),
    onSuccess: refresh,
  });
  if (!grant.data) return <Loading />;
  const g = grant.data;
  return (
    <div className="panel">
      <h2>{t(`permissions.${code}`)}</h2>
      <label className="check">
        <input type="checkbox" disabled={!manage} checked={g.allEnabled} onChange={(e) => all.mutate(e.target.checked)} />
        {t("roles.grantEveryone")}
      </label>
      <h3>{t("roles.groups")}</h3>
      <ul className="list">
        {g.groups.map((x) => (
          <li key={x.id}>
            {x.name}{" "}
            {manage && (
              <button type="button" className="small" onClick={() => remove.mutate({ subjectType: "GROUP", subjectId: x.id })}>
                {t("common.remove")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {manage && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (groupId) add.mutate({ subjectType: "GROUP", subjectId: groupId });
          }}
        >
          <label>
            {t("roles.addGroup")}
            <select value={groupId} onChange={(e) => setGroupId(e.target.value)}>
              <option value="">—</option>
              {(groups.data?.groups ?? []).map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{t("common.add")}</button>
        </form>
      )}
      <h3>{t("roles.members")}</h3>
      <ul className="list">
        {g.members.map((m) => (
          <li key={m.id}>
            {m.displayName} <small className="muted">{m.userId}</small>{" "}
            {manage && (
              <button type="button" className="small" onClick={() => remove.mutate({ subjectType: "MEMBER", subjectId: m.id })}>
                {t("common.remove")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {manage && <MemberPicker label={t("roles.addMember")} onPick={(m) => add.mutate({ subjectType: "MEMBER", subjectId: m.id })} />}
      <FormError error={all.error ?? add.error ?? remove.error} fields={[]} />
    </div>
  );
}
