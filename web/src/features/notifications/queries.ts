import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** The notifications' cache keys: `all` covers the inbox (the bell's stream invalidates it). */
export const notificationKeys = {
  all: ["notifications"] as const,
  inbox: (unreadOnly: boolean) => ["notifications", unreadOnly] as const,
  settings: ["notification-settings"] as const,
};

export const inboxQuery = (unreadOnly: boolean) =>
  queryOptions({
    queryKey: notificationKeys.inbox(unreadOnly),
    queryFn: () => ok(api.GET("/api/v1/me/notifications", { params: { query: { unreadOnly: unreadOnly ? "true" : "false", limit: 50 } } })),
  });

export const notificationSettingsQuery = () =>
  queryOptions({ queryKey: notificationKeys.settings, queryFn: () => ok(api.GET("/api/v1/me/notification-settings")) });

/** streamMyNotifications: the open Server-Sent Events stream (the bell reads its frames), through the client for the bearer header. */
export const streamMyNotifications = (signal: AbortSignal) => api.GET("/api/v1/me/notifications/stream", { parseAs: "stream", signal });

// The area's writes, one function per operation (named by its operationId).
export const markNotificationsRead = (init: Init<"/api/v1/me/notifications/mark-read", "post">) =>
  ok(api.POST("/api/v1/me/notifications/mark-read", init));
export const updateMyNotificationSettings = (init: Init<"/api/v1/me/notification-settings", "patch">) =>
  ok(api.PATCH("/api/v1/me/notification-settings", init));
