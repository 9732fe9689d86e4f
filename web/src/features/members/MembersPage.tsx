import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { useSearch } from "../../shell/router";
import { can, useUser } from "../../shell/session";
import { FormError, formatDate, Loading, Pager, useProblemText } from "../../shell/ui";
import { CreateMemberDialog } from "./CreateMemberDialog";
import { ImportMembersDialog } from "./ImportMembersDialog";
import { membersListQuery } from "./listQuery";
import { MemberDialog } from "./MemberDialog";
import { useMemberFields, useRoles } from "./queries";

const SORTS = ["createdAt", "displayName", "userId", "email", "lastLoginAt", "isActive"] as const;

/** listMembers with every filter and sort in the URL; create, open one, bulk delete. */
export default function MembersPage() {
  const { t, lang } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const problem = useProblemText();
  const { search: params, get, set } = useSearch();
  const sortBy = get("sort") ?? "createdAt";
  const sortDir = (get("dir") ?? "desc") as "asc" | "desc";
  const fieldId = get("field") ?? "";
  const list = useQuery({ ...membersListQuery(params), placeholderData: keepPreviousData });
  const roles = useRoles(can(user, "role:read"));
  const fields = useMemberFields();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [search, setSearchText] = useState(get("q") ?? "");
  const remove = useMutation({
    mutationFn: async (ids: string[]) => {
      const deleted: string[] = [];
      const failed: { userPkId: string; reason: string }[] = [];
      // deleteMembers takes at most 10 ids a call.
      for (let i = 0; i < ids.length; i += 10) {
        const r = await ok(api.POST("/api/v1/members/bulk-delete", { body: { userPkIds: ids.slice(i, i + 10) } }));
        deleted.push(...r.deleted);
        failed.push(...r.failed);
      }
      return { deleted, failed };
    },
    onSuccess: () => {
      setSelected(new Set());
      void qc.invalidateQueries({ queryKey: ["members"] });
    },
  });
  const names = new Map((list.data?.members ?? []).map((m) => [m.id, m.displayName]));
  const sortHeader = (key: (typeof SORTS)[number], label: string) => (
    <th aria-sort={sortBy === key ? (sortDir === "asc" ? "ascending" : "descending") : undefined}>
      <button
        type="button"
        className="link"
        onClick={() => set({ sort: key, dir: sortBy === key && sortDir === "desc" ? "asc" : "desc", page: null })}
      >
        {label}
        {sortBy === key ? (sortDir === "asc" ? " ▲" : " ▼") : ""}
      </button>
    </th>
  );
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
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          set({ q: search, page: null });
        }}
      >
        <label>
          {t("members.search")}
          <input type="search" value={search} onChange={(e) => setSearchText(e.target.value)} />
        </label>
        <label>
          {t("members.role")}
          <select value={get("role") ?? ""} onChange={(e) => set({ role: e.target.value, page: null })}>
            <option value="">{t("common.all")}</option>
            {(roles.data?.roles ?? []).map((r) => (
              <option key={r.key} value={r.key}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("members.status")}
          <select value={get("status") ?? ""} onChange={(e) => set({ status: e.target.value, page: null })}>
            <option value="">{t("common.all")}</option>
            <option value="active">{t("members.active")}</option>
            <option value="inactive">{t("members.inactive")}</option>
          </select>
        </label>
        <label>
          {t("members.issued")}
          <select value={get("issued") ?? ""} onChange={(e) => set({ issued: e.target.value, page: null })}>
            <option value="">{t("common.all")}</option>
            <option value="true">{t("members.issuedYes")}</option>
            <option value="false">{t("members.issuedNo")}</option>
          </select>
        </label>
        {(fields.data?.fields ?? []).length > 0 && (
          <>
            <label>
              {t("members.field")}
              <select value={fieldId} onChange={(e) => set({ field: e.target.value, value: null, page: null })}>
                <option value="">—</option>
                {(fields.data?.fields ?? []).map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
            {fieldId && (
              <label>
                {t("members.fieldValue")}
                <input defaultValue={get("value") ?? ""} onBlur={(e) => set({ value: e.target.value, page: null })} />
              </label>
            )}
          </>
        )}
        <button type="submit">{t("members.apply")}</button>
      </form>
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
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <p role="alert" className="error">
          {problem(list.error)}
        </p>
      ) : (
        <>
          <p className="muted">{t("members.total", { count: list.data.total })}</p>
          <table>
            <thead>
              <tr>
                <th>
                  <input
                    type="checkbox"
                    aria-label={t("members.selectAll")}
                    checked={list.data.members.length > 0 && list.data.members.every((m) => selected.has(m.id))}
                    onChange={(e) => setSelected(e.target.checked ? new Set(list.data.members.map((m) => m.id)) : new Set())}
                  />
                </th>
                {sortHeader("displayName", t("members.name"))}
                {sortHeader("userId", t("members.userId"))}
                {sortHeader("email", t("members.email"))}
                <th>{t("members.role")}</th>
                {sortHeader("isActive", t("members.status"))}
                {sortHeader("lastLoginAt", t("members.lastLogin"))}
                {sortHeader("createdAt", t("members.created"))}
              </tr>
            </thead>
            <tbody>
              {list.data.members.map((m) => (
                <tr key={m.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t("members.select", { name: m.displayName })}
                      checked={selected.has(m.id)}
                      onChange={(e) => {
                        const next = new Set(selected);
                        if (e.target.checked) next.add(m.id);
                        else next.delete(m.id);
                        setSelected(next);
                      }}
                    />
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => set({ open: m.id })}>
                      {m.displayName}
                    </button>
                  </td>
                  <td>{m.userId ?? "—"}</td>
                  <td>{m.email ?? "—"}</td>
                  <td>{m.role.name}</td>
                  <td>{m.isActive ? t("members.active") : t("members.inactive")}</td>
                  <td>{formatDate(m.lastLoginAt, lang)}</td>
                  <td>{formatDate(m.createdAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data.members.length === 0 && <p>{t("common.empty")}</p>}
          <Pager page={list.data.page} totalPages={list.data.totalPages} onPage={(p) => set({ page: String(p) })} />
        </>
      )}
      {importing && <ImportMembersDialog open onOpenChange={setImporting} />}
      <CreateMemberDialog open={creating} onOpenChange={setCreating} roles={roles.data?.roles ?? []} />
      {get("open") && <MemberDialog id={get("open") as string} onClose={() => set({ open: null })} />}
    </section>
  );
}
