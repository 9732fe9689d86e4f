import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError } from "../../api/problem";
import { roleLabel, useI18n } from "../../i18n";
import { FormError, Modal } from "../../ui/ui";
import { useRoles } from "../members/queries";
import { checkInvitationEmails, createInvitations, invitationKeys } from "./queries";

/** The addresses typed in the box: one per line, or separated by commas, semicolons or spaces. */
const parseEmails = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((e) => e.trim())
    .filter(Boolean);

/** The addresses a 400 names by their place in the list (`emails[2]`), as typed. */
const badAddresses = (errors: { field: string }[], text: string) => {
  const list = parseEmails(text);
  return errors.flatMap((e) => {
    const i = e.field.match(/\[(\d+)\]/)?.[1];
    return i !== undefined && list[Number(i)] ? [list[Number(i)] as string] : [];
  });
};

/** createInvitations for the typed addresses; checkInvitationEmails first shows who is already a member or invited. */
export function SendDialog({
  open,
  onOpenChange,
  rolesEnabled,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  rolesEnabled: boolean;
}) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const roles = useRoles(rolesEnabled);
  const [emails, setEmails] = useState("");
  const [roleKey, setRoleKey] = useState("member");
  const send = useMutation({
    mutationFn: () => createInvitations({ body: { emails: parseEmails(emails), roleKey } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: invitationKeys.all }),
  });
  const check = useMutation({
    mutationFn: () => checkInvitationEmails({ body: { emails: parseEmails(emails) } }),
  });
  const error = send.error ?? check.error;
  const bad = error instanceof ApiError ? error.errors : [];
  const taken = check.data?.results.filter((r) => r.status !== "enable") ?? [];
  // Closing (Done, Esc, ×) forgets this round, so the next opening starts with an empty form.
  const close = () => {
    onOpenChange(false);
    send.reset();
    check.reset();
    setEmails("");
  };
  return (
    <Modal open={open} onOpenChange={(o) => (o ? onOpenChange(true) : close())} title={t("invitations.send")}>
      {send.data ? (
        <div role="status">
          <p>{t("invitations.sentCount", { count: send.data.invited.length })}</p>
          {send.data.failed.length > 0 && (
            <ul>
              {send.data.failed.map((f) => (
                <li key={f.email} className="error">
                  {f.email}: {t(`invitations.failReason.${f.reason}`)}
                </li>
              ))}
            </ul>
          )}
          <button type="button" onClick={close}>
            {t("common.done")}
          </button>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <div className="field">
            <label htmlFor="inv-emails">{t("invitations.emails")}</label>
            <textarea
              id="inv-emails"
              name="emails"
              rows={5}
              required
              value={emails}
              onChange={(e) => {
                setEmails(e.target.value);
                check.reset();
                send.reset(); // a problem named an address of the old text: it goes with the edit
              }}
              aria-invalid={bad.length > 0 || undefined}
            />
            <small>{t("invitations.emailsHint")}</small>
            {bad.length > 0 && (
              <small className="error">
                {t("invitations.badEmails", { count: bad.length, list: badAddresses(bad, emails).join(", ") })}
              </small>
            )}
          </div>
          {check.data && (
            <section aria-label={t("invitations.checkResults")} className="check-results">
              <p role="status">{t("invitations.checkSummary", { ok: check.data.results.length - taken.length, taken: taken.length })}</p>
              <table>
                <thead>
                  <tr>
                    <th>{t("invitations.email")}</th>
                    <th>{t("invitations.checkStatus")}</th>
                  </tr>
                </thead>
                <tbody>
                  {check.data.results.map((r) => (
                    <tr key={r.email}>
                      <td>{r.email}</td>
                      <td className={r.status === "enable" ? undefined : "error"}>{t(`invitations.checkStatuses.${r.status}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {taken.length > 0 && (
                <button
                  type="button"
                  onClick={() =>
                    setEmails(
                      check.data.results
                        .filter((r) => r.status === "enable")
                        .map((r) => r.email)
                        .join("\n"),
                    )
                  }
                >
                  {t("invitations.leaveOut")}
                </button>
              )}
            </section>
          )}
          <div className="field">
            <label htmlFor="inv-role">{t("invitations.role")}</label>
            <select id="inv-role" value={roleKey} onChange={(e) => setRoleKey(e.target.value)}>
              {(roles.data?.roles ?? [{ key: "member", name: t("members.defaultRole") }]).map((r) => (
                <option key={r.key} value={r.key}>
                  {roleLabel(r, t)}
                </option>
              ))}
            </select>
          </div>
          <FormError error={error} fields={["emails"]} />
          <div className="actions">
            <button type="button" disabled={check.isPending || !emails.trim()} onClick={() => check.mutate()}>
              {t("invitations.check")}
            </button>
            <button type="submit" className="primary" disabled={send.isPending}>
              {t("invitations.send")}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
