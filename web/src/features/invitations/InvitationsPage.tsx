import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { can, useUser } from "../../app/session";
import { roleLabel, useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { FormError, formatDate, Loading, Pager, useProblemText } from "../../ui/ui";
import { bulkCancelInvitations, bulkResendInvitations, invitationKeys, invitationsQuery, resendInvitation } from "./queries";
import { SendDialog } from "./SendDialog";

const STATUSES = ["pending", "accepted", "cancelled", "expired"] as const;
type Status = (typeof STATUSES)[number];
/** listInvitations' sort keys and directions, as one choice each ("field.dir" in the URL). */
const SORTS = ["createdAt.desc", "createdAt.asc", "email.asc", "email.desc"] as const;

/** listInvitations by status, search and sort (in the URL); send (after checking the addresses), resend, cancel. */
export default function InvitationsPage() {
  const { t, lang } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const problem = useProblemText();
  const { get, set } = useSearch();
  const sort = SORTS.find((x) => x === get("sort")) ?? SORTS[0];
  const [sortBy, sortDir] = sort.split(".") as [string, "asc" | "desc"];
  const query = {
    page: Number(get("page") ?? "1") || 1,
    pageSize: 20,
    status: (get("status") ?? undefined) as Status | undefined,
    search: get("q") ?? undefined,
    sortBy,
    sortDir,
  };
  const list = useQuery({ ...invitationsQuery(query), placeholderData: keepPreviousData });
  const [sending, setSending] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const refresh = () => void qc.invalidateQueries({ queryKey: invitationKeys.all });
  const resend = useMutation({
    mutationFn: (id: string) => resendInvitation({ params: { path: { invitationId: id } } }),
    onSuccess: refresh,
  });
  const bulkResend = useMutation({
    mutationFn: (ids: string[]) => bulkResendInvitations({ body: { ids } }),
    onSuccess: () => {
      setSelected(new Set());
      refresh();
    },
  });
  const cancel = useMutation({
    mutationFn: (ids: string[]) => bulkCancelInvitations({ body: { ids } }),
    onSuccess: () => {
      setSelected(new Set());
      refresh();
    },
  });
  return (
    <section>
      <div className="title-row">
        <h1>{t("invitations.title")}</h1>
        <button type="button" className="primary" onClick={() => setSending(true)}>
          {t("invitations.send")}
        </button>
      </div>
      <div className="filters">
        <label>
          {t("invitations.status")}
          <select value={get("status") ?? ""} onChange={(e) => set({ status: e.target.value, page: null })}>
            <option value="">{t("common.all")}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`invitations.statuses.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("invitations.sort")}
          <select value={sort} onChange={(e) => set({ sort: e.target.value === SORTS[0] ? null : e.target.value, page: null })}>
            {SORTS.map((x) => (
              <option key={x} value={x}>
                {t(`invitations.sorts.${x.replace(".", "_")}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("invitations.search")}
          <input
            type="search"
            defaultValue={get("q") ?? ""}
            onKeyDown={(e) => e.key === "Enter" && set({ q: e.currentTarget.value, page: null })}
          />
        </label>
      </div>
      {selected.size > 0 && (
        <section className="bulk" aria-label={t("members.selection")}>
          <span>{t("members.selected", { count: selected.size })}</span>
          <button type="button" onClick={() => bulkResend.mutate([...selected])}>
            {t("invitations.resend")}
          </button>
          <button type="button" className="danger" onClick={() => cancel.mutate([...selected])}>
            {t("invitations.cancel")}
          </button>
        </section>
      )}
      <FormError error={resend.error ?? bulkResend.error ?? cancel.error} fields={[]} />
      {(resend.isSuccess || bulkResend.isSuccess) && <p role="status">{t("invitations.resent")}</p>}
      {!list.data ? (
        list.error ? (
          <p role="alert" className="error">
            {problem(list.error)}
          </p>
        ) : (
          <Loading />
        )
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th>
                  <span className="sr-only">{t("members.selectAll")}</span>
                </th>
                <th>{t("invitations.email")}</th>
                <th>{t("invitations.role")}</th>
                <th>{t("invitations.status")}</th>
                <th>{t("invitations.sentAt")}</th>
                <th>{t("invitations.expiresAt")}</th>
                <th>
                  <span className="sr-only">{t("common.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.invitations.map((i) => (
                <tr key={i.id}>
                  <td>
                    {i.status === "pending" && (
                      <input
                        type="checkbox"
                        aria-label={t("members.select", { name: i.email })}
                        checked={selected.has(i.id)}
                        onChange={(e) => {
                          const next = new Set(selected);
                          if (e.target.checked) next.add(i.id);
                          else next.delete(i.id);
                          setSelected(next);
                        }}
                      />
                    )}
                  </td>
                  <td>{i.email}</td>
                  <td>{roleLabel(i.role, t)}</td>
                  <td>{t(`invitations.statuses.${i.status}`)}</td>
                  <td>{formatDate(i.sentAt, lang)}</td>
                  <td>{formatDate(i.expiresAt, lang)}</td>
                  <td>
                    {i.status === "pending" && (
                      <>
                        <button type="button" className="small" onClick={() => resend.mutate(i.id)}>
                          {t("invitations.resend")}
                        </button>{" "}
                        <button type="button" className="small danger" onClick={() => cancel.mutate([i.id])}>
                          {t("invitations.cancel")}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data.invitations.length === 0 && <p>{t("common.empty")}</p>}
          <Pager page={list.data.page} totalPages={list.data.totalPages} onPage={(p) => set({ page: String(p) })} />
        </>
      )}
      <SendDialog open={sending} onOpenChange={setSending} rolesEnabled={can(user, "role:read")} />
    </section>
  );
}
