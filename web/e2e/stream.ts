import type { BrowserContext } from "playwright-core";

/**
 * The bell's live stream never ends, so "networkidle" (which the checks wait for) would never come:
 * in a browser check it answers one unread event and closes (the bell reconnects). The stream itself
 * is checked over real SSE in test/notifications.test.ts.
 */
export async function quietStream(ctx: BrowserContext) {
  await ctx.route("**/api/v1/me/notifications/stream", (r) =>
    r.fulfill({ status: 200, contentType: "text/event-stream", body: 'event: unread\ndata: {"unreadCount":0}\n\n' }),
  );
}
