import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { can, useUser } from "../../app/session";
import { roleLabel, useI18n } from "../../i18n";
import { Field, FormError, fieldError, formatDate, Loading, Modal } from "../../ui/ui";
import { MemberGuardians } from "../guardians/MemberGuardians";
import { HandOver } from "./HandOver";
import { MemberPosition } from "./MemberPosition";
import {
  memberKeys,
  memberQuery,
  resetMemberPassword,
  setMemberFieldValues,
  setMemberRole,
  updateMember,
  useMemberFields,
  useRoles,
} from "./queries";

/** One member (its id in the URL as ?open=): edit, custom field values, reset password. */
export function MemberDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t, lang } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const member = useQuery(memberQuery(id));
  const fields = useMemberFields();
  const [form, setForm] = useState({ displayName: "", affiliation: "", externalMemberCode: "", email: "", userId: "" });
  const [roleKey, setRoleKey] = useState("");
  const [values, setValues] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!member.data) return;
    setForm({
      displayName: member.data.displayName,
      affiliation: member.data.affiliation ?? "",
      externalMemberCode: member.data.externalMemberCode ?? "",
      email: member.data.email ?? "",
      userId: member.data.userId ?? "",
    });
    setRoleKey(member.data.role.key);
    setValues(
      Object.fromEntries(
        member.data.fieldValues.map((v) => [
          v.fieldId,
          v.valueText ?? (v.valueNumber !== null ? String(v.valueNumber) : (v.valueDate ?? "").slice(0, 10)),
        ]),
      ),
    );
  }, [member.data]);
  const done = () => {
    void qc.invalidateQueries({ queryKey: memberKeys.all });
    void qc.invalidateQueries({ queryKey: memberKeys.detail(id) });
  };
  const save = useMutation({
    mutationFn: () => {
      // The login identity is sent only when it changed: changing it is a takeover the server checks (docs/rules/console.md#member-edit).
      const email = form.email.trim() || null;
      const userId = form.userId.trim();
      return updateMember({
        params: { path: { userPkId: id } },
        body: {
          displayName: form.displayName,
          affiliation: form.affiliation || null,
          externalMemberCode: form.externalMemberCode || null,
          ...(email !== (member.data?.email ?? null) ? { email } : {}),
          ...(userId && userId !== (member.data?.userId ?? "") ? { userId } : {}),
        },
      });
    },
    onSuccess: done,
  });
  const saveValues = useMutation({
    mutationFn: () => {
      const body = (fields.data?.fields ?? [])
        .filter((f) => f.isActive)
        .map((f) => {
          const raw = values[f.id] ?? "";
          if (f.type === "NUMBER") return { fieldId: f.id, valueNumber: raw === "" ? null : Number(raw) };
          if (f.type === "DATE") return { fieldId: f.id, valueDate: raw === "" ? null : new Date(`${raw}T00:00:00.000Z`).toISOString() };
          return { fieldId: f.id, valueText: raw === "" ? null : raw };
        });
      return setMemberFieldValues({ params: { path: { userPkId: id } }, body: { values: body } });
    },
    onSuccess: done,
  });
  const setActive = useMutation({
    mutationFn: (isActive: boolean) => updateMember({ params: { path: { userPkId: id } }, body: { isActive } }),
    onSuccess: done,
  });
  const changeRole = useMutation({
    mutationFn: () => setMemberRole({ params: { path: { userPkId: id } }, body: { roleKey } }),
    onSuccess: done,
  });
  const roles = useRoles(can(user, "member:manage-role") && can(user, "role:read"));
  const reset = useMutation({
    mutationFn: () => resetMemberPassword({ params: { path: { userPkId: id } }, body: {} }),
  });
  const manage = can(user, "member:manage");
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={member.data?.displayName ?? t("members.member")}>
      {!member.data ? (
        <Loading />
      ) : (
        <>
          <dl className="facts">
            <dt>{t("members.userId")}</dt>
            <dd>{member.data.userId ?? "—"}</dd>
            <dt>{t("members.email")}</dt>
            <dd>{member.data.email ?? "—"}</dd>
            <dt>{t("members.role")}</dt>
            <dd>{roleLabel(member.data.role, t)}</dd>
            <dt>{t("members.status")}</dt>
            <dd>{member.data.isActive ? t("members.active") : t("members.inactive")}</dd>
            <dt>{t("members.lastLogin")}</dt>
            <dd>{formatDate(member.data.lastLoginAt, lang)}</dd>
          </dl>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
          >
            <fieldset disabled={!manage}>
              <legend>{t("members.profile")}</legend>
              <Field
                label={t("members.name")}
                name="displayName"
                required
                value={form.displayName}
                onChange={(e) => setForm({ ...form, displayName: e.target.value })}
                error={fieldError(save.error, "displayName", t)}
              />
              <Field
                label={t("members.userId")}
                name="userId"
                value={form.userId}
                onChange={(e) => setForm({ ...form, userId: e.target.value })}
                error={fieldError(save.error, "userId", t)}
              />
              <Field
                label={t("members.email")}
                type="email"
                name="email"
                value={form.email}
                onChange={(e) => setForm({ ...form, email: e.target.value })}
                error={fieldError(save.error, "email", t)}
              />
              <Field
                label={t("members.affiliation")}
                value={form.affiliation}
                onChange={(e) => setForm({ ...form, affiliation: e.target.value })}
                error={fieldError(save.error, "affiliation", t)}
              />
              <Field
                label={t("members.externalCode")}
                value={form.externalMemberCode}
                onChange={(e) => setForm({ ...form, externalMemberCode: e.target.value })}
                error={fieldError(save.error, "externalMemberCode", t)}
              />
              <FormError error={save.error} fields={["displayName", "affiliation", "externalMemberCode", "email", "userId"]} />
              {save.isSuccess && <p role="status">{t("common.saved")}</p>}
              {manage && <button type="submit">{t("common.save")}</button>}
            </fieldset>
          </form>
          {(fields.data?.fields ?? []).some((f) => f.isActive) && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                saveValues.mutate();
              }}
            >
              <fieldset disabled={!manage}>
                <legend>{t("members.fieldValues")}</legend>
                {(fields.data?.fields ?? [])
                  .filter((f) => f.isActive)
                  .map((f, i) =>
                    f.type === "SELECT" ? (
                      <div className="field" key={f.id}>
                        <label htmlFor={`fv-${f.id}`}>{f.label}</label>
                        <select
                          id={`fv-${f.id}`}
                          value={values[f.id] ?? ""}
                          onChange={(e) => setValues({ ...values, [f.id]: e.target.value })}
                        >
                          <option value="">—</option>
                          {f.options.map((o) => (
                            <option key={o}>{o}</option>
                          ))}
                        </select>
                      </div>
                    ) : (
                      <Field
                        key={f.id}
                        label={f.label}
                        type={f.type === "NUMBER" ? "number" : f.type === "DATE" ? "date" : "text"}
                        value={values[f.id] ?? ""}
                        onChange={(e) => setValues({ ...values, [f.id]: e.target.value })}
                        error={fieldError(saveValues.error, `values[${i}]`, t)}
                      />
                    ),
                  )}
                <FormError error={saveValues.error} fields={["values"]} />
                {saveValues.isSuccess && <p role="status">{t("common.saved")}</p>}
                {manage && <button type="submit">{t("members.saveValues")}</button>}
              </fieldset>
            </form>
          )}
          {roles.data && (
            <form
              className="inline"
              onSubmit={(e) => {
                e.preventDefault();
                changeRole.mutate();
              }}
            >
              <label>
                {t("members.role")}
                <select value={roleKey} onChange={(e) => setRoleKey(e.target.value)}>
                  {roles.data.roles.map((r) => (
                    <option key={r.key} value={r.key}>
                      {roleLabel(r, t)}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={roleKey === member.data.role.key}>
                {t("members.changeRole")}
              </button>
              {changeRole.isSuccess && <span role="status">{t("common.saved")}</span>}
            </form>
          )}
          <MemberPosition memberId={id} positionId={member.data.positionId} manage={manage} />
          <MemberGuardians memberId={id} manage={manage && member.data.isActive} />
          <FormError error={changeRole.error ?? setActive.error} fields={[]} />
          {manage && (
            <div className="actions">
              <button
                type="button"
                className={member.data.isActive ? "danger" : undefined}
                disabled={setActive.isPending}
                onClick={() => {
                  const name = member.data.displayName;
                  if (!member.data.isActive || window.confirm(t("members.deactivateConfirm", { name })))
                    setActive.mutate(!member.data.isActive);
                }}
              >
                {member.data.isActive ? t("members.deactivate") : t("members.reactivate")}
              </button>
              <button
                type="button"
                onClick={() => window.confirm(t("members.resetConfirm", { name: member.data.displayName })) && reset.mutate()}
                disabled={reset.isPending}
              >
                {t("members.resetPassword")}
              </button>
              <FormError error={reset.error} fields={[]} />
              {reset.data && (
                <p role="status">
                  {t("members.tempPasswordOnce")} <code className="secret">{reset.data.tempPassword}</code>
                </p>
              )}
            </div>
          )}
          {manage && can(user, "tenant-settings:manage") && (
            <HandOver memberId={id} name={member.data.displayName} isActive={member.data.isActive} />
          )}
        </>
      )}
    </Modal>
  );
}
