import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { FormError } from "../../ui/ui";
import { orgKeys, positionsQuery } from "../org/queries";
import { assignMemberPosition, memberKeys } from "./queries";

/**
 * A member's position (assignMemberPosition), shown only while the school has positions switched on
 * (getPositionSettings.enabled says whether clients show them); "none" clears it.
 */
export function MemberPosition({ memberId, positionId, manage }: { memberId: string; positionId: string | null; manage: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const settings = useQuery(positionsQuery());
  const [choice, setChoice] = useState(positionId ?? "");
  const assign = useMutation({
    mutationFn: () => assignMemberPosition({ params: { path: { userPkId: memberId } }, body: { positionId: choice || null } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: memberKeys.detail(memberId) });
      void qc.invalidateQueries({ queryKey: memberKeys.all });
      void qc.invalidateQueries({ queryKey: orgKeys.positions });
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
