import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PERMISSIONS } from "../../api/permissions";
import { can, useUser } from "../../app/session";
import { roleLabel, useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { Field, FormError, fieldError, Loading, Modal } from "../../ui/ui";
import { createRole, deleteRole, roleKeys, rolesQuery, updateRole } from "./queries";

export function RolesPanel() {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const { get, set } = useSearch();
  const roles = useQuery(rolesQuery());
  const [creating, setCreating] = useState(false);
  const [form, setForm] = useState({ key: "", name: "" });
  const manage = can(user, "role:manage");
  const create = useMutation({
    mutationFn: () => createRole({ body: { key: form.key, name: form.name, permissions: [] } }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: roleKeys.roles });
      setCreating(false);
      setForm({ key: "", name: "" });
      set({ open: r.id });
    },
  });
  if (!roles.data) return <Loading />;
  // With none chosen in the URL the first role is shown, so the screen is never half empty.
  const open = roles.data.roles.find((r) => r.id === get("open")) ?? roles.data.roles[0];
  return (
    <div className="split">
      <div>
        <ul className="list">
          {roles.data.roles.map((r) => (
            <li key={r.id}>
              <button type="button" className="link" aria-current={r === open ? "true" : undefined} onClick={() => set({ open: r.id })}>
                {roleLabel(r, t)}
              </button>{" "}
              <small className="muted">
                {r.key}
                {r.isBuiltin ? ` · ${t("roles.builtin")}` : ""} · {t("roles.permissionCount", { count: r.permissions.length })}
              </small>
            </li>
          ))}
        </ul>
        {manage && (
          <button type="button" onClick={() => setCreating(true)}>
            {t("roles.create")}
          </button>
        )}
      </div>
      {open && <RoleEditor key={open.id} role={open} manage={manage} />}
      <Modal open={creating} onOpenChange={setCreating} title={t("roles.create")}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Field
            label={t("roles.key")}
            hint={t("roles.keyHint")}
            required
            value={form.key}
            onChange={(e) => setForm({ ...form, key: e.target.value })}
            error={fieldError(create.error, "key", t)}
          />
          <Field
            label={t("roles.name")}
            required
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fieldError(create.error, "name", t)}
          />
          <FormError error={create.error} fields={["key", "name"]} />
          <button type="submit" className="primary">
            {t("common.create")}
          </button>
        </form>
      </Modal>
    </div>
  );
}

type Role = { id: string; key: string; name: string; isBuiltin: boolean; permissions: string[] };

function RoleEditor({ role, manage }: { role: Role; manage: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const { set } = useSearch();
  const [name, setName] = useState(role.name);
  const [perms, setPerms] = useState(new Set(role.permissions));
  const save = useMutation({
    mutationFn: () =>
      updateRole({
        params: { path: { roleId: role.id } },
        body: role.isBuiltin ? { name } : { name, permissions: PERMISSIONS.filter((p) => perms.has(p)) },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: roleKeys.roles }),
  });
  const remove = useMutation({
    mutationFn: () => deleteRole({ params: { path: { roleId: role.id } } }),
    onSuccess: () => {
      set({ open: null });
      void qc.invalidateQueries({ queryKey: roleKeys.roles });
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2>{role.name}</h2>
      <fieldset disabled={!manage}>
        <Field label={t("roles.name")} value={name} onChange={(e) => setName(e.target.value)} error={fieldError(save.error, "name", t)} />
        <fieldset disabled={role.isBuiltin}>
          <legend>{t("roles.permissions")}</legend>
          {role.isBuiltin && <p className="muted">{t("roles.builtinFixed")}</p>}
          {PERMISSIONS.map((p) => (
            <label key={p} className="check">
              <input
                type="checkbox"
                checked={perms.has(p)}
                onChange={(e) => {
                  const next = new Set(perms);
                  if (e.target.checked) next.add(p);
                  else next.delete(p);
                  setPerms(next);
                }}
              />
              {t(`permissions.${p}`)} <code>{p}</code>
            </label>
          ))}
        </fieldset>
        <FormError error={save.error ?? remove.error} fields={["name"]} />
        {save.isSuccess && <p role="status">{t("common.saved")}</p>}
        {manage && (
          <div className="actions">
            <button type="submit" className="primary">
              {t("common.save")}
            </button>
            {!role.isBuiltin && (
              <button type="button" className="danger" onClick={() => window.confirm(t("roles.confirmDelete")) && remove.mutate()}>
                {t("common.delete")}
              </button>
            )}
          </div>
        )}
      </fieldset>
    </form>
  );
}
