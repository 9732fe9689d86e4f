import { t } from "elysia";
import { CursorQuery, Id, Int, NextCursor, Nullable, Timestamp } from "../../platform/http/schemas";
import { Attachment } from "../files/model";
import { CreateCommentBody } from "../posts/model";

export const SpaceParams = t.Object({ spaceId: Id });
export const ConversationParams = t.Object({ spaceId: Id, profileId: Id });

export const Conversation = t.Object({
  /** The participant's profile: the conversation's id in paths. */
  profileId: t.String(),
  displayName: t.String(),
  /** Null while the conversation has no message (a participant's own, not yet started). */
  lastMessageAt: Nullable(Timestamp),
  lastMessagePreview: Nullable(t.String()),
  /** Messages of the other side the caller has not read. */
  unreadCount: Int(),
});

export const ConversationPage = t.Object({ conversations: t.Array(Conversation), nextCursor: NextCursor });

export const Message = t.Object({
  id: t.String(),
  /** The author's Member.id; null once that member is gone. */
  authorId: Nullable(t.String()),
  authorName: Nullable(t.String()),
  body: t.String(),
  attachments: t.Array(Attachment),
  createdAt: Timestamp,
});

export const MessagePage = t.Object({ messages: t.Array(Message), nextCursor: NextCursor });

/** The same text and file bounds as a comment (docs/rules/community.md#messages). */
export const SendMessageBody = CreateCommentBody;

export const ListQuery = t.Object({ ...CursorQuery });
