import { useInfiniteQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { formatDate, Loading, MoreButton } from "../../ui/ui";

/** Who joined and left the space, newest first (listSpaceEnrollmentHistory); kept only while the space retains it. */
export function EnrolmentHistory({ spaceId, retained }: { spaceId: string; retained: boolean }) {
  const { t, lang } = useI18n();
  const history = useInfiniteQuery({
    queryKey: ["space-history", spaceId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/enrollment-history", {
          params: { path: { spaceId }, query: { limit: 30, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const entries = history.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section className="panel">
      <h2>{t("spaces.history")}</h2>
      {!retained && <p className="muted">{t("spaces.historyOff")}</p>}
      {!history.data ? (
        <Loading />
      ) : entries.length === 0 ? (
        <p>{t("common.empty")}</p>
      ) : (
        <table>
          <caption className="sr-only">{t("spaces.history")}</caption>
          <thead>
            <tr>
              <th>{t("spaces.when")}</th>
              <th>{t("members.name")}</th>
              <th>{t("spaces.event")}</th>
              <th>{t("spaces.role")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={`${e.memberId}-${e.at}-${e.event}`}>
                <td>{formatDate(e.at, lang)}</td>
                <td>{e.displayName}</td>
                <td>{t(`spaces.events.${e.event}`)}</td>
                <td>{t(`spaces.roles.${e.role}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <MoreButton list={history} label={t("spaces.moreHistory")} />
    </section>
  );
}
