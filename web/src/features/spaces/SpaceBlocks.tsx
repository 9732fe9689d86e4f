import { useMutation, useQuery } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { FormError, formatDate, Loading } from "../../ui/ui";
import { spaceBlocksQuery, unblockSpaceUser } from "./queries";

/** The members blocked from a space (listSpaceBlocks), each with an unblock button (unblockSpaceUser). */
export function SpaceBlocks({ spaceId, onChange }: { spaceId: string; onChange: () => void }) {
  const { t, lang } = useI18n();
  const blocks = useQuery(spaceBlocksQuery(spaceId));
  const unblock = useMutation({
    mutationFn: (userPkId: string) => unblockSpaceUser({ params: { path: { spaceId, userPkId } } }),
    onSuccess: onChange,
  });
  return (
    <section className="panel">
      <h2>{t("spaces.blocked")}</h2>
      <FormError error={unblock.error} fields={[]} />
      {!blocks.data ? (
        <Loading />
      ) : blocks.data.blocks.length === 0 ? (
        <p>{t("spaces.noBlocks")}</p>
      ) : (
        <ul className="list">
          {blocks.data.blocks.map((b) => (
            <li key={b.id}>
              {b.displayName} · {formatDate(b.createdAt, lang)}
              {b.reason && <span className="muted"> · {b.reason}</span>}{" "}
              <button
                type="button"
                className="small"
                aria-label={t("spaces.unblockOf", { name: b.displayName })}
                onClick={() => unblock.mutate(b.userId)}
              >
                {t("spaces.unblock")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
