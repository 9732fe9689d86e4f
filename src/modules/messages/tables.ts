import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { members } from "../../schema/members";
import { spaces } from "../../schema/spaces";

/**
 * One private conversation per PARTICIPANT and space with the space's ADMINs
 * (docs/rules/community.md#messages), made by its first message. `last_message_at` and
 * `last_preview` are kept by every send; the ADMINs' list walks (space_id, last_message_at, id).
 */
export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** The participant's member; the path names their main profile. */
    participantMemberId: text("participant_member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    lastMessageAt: integer("last_message_at").notNull(),
    lastPreview: text("last_preview").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("conversations_participant_idx").on(t.spaceId, t.participantMemberId),
    index("conversations_list_idx").on(t.spaceId, t.lastMessageAt, t.id),
    index("conversations_member_idx").on(t.participantMemberId),
  ],
);

/**
 * The messages of a conversation, walked newest first on (conversation_id, created_at, id).
 * `from_participant` says which side wrote it: unread counts count the other side's only.
 */
export const conversationMessages = sqliteTable(
  "conversation_messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    authorMemberId: text("author_member_id").references(() => members.id, { onDelete: "set null" }),
    fromParticipant: integer("from_participant", { mode: "boolean" }).notNull(),
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("conversation_messages_list_idx").on(t.conversationId, t.createdAt, t.id),
    index("conversation_messages_author_idx").on(t.authorMemberId),
  ],
);

/** The files a message attaches, in the order sent. */
export const conversationMessageFiles = sqliteTable(
  "conversation_message_files",
  {
    messageId: text("message_id")
      .notNull()
      .references(() => conversationMessages.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] }), index("conversation_message_files_file_idx").on(t.fileId)],
);

/** How far each reader (the participant, or each ADMIN) has read a conversation: the keyset of the newest message read. */
export const conversationReads = sqliteTable(
  "conversation_reads",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    readAt: integer("read_at").notNull(),
    readId: text("read_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.memberId] }), index("conversation_reads_member_idx").on(t.memberId)],
);
