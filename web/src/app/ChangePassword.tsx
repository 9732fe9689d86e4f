import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../api/client";
import { useI18n } from "../i18n";
import { Field, FormError, fieldError } from "../ui/ui";
import { useSession } from "./session";

/** A member signed in with a temporary password chooses their own before anything else (changeOwnPassword). */
export function ChangePassword() {
  const { t } = useI18n();
  const { reload } = useSession();
  const [form, setForm] = useState({ currentPassword: "", newPassword: "" });
  const change = useMutation({
    mutationFn: () => ok(api.PUT("/api/v1/me/password", { body: form })),
    onSuccess: () => void reload(),
  });
  return (
    <main id="main" className="signed-out">
      <h1>{t("password.title")}</h1>
      <p>{t("password.hint")}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate();
        }}
      >
        <Field
          label={t("password.current")}
          type="password"
          autoComplete="current-password"
          required
          value={form.currentPassword}
          onChange={(e) => setForm({ ...form, currentPassword: e.target.value })}
          error={fieldError(change.error, "currentPassword", t)}
        />
        <Field
          label={t("password.new")}
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={form.newPassword}
          onChange={(e) => setForm({ ...form, newPassword: e.target.value })}
          error={fieldError(change.error, "newPassword", t)}
        />
        <FormError error={change.error} fields={["currentPassword", "newPassword"]} />
        <button type="submit" className="primary" disabled={change.isPending}>
          {t("password.submit")}
        </button>
      </form>
    </main>
  );
}
