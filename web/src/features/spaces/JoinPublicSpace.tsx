import { useMutation, useQueryClient } from "@tanstack/react-query";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { FormError } from "../../ui/ui";
import { joinPublicSpace, type Space, spaceKeys } from "./queries";
import { TakeOver } from "./TakeOver";

/**
 * What a visitor who is not enrolled sees: a public space open to join has a button (joinPublicSpace);
 * a school administrator may take the class over.
 */
export function JoinPublicSpace({ space }: { space: Space }) {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const join = useMutation({
    mutationFn: () => joinPublicSpace({ params: { path: { spaceId: space.id } } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: spaceKeys.role(space.id) });
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
    },
  });
  const open = space.isPublic && space.autoJoin && space.isActive;
  return (
    <div className="panel">
      <p>{open ? t("spaces.publicOpen") : t("spaces.notMember")}</p>
      <FormError error={join.error} fields={[]} />
      {open && (
        <button type="button" className="primary" disabled={join.isPending} onClick={() => join.mutate()}>
          {t("spaces.joinPublic")}
        </button>
      )}
      {can(user, "tenant-settings:manage") && <TakeOver space={space} />}
    </div>
  );
}
