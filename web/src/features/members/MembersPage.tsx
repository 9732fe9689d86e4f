import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { ListResult, UrlPager } from "../../ui/ListControls";
import { useSearch } from "../../ui/router";
import { FormError } from "../../ui/ui";
import { CreateMemberDialog } from "./CreateMemberDialog";
import { memberColumns } from "./columns";
import { ImportMembersDialog } from "./ImportMembersDialog";
import { MemberDialog } from "./MemberDialog";
import { MemberFilters } from "./MemberFilters";
import { deleteMembers, memberKeys, membersListQuery, PAGE_SIZES, useMemberFieldDisplay, useMemberFields, useRoles } from "./queries";

/** listMembers with every filter and sort in the URL, columns as the field display says; create, open one, bulk delete. */
export default function MembersPage() {
  const { t, lang } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const { search: params, get, set } = useSearch();
  const list = useQuery({ ...membersListQuery(params), placeholderData: keepPreviousData });
  const roles = useRoles(can(user, "role:read"));
  const fields = useMemberFields();
  const display = useMemberFieldDisplay();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const remove = useMutation({
    mutationFn: async (ids: string[]) => {
      const deleted: string[] = [];
      const failed: { userPkId: string; reason: string }[] = [];
      // deleteMembers takes at most 10 ids a call.
      for (let i = 0; i < ids.length; i += 10) {
        const r = await deleteMembers({ body: { userPkIds: ids.slice(i, i + 10) } });
        deleted.push(...r.deleted);
        failed.push(...r.failed);
      }
      return { deleted, failed };
    },
    onSuccess: () => {
      setSelected(new Set());
      void qc.invalidateQueries({ queryKey: memberKeys.all });
    },
  });
  const names = new Map((list.data?.members ?? []).map((m) => [m.id, m.displayName]));
  const columns = memberColumns({
    t,
    lang,
    fields: fields.data?.fields ?? [],
    display: display.data?.items,
    open: (id) => set({ open: id }),
  });
  return (
    <section>
      <div className="title-row">
        <h1>{t("members.title")}</h1>
        <div className="actions">
          {can(user, "member:manage") && (
            <button type="button" onClick={() => setImporting(true)}>
              {t("import.open")}
            </button>
          )}
          {can(user, "member:invite") && (
            <button type="button" className="primary" onClick={() => setCreating(true)}>
              {t("members.create")}
            </button>
          )}
        </div>
      </div>
      <MemberFilters roles={roles.data?.roles ?? []} fields={fields.data?.fields ?? []} />
      {selected.size > 0 && can(user, "member:remove") && (
        <section className="bulk" aria-label={t("members.selection")}>
          <span>{t("members.selected", { count: selected.size })}</span>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(t("members.confirmDelete", { count: selected.size }))) remove.mutate([...selected]);
            }}
          >
            {t("members.delete")}
          </button>
        </section>
      )}
      {remove.error ? <FormError error={remove.error} fields={[]} /> : null}
      {remove.data && (
        <div role="status" className="result">
          <p>{t("members.deleted", { count: remove.data.deleted.length })}</p>
          {remove.data.failed.length > 0 && (
            <ul>
              {remove.data.failed.map((f) => (
                <li key={f.userPkId} className="error">
                  {names.get(f.userPkId) ?? f.userPkId}: {t(`members.deleteReason.${f.reason}`)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ListResult query={list}>
        {(data) => (
          <>
            <p className="muted" role="status">
              {t("members.total", { count: data.total })}
            </p>
            <DataTable
              label={t("members.title")}
              columns={columns}
              rows={data.members}
              rowKey={(m) => m.id}
              defaultSort={{ by: "createdAt", dir: "desc" }}
              selection={{
                selected,
                onChange: setSelected,
                rowLabel: (m) => t("members.select", { name: m.displayName }),
                allLabel: t("members.selectAll"),
              }}
            />
            <UrlPager page={data.page} totalPages={data.totalPages} sizes={PAGE_SIZES} />
          </>
        )}
      </ListResult>
      {importing && <ImportMembersDialog open onOpenChange={setImporting} />}
      <CreateMemberDialog open={creating} onOpenChange={setCreating} roles={roles.data?.roles ?? []} />
      {get("open") && <MemberDialog id={get("open") as string} onClose={() => set({ open: null })} />}
    </section>
  );
}
