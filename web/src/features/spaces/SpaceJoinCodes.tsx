import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { FormError, formatDate, Loading } from "../../shell/ui";

/** A space's join codes (participants join with one on the Spaces screen); its admins make new ones. */
export function SpaceJoinCodes({ spaceId }: { spaceId: string }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const codes = useQuery({
    queryKey: ["space-join-codes", spaceId],
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/join-codes", { params: { path: { spaceId } } })),
  });
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/spaces/{spaceId}/join-codes", { params: { path: { spaceId } }, body: { role: "PARTICIPANT" } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["space-join-codes", spaceId] }),
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
              <code data-testid="space-join-code">{c.code}</code> · {c.enabled ? t("common.yes") : t("common.no")} ·{" "}
              {c.expiresAt ? formatDate(c.expiresAt, lang) : t("joinCodes.never")}
            </li>
          ))}
        </ul>
      )}
      <FormError error={create.error} fields={[]} />
      <button type="button" onClick={() => create.mutate()}>
        {t("spaces.newJoinCode")}
      </button>
    </div>
  );
}
