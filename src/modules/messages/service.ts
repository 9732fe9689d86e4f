// Private conversations between a space's participants and its ADMINs (docs/rules/community.md#messages).
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { decodeKeyset } from "../../platform/http/cursor";
import { conflict, notFound } from "../../platform/http/errors";
import { limitMemberWrites } from "../../platform/http/rate-limit";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members, profiles } from "../../schema/members";
import { type SpaceRole, spaceMembers, spaces } from "../../schema/spaces";
import { attachmentsByRecord, requireAttachableFiles } from "../files/attachments";
import { notify } from "../notifications/emit";
import { consoleUrl } from "../notifications/urls";
import { requireSpaceMember } from "../spaces/access";
import { requireActive } from "../spaces/archived";
import type { Conversation, ListQuery, Message, SendMessageBody } from "./model";
import { conversationMessageFiles, conversationMessages, conversationReads, conversations } from "./tables";

type ConversationRecord = Static<typeof Conversation>;
type MessageRecord = Static<typeof Message>;
type ConversationRow = typeof conversations.$inferSelect;

const LIST_OP = "listSpaceConversations";
const MESSAGES_OP = "listConversationMessages";
const PREVIEW_CHARS = 100;

/** A conversation as the caller reaches it: the space, the participant, the caller's side, the stored row if any. */
type Thread = {
  space: { id: string; isActive: boolean; messageEnabled: boolean };
  callerRole: SpaceRole;
  participant: { memberId: string; profileId: string; displayName: string };
  row: ConversationRow | undefined;
};

/**
 * The conversation of the participant whose profile the path names (docs/rules/community.md#messages):
 * the participant themself or an ADMIN of the space reaches it; anyone else, an unknown space or
 * profile, or a profile that is not a PARTICIPANT of the space is 404.
 */
function findThread(actor: Actor, db: Db, spaceId: string, profileId: string): Thread {
  const space = db
    .select({ id: spaces.id, isActive: spaces.isActive, messageEnabled: spaces.messageEnabled, callerRole: spaceMembers.role })
    .from(spaces)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, spaces.id), eq(spaceMembers.memberId, actor.memberId)))
    .where(eq(spaces.id, spaceId))
    .get();
  if (!space) throw notFound();
  const participant = db
    .select({ memberId: members.id, profileId: profiles.id, displayName: members.displayName })
    .from(profiles)
    .innerJoin(members, eq(members.id, profiles.memberId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.memberId, profiles.memberId), eq(spaceMembers.spaceId, spaceId)))
    .where(and(eq(profiles.id, profileId), eq(spaceMembers.role, "PARTICIPANT")))
    .get();
  if (!participant) throw notFound();
  if (space.callerRole !== "ADMIN" && participant.memberId !== actor.memberId) throw notFound();
  const row = db
    .select()
    .from(conversations)
    .where(and(eq(conversations.spaceId, spaceId), eq(conversations.participantMemberId, participant.memberId)))
    .get();
  return { space, callerRole: space.callerRole, participant, row };
}

/** The other side's messages each reader has not read, per conversation, in one grouped query. */
function unreadCounts(db: Db, readerId: string, readerIsParticipant: boolean, ids: string[]): Map<string, number> {
  if (ids.length === 0) return new Map();
  const rows = db
    .select({ id: conversationMessages.conversationId, n: count() })
    .from(conversationMessages)
    .leftJoin(
      conversationReads,
      and(eq(conversationReads.conversationId, conversationMessages.conversationId), eq(conversationReads.memberId, readerId)),
    )
    .where(
      and(
        inArray(conversationMessages.conversationId, ids),
        eq(conversationMessages.fromParticipant, !readerIsParticipant),
        sql`(${conversationReads.readAt} IS NULL OR (${conversationMessages.createdAt}, ${conversationMessages.id}) > (${conversationReads.readAt}, ${conversationReads.readId}))`,
      ),
    )
    .groupBy(conversationMessages.conversationId)
    .all();
  return new Map(rows.map((r) => [r.id, r.n]));
}

/**
 * listSpaceConversations: an ADMIN gets every conversation of the space whose participant is still
 * enrolled, newest message first on (space_id, last_message_at, id); a participant gets their own
 * one, started or not. Anyone else: 404 for a space they cannot see, else 403.
 */
export function listSpaceConversations(rt: Runtime, actor: Actor, spaceId: string, q: Static<typeof ListQuery>) {
  const after = decodeKeyset(rt.cursors, LIST_OP, { spaceId }, q.cursor);
  const space = requireSpaceMember(actor, spaceId);
  if (space.callerRole === "PARTICIPANT") {
    const own = findThread(actor, actor.db, spaceId, actor.profileId);
    const unread = own.row ? (unreadCounts(actor.db, actor.memberId, true, [own.row.id]).get(own.row.id) ?? 0) : 0;
    return { conversations: [toConversation(own.participant, own.row, unread)], nextCursor: null };
  }
  const limit = q.limit ?? 30;
  const rows = actor.db
    .select({ row: conversations, memberId: members.id, profileId: profiles.id, displayName: members.displayName })
    .from(conversations)
    .innerJoin(
      spaceMembers,
      and(
        eq(spaceMembers.spaceId, conversations.spaceId),
        eq(spaceMembers.memberId, conversations.participantMemberId),
        eq(spaceMembers.role, "PARTICIPANT"),
      ),
    )
    .innerJoin(members, eq(members.id, conversations.participantMemberId))
    .innerJoin(profiles, and(eq(profiles.memberId, members.id), eq(profiles.isMain, true)))
    .where(
      and(
        eq(conversations.spaceId, spaceId),
        after ? sql`(${conversations.lastMessageAt}, ${conversations.id}) < (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const unread = unreadCounts(
    actor.db,
    actor.memberId,
    false,
    page.map((r) => r.row.id),
  );
  const last = page.at(-1)?.row;
  const nextCursor = rows.length > limit && last ? rt.cursors.encode(LIST_OP, { spaceId }, [last.lastMessageAt, last.id]) : null;
  return { conversations: page.map((r) => toConversation(r, r.row, unread.get(r.row.id) ?? 0)), nextCursor };
}

function toConversation(
  p: { profileId: string; displayName: string },
  row: ConversationRow | undefined,
  unreadCount: number,
): ConversationRecord {
  return {
    profileId: p.profileId,
    displayName: p.displayName,
    lastMessageAt: iso(row?.lastMessageAt),
    lastMessagePreview: row?.lastPreview ?? null,
    unreadCount,
  };
}

function selectMessages(db: Db) {
  return db
    .select({
      id: conversationMessages.id,
      authorMemberId: conversationMessages.authorMemberId,
      authorName: members.displayName,
      body: conversationMessages.body,
      createdAt: conversationMessages.createdAt,
    })
    .from(conversationMessages)
    .leftJoin(members, eq(members.id, conversationMessages.authorMemberId));
}

type MessageRow = ReturnType<ReturnType<typeof selectMessages>["all"]>[number];

function toMessages(rt: Runtime, actor: Actor, db: Db, rows: MessageRow[]): MessageRecord[] {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? db
        .select({ recordId: conversationMessageFiles.messageId, fileId: conversationMessageFiles.fileId })
        .from(conversationMessageFiles)
        .where(inArray(conversationMessageFiles.messageId, ids))
        .orderBy(asc(conversationMessageFiles.messageId), asc(conversationMessageFiles.position))
        .all()
    : [];
  const files = attachmentsByRecord(rt, actor, db, links, "message");
  return rows.map((r) => ({
    id: r.id,
    authorId: r.authorMemberId,
    authorName: r.authorName,
    body: r.body,
    attachments: files.get(r.id) ?? [],
    createdAt: isoRequired(r.createdAt),
  }));
}

/** Moves the reader's read mark of a conversation forward to this message (never back). */
function markRead(tx: Db, conversationId: string, memberId: string, at: number, id: string): void {
  tx.insert(conversationReads)
    .values({ conversationId, memberId, readAt: at, readId: id })
    .onConflictDoUpdate({
      target: [conversationReads.conversationId, conversationReads.memberId],
      set: { readAt: at, readId: id },
      setWhere: sql`(${conversationReads.readAt}, ${conversationReads.readId}) < (${at}, ${id})`,
    })
    .run();
}

/**
 * listConversationMessages: newest first on (conversation_id, created_at, id). Reading marks what
 * the page shows as read for the reader; it works while messages are off and in an archived space.
 */
export function listConversationMessages(
  rt: Runtime,
  actor: Actor,
  params: { spaceId: string; profileId: string },
  q: Static<typeof ListQuery>,
) {
  const after = decodeKeyset(rt.cursors, MESSAGES_OP, params, q.cursor);
  const thread = findThread(actor, actor.db, params.spaceId, params.profileId);
  if (!thread.row) return { messages: [], nextCursor: null };
  const conversationId = thread.row.id;
  const limit = q.limit ?? 30;
  const rows = selectMessages(actor.db)
    .where(
      and(
        eq(conversationMessages.conversationId, conversationId),
        after ? sql`(${conversationMessages.createdAt}, ${conversationMessages.id}) < (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(desc(conversationMessages.createdAt), desc(conversationMessages.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const newest = page[0];
  if (newest) write(actor.db, (tx) => markRead(tx, conversationId, actor.memberId, newest.createdAt, newest.id));
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? rt.cursors.encode(MESSAGES_OP, params, [last.createdAt, last.id]) : null;
  return { messages: toMessages(rt, actor, actor.db, page), nextCursor };
}

/** The list's one-line preview of a message: whitespace folded, the first 100 characters. */
const preview = (body: string) => Array.from(body.replace(/\s+/g, " ").trim()).slice(0, PREVIEW_CHARS).join("");

/** MESSAGE (docs/rules/notifications.md#kinds): the other side: every ADMIN of the space, or the participant. */
function notifyMessage(tx: Db, actor: Actor, thread: Thread, messageId: string, body: string, fromParticipant: boolean, now: number): void {
  notify(
    tx,
    actor,
    {
      kind: "MESSAGE",
      spaceId: thread.space.id,
      recordType: "MESSAGE",
      recordId: messageId,
      titleKo: `${actor.displayName}님의 메시지`,
      titleEn: `Message from ${actor.displayName}`,
      bodyPreview: body,
      url: consoleUrl.conversation(thread.space.id, thread.participant.profileId),
      actorMemberId: actor.memberId,
      ...(fromParticipant ? { roles: ["ADMIN"] as const } : { recipients: [thread.participant.memberId] }),
    },
    now,
  );
}

/**
 * sendConversationMessage: the participant or an ADMIN of the space (else 404); 409 while the
 * space's `messageEnabled` is false or the space is archived; then the per-member write limit.
 * The first message starts the conversation.
 */
export function sendConversationMessage(
  rt: Runtime,
  actor: Actor,
  params: { spaceId: string; profileId: string },
  input: Static<typeof SendMessageBody>,
  now = Date.now(),
): MessageRecord {
  return write(actor.db, (tx) => {
    const fileIds = input.fileIds ?? [];
    requireAttachableFiles(tx, actor, fileIds, new Set());
    const thread = findThread(actor, tx, params.spaceId, params.profileId);
    if (!thread.space.messageEnabled) throw conflict("INVALID_STATE", "Messages are off in this space.");
    requireActive(thread.space);
    limitMemberWrites(rt, actor, now);
    const conversationId = thread.row?.id ?? Bun.randomUUIDv7();
    if (thread.row) {
      tx.update(conversations)
        .set({ lastMessageAt: now, lastPreview: preview(input.body) })
        .where(eq(conversations.id, conversationId))
        .run();
    } else {
      tx.insert(conversations)
        .values({
          id: conversationId,
          spaceId: params.spaceId,
          participantMemberId: thread.participant.memberId,
          lastMessageAt: now,
          lastPreview: preview(input.body),
          createdAt: now,
        })
        .run();
    }
    const id = Bun.randomUUIDv7();
    const fromParticipant = actor.memberId === thread.participant.memberId;
    tx.insert(conversationMessages)
      .values({ id, conversationId, authorMemberId: actor.memberId, fromParticipant, body: input.body, createdAt: now })
      .run();
    if (fileIds.length)
      tx.insert(conversationMessageFiles)
        .values(fileIds.map((fileId, position) => ({ messageId: id, fileId, position })))
        .run();
    notifyMessage(tx, actor, thread, id, input.body, fromParticipant, now);
    // Writing in the thread reads it: the sender has seen everything up to their own message.
    markRead(tx, conversationId, actor.memberId, now, id);
    return toMessages(rt, actor, tx, selectMessages(tx).where(eq(conversationMessages.id, id)).all())[0] as MessageRecord;
  });
}
