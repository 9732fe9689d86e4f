// streamMyNotifications: Server-Sent Events of one member (docs/rules/notifications.md#live-stream).
import type { Actor } from "../../platform/auth/actor";
import { sessionAlive } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";
import { type LiveEvent, subscribe, unreadCounts } from "./live";

/** A comment line keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;
/** How often the stream checks that its session still stands (it ends once revoked). */
export const SESSION_CHECK_MS = 2_000;

const frame = (e: LiveEvent) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;

export function openStream(rt: Runtime, actor: Actor): Response {
  const { tenantId, memberId, sessionId } = actor;
  const unread = unreadCounts(actor.db, [memberId]).get(memberId) ?? 0;
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      send(`retry: 3000\n\n${frame({ event: "unread", data: { unreadCount: unread } })}`);
      const off = subscribe(tenantId, memberId, (e) => send(frame(e)));
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      const check = setInterval(() => {
        if (!sessionAlive(rt, sessionId)) {
          stop();
          controller.close();
        }
      }, SESSION_CHECK_MS);
      stop = () => {
        off();
        clearInterval(heartbeat);
        clearInterval(check);
      };
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" },
  });
}
