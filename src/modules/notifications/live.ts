// The live stream's in-process pub/sub keyed by member (docs/rules/notifications.md#live-stream),
// and what follows a commit that created notifications: the stream, and the mail run.
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { settled } from "../../platform/db/group-commit";
import type { Db } from "../../platform/db/types";
import { spaces } from "../../schema/spaces";
import { boundRuntime } from "./hooks";
import { notifications } from "./tables";

export type LiveEvent = { event: "notification"; data: unknown } | { event: "unread"; data: { unreadCount: number } };
type Listener = (e: LiveEvent) => void;

const listeners = new Map<string, Set<Listener>>();
const keyOf = (tenantId: string, memberId: string) => `${tenantId}/${memberId}`;

/** Listens to one member's events; returns the function that stops listening. */
export function subscribe(tenantId: string, memberId: string, fn: Listener): () => void {
  const key = keyOf(tenantId, memberId);
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(fn);
  return () => {
    set.delete(fn);
    if (set.size === 0) listeners.delete(key);
  };
}

const listening = (tenantId: string, memberId: string) => listeners.has(keyOf(tenantId, memberId));

function emit(tenantId: string, memberId: string, e: LiveEvent) {
  for (const fn of listeners.get(keyOf(tenantId, memberId)) ?? []) {
    try {
      fn(e);
    } catch {
      // A closed stream's listener: it unsubscribes itself when its stream is cancelled.
    }
  }
}

/** Unread counts of these members, one grouped query. */
export function unreadCounts(db: Db, memberIds: string[]): Map<string, number> {
  if (memberIds.length === 0) return new Map();
  const rows = db
    .select({ memberId: notifications.memberId, n: count() })
    .from(notifications)
    .where(and(inArray(notifications.memberId, memberIds), isNull(notifications.readAt)))
    .groupBy(notifications.memberId)
    .all();
  return new Map(rows.map((r) => [r.memberId, r.n]));
}

/** Sends each listening member their new count (after mark-read). */
export function publishUnread(tenantId: string, db: Db, memberId: string) {
  if (!listening(tenantId, memberId)) return;
  const n = unreadCounts(db, [memberId]).get(memberId) ?? 0;
  emit(tenantId, memberId, { event: "unread", data: { unreadCount: n } });
}

type Inserted = { id: string; member_id: string; mail_at: number | null };
type Hook = (tenantId: string, due: boolean, firstFutureMail: number | null) => void;
let onMail: Hook | null = null;

/** The scheduler's hook: a commit created mails (due now, or at a future digest hour). */
export function onNewMail(fn: Hook) {
  onMail = fn;
}

/**
 * Runs once the caller's transaction has committed (the group commit of this turn): the new items
 * reach the members listening on the stream, read back from the file so a rolled-back write shows
 * nothing, and the mail run is told.
 */
export function afterCommit(tenantId: string, inserted: Inserted[], now: number) {
  const listeningIds = inserted.filter((r) => listening(tenantId, r.member_id)).map((r) => r.id);
  const mails = inserted.map((r) => r.mail_at).filter((m): m is number => m !== null);
  const due = mails.some((m) => m <= now);
  const future = mails.filter((m) => m > now);
  const firstFuture = future.length ? Math.min(...future) : null;
  if (listeningIds.length === 0 && mails.length === 0) return;
  const rt = boundRuntime();
  if (!rt) return;
  if (firstFuture !== null) onMail?.(tenantId, false, firstFuture);
  void (settled() ?? Promise.resolve())
    .then(() => {
      if (due) onMail?.(tenantId, true, null);
      if (listeningIds.length) rt.tenants.use(tenantId, (h) => deliver(tenantId, h.db, listeningIds));
    })
    .catch(() => {});
}

/** After the commit, members listening whose unread items were removed get their new count. */
export function afterRemoval(tenantId: string, memberIds: string[]) {
  const listeningIds = [...new Set(memberIds)].filter((m) => listening(tenantId, m));
  const rt = boundRuntime();
  if (!rt || listeningIds.length === 0) return;
  void (settled() ?? Promise.resolve())
    .then(() =>
      rt.tenants.use(tenantId, (h) => {
        for (const m of listeningIds) publishUnread(tenantId, h.db, m);
      }),
    )
    .catch(() => {});
}

/** Reads the new items with their space names and sends them and the new counts. */
function deliver(tenantId: string, db: Db, ids: string[]) {
  const rows = db
    .select({ n: notifications, spaceName: spaces.name })
    .from(notifications)
    .leftJoin(spaces, eq(spaces.id, notifications.spaceId))
    .where(inArray(notifications.id, ids))
    .orderBy(desc(notifications.createdAt))
    .all();
  const counts = unreadCounts(db, [...new Set(rows.map((r) => r.n.memberId))]);
  for (const { n, spaceName } of rows) {
    emit(tenantId, n.memberId, { event: "notification", data: toNotification(n, spaceName) });
    emit(tenantId, n.memberId, { event: "unread", data: { unreadCount: counts.get(n.memberId) ?? 0 } });
  }
}

/** One row → the Notification record (model.ts). */
export function toNotification(n: typeof notifications.$inferSelect, spaceName: string | null) {
  return {
    id: n.id,
    kind: n.kind,
    spaceId: n.spaceId,
    spaceName,
    recordType: n.recordType,
    recordId: n.recordId,
    titleKo: n.titleKo,
    titleEn: n.titleEn,
    bodyPreview: n.bodyPreview,
    url: n.url,
    createdAt: new Date(n.createdAt).toISOString(),
    readAt: n.readAt === null ? null : new Date(n.readAt).toISOString(),
  };
}
