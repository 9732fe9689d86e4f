import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useI18n } from "../../i18n";
import { FormError, fieldError, Loading, Select } from "../../ui/ui";
import { notificationKeys, notificationSettingsQuery, updateMyNotificationSettings } from "./queries";

const SWITCHES = [
  "POST",
  "CONTENT",
  "DUE_SOON",
  "CHALLENGE_REMINDER",
  "GRADE_RETURNED",
  "QUESTION",
  "COMMENT",
  "MESSAGE",
  "GUARDIAN",
] as const;
type Settings = {
  email: "IMMEDIATE" | "DIGEST" | "OFF";
  digestHour: number;
  language: "ko" | "en";
  kinds: Record<(typeof SWITCHES)[number], boolean>;
};

/** My account: notification e-mail settings (get/updateMyNotificationSettings). */
export default function AccountPage() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const current = useQuery(notificationSettingsQuery());
  const [form, setForm] = useState<Settings | null>(null);
  useEffect(() => {
    if (current.data) setForm(current.data as Settings);
  }, [current.data]);
  const save = useMutation({
    mutationFn: (body: Settings) => updateMyNotificationSettings({ body }),
    onSuccess: (data) => qc.setQueryData(notificationKeys.settings, data),
  });
  if (!form) return <Loading />;
  return (
    <section>
      <h1>{t("notifications.account")}</h1>
      <h2>{t("notifications.settings")}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(form);
        }}
      >
        <Select
          label={t("notifications.email")}
          value={form.email}
          onChange={(v) => setForm({ ...form, email: v as Settings["email"] })}
          options={(["IMMEDIATE", "DIGEST", "OFF"] as const).map((v) => ({ value: v, label: t(`notifications.modes.${v}`) }))}
        />
        <Select
          label={t("notifications.digestHour")}
          value={String(form.digestHour)}
          onChange={(v) => setForm({ ...form, digestHour: Number(v) })}
          options={Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, "0")}:00` }))}
        />
        {fieldError(save.error, "digestHour", t) && <small className="error">{fieldError(save.error, "digestHour", t)}</small>}
        <Select
          label={t("notifications.language")}
          value={form.language}
          onChange={(v) => setForm({ ...form, language: v as Settings["language"] })}
          options={[
            { value: "ko", label: "한국어" },
            { value: "en", label: "English" },
          ]}
        />
        <fieldset>
          <legend>{t("notifications.kindsLegend")}</legend>
          {SWITCHES.map((k) => (
            <label key={k} className="check">
              <input
                type="checkbox"
                checked={form.kinds[k]}
                onChange={(e) => setForm({ ...form, kinds: { ...form.kinds, [k]: e.target.checked } })}
              />
              {t(`notifications.kinds.${k}`)}
            </label>
          ))}
        </fieldset>
        <p className="muted">{t("notifications.emergencyNote")}</p>
        <FormError error={save.error} fields={["email", "digestHour", "language", "kinds"]} />
        {save.isSuccess && <p role="status">{t("common.saved")}</p>}
        <button type="submit" className="primary">
          {t("common.save")}
        </button>
      </form>
    </section>
  );
}
