import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { MemberPicker } from "../../ui/MemberPicker";
import { FormError, Loading } from "../../ui/ui";
import { handOverMember, memberKeys, memberOwnershipQuery, updateMember } from "./queries";

/**
 * "Hand over and deactivate" for a member who leaves: what they own (listMemberOwnership), a
 * successor, then handOverMember (their spaces and authored contents go to the successor) and the
 * member deactivated (updateMember), after asking.
 */
export function HandOver({ memberId, name, isActive }: { memberId: string; name: string; isActive: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [to, setTo] = useState<{ id: string; displayName: string } | null>(null);
  const owned = useQuery(memberOwnershipQuery(memberId));
  const handOver = useMutation({
    mutationFn: async (toMemberId: string) => {
      const path = { userPkId: memberId };
      const moved = await handOverMember({ params: { path }, body: { toMemberId } });
      if (isActive) await updateMember({ params: { path }, body: { isActive: false } });
      return moved;
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: memberKeys.ownership(memberId) });
      void qc.invalidateQueries({ queryKey: memberKeys.detail(memberId) });
      void qc.invalidateQueries({ queryKey: memberKeys.all });
    },
  });
  if (!owned.data) return <Loading />;
  const { spaces, contents } = owned.data;
  return (
    <section className="panel" aria-labelledby="hand-over-title">
      <h3 id="hand-over-title">{t("handOver.title")}</h3>
      <p>{t("handOver.owns", { spaces: spaces.length, contents: contents.length })}</p>
      {spaces.length > 0 && (
        <ul className="list" aria-label={t("handOver.spaces")}>
          {spaces.map((s) => (
            <li key={s.id}>
              {s.name}
              {!s.isActive && <small className="muted"> ({t("spaces.archived")})</small>}
            </li>
          ))}
        </ul>
      )}
      {handOver.data ? (
        <p role="status">
          {t("handOver.done", { spaces: handOver.data.spaces.length, contents: handOver.data.contents.length, to: to?.displayName ?? "" })}
        </p>
      ) : to ? (
        <div className="inline">
          <span>{t("handOver.to", { name: to.displayName })}</span>
          <button
            type="button"
            className="danger"
            disabled={handOver.isPending}
            onClick={() => {
              if (window.confirm(t("handOver.confirm", { name, to: to.displayName }))) handOver.mutate(to.id);
            }}
          >
            {t("handOver.submit")}
          </button>
          <button type="button" onClick={() => setTo(null)}>
            {t("handOver.other")}
          </button>
        </div>
      ) : (
        <MemberPicker
          label={t("handOver.successor")}
          action={(n) => t("handOver.pick", { name: n })}
          onPick={(m) => m.id !== memberId && setTo(m)}
        />
      )}
      <FormError error={handOver.error} fields={[]} />
    </section>
  );
}
