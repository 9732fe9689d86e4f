import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Modal, Select } from "../../ui/ui";
import { createMember, memberKeys } from "./queries";

type Role = { key: string; name: string };
const FIELDS = ["displayName", "userId", "email", "roleKey", "password"];

/** createMember; the temporary password is shown once, then forgotten. */
export function CreateMemberDialog({ open, onOpenChange, roles }: { open: boolean; onOpenChange: (o: boolean) => void; roles: Role[] }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [form, setForm] = useState({ displayName: "", userId: "", email: "", roleKey: "member", password: "" });
  const create = useMutation({
    mutationFn: () => {
      const body = {
        displayName: form.displayName,
        roleKey: form.roleKey,
        ...(form.userId ? { userId: form.userId } : {}),
        ...(form.email ? { email: form.email } : {}),
        ...(form.password ? { password: form.password } : {}),
      };
      return createMember({ body });
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: memberKeys.all }),
  });
  const close = (o: boolean) => {
    onOpenChange(o);
    if (!o) {
      create.reset();
      setForm({ displayName: "", userId: "", email: "", roleKey: "member", password: "" });
    }
  };
  const bind = (k: keyof typeof form) => ({
    name: k,
    value: form[k],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value }),
    error: fieldError(create.error, k, t),
  });
  return (
    <Modal open={open} onOpenChange={close} title={t("members.create")}>
      {create.data ? (
        <div role="status">
          <p>{t("members.createdAs", { name: create.data.member.displayName })}</p>
          <p>{t("members.tempPasswordOnce")}</p>
          <p>
            <code className="secret" data-testid="temp-password">
              {create.data.tempPassword}
            </code>
          </p>
          <button type="button" onClick={() => close(false)}>
            {t("common.done")}
          </button>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Field label={t("members.name")} required {...bind("displayName")} />
          <Field label={t("members.userId")} {...bind("userId")} autoComplete="off" />
          <Field label={t("members.email")} type="email" {...bind("email")} autoComplete="off" />
          <Select
            label={t("members.role")}
            value={form.roleKey}
            onChange={(v) => setForm({ ...form, roleKey: v })}
            options={(roles.length ? roles : [{ key: "member", name: t("members.defaultRole") }]).map((r) => ({
              value: r.key,
              label: r.name,
            }))}
          />
          <Field
            label={t("members.passwordOptional")}
            type="password"
            autoComplete="new-password"
            hint={t("members.passwordHint")}
            {...bind("password")}
          />
          <FormError error={create.error} fields={FIELDS} />
          <button type="submit" className="primary" disabled={create.isPending}>
            {t("common.create")}
          </button>
        </form>
      )}
    </Modal>
  );
}
