import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "../../api/client";
import { useI18n } from "../../i18n";
import { navigate } from "../../ui/router";

/**
 * The frame's bell: the live unread count from streamMyNotifications (Server-Sent Events read through
 * the generated client with the bearer header, no polling); reconnects after a drop.
 */
export function Bell() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [unread, setUnread] = useState<number | null>(null);
  useEffect(() => {
    let stopped = false;
    const abort = new AbortController();
    async function listen() {
      while (!stopped) {
        try {
          const { data, response } = await api.GET("/api/v1/me/notifications/stream", { parseAs: "stream", signal: abort.signal });
          if (!response.ok || !data) throw new Error(String(response.status));
          const reader = (data as ReadableStream<Uint8Array>).getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            let cut = buffer.indexOf("\n\n");
            while (cut >= 0) {
              const frame = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const event = /^event: (.*)$/m.exec(frame)?.[1];
              const payload = /^data: (.*)$/m.exec(frame)?.[1];
              if (event === "unread" && payload) setUnread((JSON.parse(payload) as { unreadCount: number }).unreadCount);
              if (event === "notification") void qc.invalidateQueries({ queryKey: ["notifications"] });
              cut = buffer.indexOf("\n\n");
            }
          }
        } catch {
          if (stopped) return;
        }
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
    void listen();
    return () => {
      stopped = true;
      abort.abort();
    };
  }, [qc]);
  const label = unread ? t("notifications.bellUnread", { count: unread }) : t("notifications.bell");
  return (
    <a
      href="/notifications"
      className="bell"
      aria-label={label}
      title={label}
      onClick={(e) => {
        e.preventDefault();
        navigate("/notifications");
      }}
    >
      <span aria-hidden="true">🔔</span>
      {unread ? (
        <span className="badge" data-testid="unread-count" aria-hidden="true">
          {unread}
        </span>
      ) : null}
    </a>
  );
}
