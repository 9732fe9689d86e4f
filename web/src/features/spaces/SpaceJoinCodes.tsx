import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, formatDate, Loading, Select } from "../../ui/ui";
import { createSpaceJoinCode, roleOptions, type SpaceRole, spaceJoinCodesQuery, spaceKeys, updateSpaceJoinCode } from "./queries";

/** A space's join codes (participants join with one on the Spaces screen); its admins make new ones and turn them off or on. */
export function SpaceJoinCodes({ spaceId }: { spaceId: string }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const [role, setRole] = useState<SpaceRole>("PARTICIPANT");
  const [password, setPassword] = useState("");
  const [days, setDays] = useState("");
  const codes = useQuery(spaceJoinCodesQuery(spaceId));
  const refresh = () => void qc.invalidateQueries({ queryKey: spaceKeys.joinCodes(spaceId) });
  const create = useMutation({
    mutationFn: () =>
      createSpaceJoinCode({
        params: { path: { spaceId } },
        body: { role, password: password || null, expiresInDays: days ? Number(days) : null },
      }),
    onSuccess: () => {
      setPassword("");
      refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      updateSpaceJoinCode({ params: { path: { spaceId, joinCodeId: id } }, body: { enabled } }),
    onSuccess: refresh,
  });
  return (
    <div className="panel">
      <h2>{t("spaces.joinCodes")}</h2>
      {!codes.data ? (
        <Loading />
      ) : (
        <ul className="list">
          {codes.data.joinCodes.map((c) => (
            <li key={c.id}>
              <code data-testid="space-join-code">{c.code}</code> · {t(`spaces.roles.${c.role}`)} ·{" "}
              {c.enabled ? t("spaces.codeOn") : t("spaces.codeOff")}
              {c.password && ` · ${t("spaces.codePassword")}: ${c.password}`} ·{" "}
              {c.expiresAt ? formatDate(c.expiresAt, lang) : t("joinCodes.never")}{" "}
              <button type="button" className="small" onClick={() => toggle.mutate({ id: c.id, enabled: !c.enabled })}>
                {c.enabled ? t("spaces.turnOff") : t("spaces.turnOn")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormError error={toggle.error} fields={[]} />
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Select label={t("spaces.codeRole")} value={role} onChange={(v) => setRole(v as SpaceRole)} options={roleOptions(t)} />
        <Field label={t("spaces.codePasswordOptional")} value={password} onChange={(e) => setPassword(e.target.value)} />
        <Field
          label={t("joinCodes.expiresInDays")}
          type="number"
          min={1}
          max={3650}
          value={days}
          onChange={(e) => setDays(e.target.value)}
          error={fieldError(create.error, "expiresInDays", t)}
        />
        <button type="submit">{t("spaces.newJoinCode")}</button>
      </form>
      <FormError error={create.error} fields={["expiresInDays"]} />
    </div>
  );
}
