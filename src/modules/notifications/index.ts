import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { takeFormBodiesOf } from "../../platform/http/body";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { pickLang, unsubscribePage } from "../hosted-pages/pages";
import { DUE_SOON_JOB, runDueSoon } from "./due";
import { FAN_OUT_JOB, runFanOut } from "./emit";
import { bindRuntime, registerJob } from "./hooks";
import { listMyNotifications, markNotificationsRead } from "./inbox";
import {
  ListNotificationsQuery,
  MarkReadBody,
  NotificationPage,
  NotificationSettings,
  UnsubscribeQuery,
  UnsubscribeResult,
  UpdateSettingsBody,
} from "./model";
import { getMySettings, updateMySettings } from "./settings";
import { openStream } from "./stream";
import { unsubscribe } from "./unsubscribe";

const TAG = "notifications";

/** RFC 8058: a mail client's one-click POST carries `List-Unsubscribe=One-Click` as a form (docs/rules/trust.md#json-bodies-only). */
const UNSUBSCRIBE_URL = /^[a-z]+:\/\/[^/]+\/api\/v1\/public\/notification-unsubscribe\/?(?:[?#]|$)/;

const STREAM = route("streamMyNotifications", TAG, "session", {
  summary: "Stream my notifications (Server-Sent Events)",
  description:
    "`text/event-stream` with the bearer header: `event: unread` with `{unreadCount}` first and after every change, `event: notification` with each new item, a comment line every 25 s; it ends when the session is revoked or expires.",
});

/** The member's inbox, live stream and e-mail settings (docs/rules/notifications.md). */
export function notificationsModule(rt: Runtime) {
  bindRuntime(rt);
  registerJob(DUE_SOON_JOB, runDueSoon);
  registerJob(FAN_OUT_JOB, runFanOut);
  takeFormBodiesOf("POST", UNSUBSCRIBE_URL);
  return (
    apiModule("module.notifications")
      .use(authPlugin(rt))
      .get("/me/notifications", ({ actor, query }) => listMyNotifications(rt, actor, query), {
        ...route("listMyNotifications", TAG, "session", {
          summary: "List my notifications",
          description:
            "Newest first, kept 180 days; `unreadOnly=true` leaves out read ones. `unreadCount` counts every unread item. `url` is the console path that opens the record.",
        }),
        query: ListNotificationsQuery,
        response: { 200: NotificationPage },
      })
      .post(
        "/me/notifications/mark-read",
        ({ actor, body, set }) => {
          markNotificationsRead(rt, actor, body);
          set.status = 204;
        },
        {
          ...route("markNotificationsRead", TAG, "session", {
            summary: "Mark notifications read",
            description:
              "`{ids: [1..100]}` or `{all: true}`, exactly one (else 400). Ids of another member's items, or unknown ones, are ignored.",
          }),
          body: MarkReadBody,
          response: { 204: t.Void() },
        },
      )
      .get("/me/notifications/stream", ({ actor }) => openStream(rt, actor), {
        ...STREAM,
        detail: { ...STREAM.detail, "x-response-media": "text/event-stream" },
        response: { 200: t.String({ description: "Server-Sent Events" }) },
      })
      .get("/me/notification-settings", ({ actor }) => getMySettings(actor), {
        ...route("getMyNotificationSettings", TAG, "session", {
          summary: "Get my notification e-mail settings",
          description:
            "Defaults: DIGEST at 17 (tenant time zone), every kind on, Korean. The inbox always gets every kind; these choose what is e-mailed.",
        }),
        response: { 200: NotificationSettings },
      })
      .patch("/me/notification-settings", ({ actor, body }) => updateMySettings(rt, actor, body), {
        ...route("updateMyNotificationSettings", TAG, "session", {
          summary: "Change my notification e-mail settings",
          description: "Absent fields stay. Pending mails follow the new choice (EMERGENCY is always mailed at once).",
        }),
        body: UpdateSettingsBody,
        response: { 200: NotificationSettings },
      })
      .post("/public/notification-unsubscribe", ({ query }) => unsubscribe(rt, query.token), {
        ...route("unsubscribeNotificationEmail", TAG, "public", {
          summary: "One-click unsubscribe from notification e-mails (RFC 8058)",
          description:
            "The `token` of a notification mail's `List-Unsubscribe` link (MAC-signed, names the member and tenant, does not expire) sets that member's `email` to OFF; a bad token: 400 `VALIDATION_FAILED` naming `token`. A GET of the same URL shows a confirm page and changes nothing.",
        }),
        query: UnsubscribeQuery,
        response: { 200: UnsubscribeResult },
      })
      // The hosted confirm page of the unsubscribe link: HTML for a person, part of the POST's operation.
      .get(
        "/public/notification-unsubscribe",
        ({ query, request }) => unsubscribePage(query.token ?? "", pickLang(request.headers.get("accept-language"))),
        { detail: { hide: true } },
      )
  );
}

/** Registers a feature's time-driven job kind (app.ts wires them). */
export const notificationJob = registerJob;
