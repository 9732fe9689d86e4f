import { useInfiniteQuery } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { formatDate, Loading, MoreButton } from "../../ui/ui";
import { enrolmentHistoryQuery } from "./queries";

/** Who joined and left the space, newest first (listSpaceEnrollmentHistory); kept only while the space retains it. */
export function EnrolmentHistory({ spaceId, retained }: { spaceId: string; retained: boolean }) {
  const { t, lang } = useI18n();
  const history = useInfiniteQuery(enrolmentHistoryQuery(spaceId));
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
        <DataTable
          label={t("spaces.history")}
          rows={entries}
          rowKey={(e) => `${e.memberId}-${e.at}-${e.event}`}
          columns={[
            { key: "at", header: t("spaces.when"), cell: (e) => formatDate(e.at, lang) },
            { key: "name", header: t("members.name"), cell: (e) => e.displayName },
            { key: "event", header: t("spaces.event"), cell: (e) => t(`spaces.events.${e.event}`) },
            { key: "role", header: t("spaces.role"), cell: (e) => t(`spaces.roles.${e.role}`) },
          ]}
        />
      )}
      <MoreButton list={history} label={t("spaces.moreHistory")} />
    </section>
  );
}
