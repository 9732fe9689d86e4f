// The member's inbox: list newest first, mark read (docs/rules/notifications.md#inbox).
import { and, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { spaces } from "../../schema/spaces";
import { publishUnread, toNotification, unreadCounts } from "./live";
import type { ListNotificationsQuery, MarkReadBody } from "./model";
import { notifications } from "./tables";

const LIST_OP = "listMyNotifications";
/** How long an item is kept (docs/rules/notifications.md#inbox). */
export const KEEP_MS = 180 * 86_400_000;

type Position = [number, string];
const isPosition = (v: unknown): v is Position =>
  Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && typeof v[1] === "string";

export function listMyNotifications(rt: Runtime, actor: Actor, q: Static<typeof ListNotificationsQuery>) {
  const unreadOnly = q.unreadOnly === "true";
  const after = rt.cursors.decode<unknown>(LIST_OP, { unreadOnly }, q.cursor);
  if (after !== null && !isPosition(after)) throw invalid("cursor", "is not a valid cursor for this list", "query");
  const limit = q.limit ?? 30;
  const conds: (SQL | undefined)[] = [
    eq(notifications.memberId, actor.memberId),
    sql`${notifications.createdAt} >= ${rt.now() - KEEP_MS}`,
    unreadOnly ? isNull(notifications.readAt) : undefined,
    after ? sql`(${notifications.createdAt}, ${notifications.id}) < (${after[0]}, ${after[1]})` : undefined,
  ];
  const rows = actor.db
    .select({ n: notifications, spaceName: spaces.name })
    .from(notifications)
    .leftJoin(spaces, eq(spaces.id, notifications.spaceId))
    .where(and(...conds))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1)?.n;
  return {
    notifications: page.map((r) => toNotification(r.n, r.spaceName)),
    unreadCount: unreadCounts(actor.db, [actor.memberId]).get(actor.memberId) ?? 0,
    nextCursor: rows.length > limit && last ? rt.cursors.encode(LIST_OP, { unreadOnly }, [last.createdAt, last.id]) : null,
  };
}

/** `ids` (another member's are ignored) or `all`, exactly one of them. */
export function markNotificationsRead(rt: Runtime, actor: Actor, body: Static<typeof MarkReadBody>): void {
  if ((body.ids === undefined) === (body.all === undefined)) throw invalid(body.ids ? "all" : "ids", "send exactly one of ids and all");
  const now = rt.now();
  write(actor.db, (tx) => {
    const mine = and(eq(notifications.memberId, actor.memberId), isNull(notifications.readAt));
    tx.update(notifications)
      .set({ readAt: now })
      .where(body.ids ? and(mine, inArray(notifications.id, body.ids)) : mine)
      .run();
  });
  publishUnread(actor.tenantId, actor.db, actor.memberId);
}
