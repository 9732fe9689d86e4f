import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { navigate, useSearch } from "../../ui/router";
import { FormError, formatDate, Loading } from "../../ui/ui";
import { inboxQuery, markNotificationsRead, notificationKeys } from "./queries";

/** listMyNotifications / markNotificationsRead: unread or all (in the URL), mark read, open an item's record. */
export default function InboxPage() {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const { get, set } = useSearch();
  const unreadOnly = get("filter") === "unread";
  const list = useQuery(inboxQuery(unreadOnly));
  const mark = useMutation({
    mutationFn: (body: { ids: string[] } | { all: true }) => markNotificationsRead({ body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.all }),
  });
  return (
    <section>
      <h1>{t("notifications.title")}</h1>
      <fieldset className="toolbar">
        <legend className="sr-only">{t("notifications.filter")}</legend>
        <button type="button" aria-pressed={!unreadOnly} onClick={() => set({ filter: null })}>
          {t("notifications.all")}
        </button>
        <button type="button" aria-pressed={unreadOnly} onClick={() => set({ filter: "unread" })}>
          {t("notifications.unread")}
        </button>
        <button type="button" disabled={!list.data?.unreadCount} onClick={() => mark.mutate({ all: true })}>
          {t("notifications.markAll")}
        </button>
      </fieldset>
      <FormError error={mark.error} fields={["ids", "all"]} />
      {!list.data ? (
        <Loading />
      ) : list.data.notifications.length === 0 ? (
        <p>{t("notifications.empty")}</p>
      ) : (
        <ul className="inbox">
          {list.data.notifications.map((n) => (
            <li key={n.id} className={n.readAt ? "read" : "unread"}>
              <button
                type="button"
                className="link"
                onClick={() => {
                  if (!n.readAt) mark.mutate({ ids: [n.id] });
                  navigate(n.url);
                }}
              >
                <strong>{lang === "en" ? n.titleEn : n.titleKo}</strong>
              </button>
              <small>
                {t(`notifications.kinds.${n.kind}`)}
                {n.spaceName ? ` · ${n.spaceName}` : ""} · {formatDate(n.createdAt, lang)}
                {n.readAt ? "" : ` · ${t("notifications.new")}`}
              </small>
              {n.bodyPreview && <p className="muted">{n.bodyPreview}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
