import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { ConfirmButton, FormError } from "../../ui/ui";
import { addSpaceMembers, type Space, spaceKeys, transferSpaceOwnership } from "./queries";

/**
 * A school administrator's takeover of a class they are not in (tenant-settings:manage): join it as
 * a teacher (addSpaceMembers, ADMIN), or become its owner (transferSpaceOwnership to themself).
 */
export function TakeOver({ space }: { space: Space }) {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const params = { params: { path: { spaceId: space.id } } };
  const done = () => {
    for (const queryKey of spaceKeys.membership(space.id)) void qc.invalidateQueries({ queryKey });
  };
  const join = useMutation({
    mutationFn: () => addSpaceMembers({ ...params, body: { userIds: [user.id], role: "ADMIN" } }),
    onSuccess: done,
  });
  const own = useMutation({
    mutationFn: () => transferSpaceOwnership({ ...params, body: { memberId: user.id } }),
    onSuccess: done,
  });
  return (
    <section className="panel" aria-labelledby="take-over-title">
      <h2 id="take-over-title">{t("takeOver.title")}</h2>
      <p>{t("takeOver.help")}</p>
      <div className="actions">
        <button type="button" disabled={join.isPending} onClick={() => join.mutate()}>
          {t("takeOver.join")}
        </button>
        <ConfirmButton question={t("takeOver.ownConfirm", { name: space.name })} disabled={own.isPending} onConfirm={() => own.mutate()}>
          {t("takeOver.own")}
        </ConfirmButton>
      </div>
      <FormError error={join.error ?? own.error} fields={[]} />
    </section>
  );
}
