import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { FormError } from "../../ui/ui";

/**
 * A member's position (assignMemberPosition), shown only while the school has positions switched on
 * (getPositionSettings.enabled says whether clients show them); "none" clears it.
 */
export function MemberPosition({ memberId, positionId, manage }: { memberId: string; positionId: string | null; manage: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ["positions"], queryFn: () => ok(api.GET("/api/v1/position-settings")) });
  const [choice, setChoice] = useState(positionId ?? "");
  const assign = useMutation({
    mutationFn: () =>
      ok(
        api.PUT("/api/v1/members/{userPkId}/position", { params: { path: { userPkId: memberId } }, body: { positionId: choice || null } }),
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ["member", memberId] });
      void qc.invalidateQueries({ queryKey: ["members"] });
      void qc.invalidateQueries({ queryKey: ["positions"] });
    },
  });
  if (!settings.data?.enabled) return null;
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        assign.mutate();
      }}
    >
      <label>
        {t("members.position")}
        <select value={choice} disabled={!manage} onChange={(e) => setChoice(e.target.value)}>
          <option value="">{t("members.noPosition")}</option>
          {settings.data.positions.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      {manage && (
        <button type="submit" disabled={choice === (positionId ?? "") || assign.isPending}>
          {t("members.assignPosition")}
        </button>
      )}
      {assign.isSuccess && <span role="status">{t("common.saved")}</span>}
      <FormError error={assign.error} fields={[]} />
    </form>
  );
}
