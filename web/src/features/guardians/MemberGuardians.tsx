import { useI18n } from "../../i18n";
import { MemberPicker } from "../../ui/MemberPicker";
import { ConfirmButton, FormError } from "../../ui/ui";
import { useMemberGuardians } from "./queries";

/** A member's guardians on the member's page: listed for member:read, added and removed with member:manage. */
export function MemberGuardians({ memberId, manage }: { memberId: string; manage: boolean }) {
  const { t } = useI18n();
  const { list, add, remove } = useMemberGuardians(memberId);
  const guardians = list.data?.guardians ?? [];
  return (
    <section className="stack" aria-labelledby={`guardians-${memberId}`}>
      <h3 id={`guardians-${memberId}`}>{t("guardians.title")}</h3>
      {list.data && guardians.length === 0 && <p className="muted">{t("guardians.none")}</p>}
      {guardians.length > 0 && (
        <ul className="list">
          {guardians.map((g) => (
            <li key={g.id}>
              {g.displayName} <small className="muted">{g.userId ?? g.email ?? ""}</small>{" "}
              {manage && (
                <ConfirmButton
                  className="small"
                  question={t("guardians.removeConfirm", { name: g.displayName })}
                  onConfirm={() => remove.mutate(g.id)}
                >
                  {t("guardians.remove", { name: g.displayName })}
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {manage && guardians.length < 4 && <MemberPicker label={t("guardians.add")} onPick={(m) => add.mutate(m.id)} />}
      <FormError error={add.error ?? remove.error} fields={["guardianId"]} />
    </section>
  );
}
