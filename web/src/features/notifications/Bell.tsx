import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useI18n } from "../../i18n";
import { navigate } from "../../ui/router";
import { notificationKeys, streamMyNotifications } from "./queries";

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
          const { data, response } = await streamMyNotifications(abort.signal);
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
              if (event === "notification") void qc.invalidateQueries({ queryKey: notificationKeys.all });
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
      {/* A drawn bell: an emoji needs a font a school's machine may not have. */}
      <svg
        aria-hidden="true"
        width="20"
        height="20"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.73 21a2 2 0 0 1-3.46 0" />
      </svg>
      {unread ? (
        <span className="badge" data-testid="unread-count" aria-hidden="true">
          {unread}
        </span>
      ) : null}
    </a>
  );
}
