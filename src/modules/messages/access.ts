// File hooks of messages (getFile, downloadFileContent): tables only, so files/ can import them.
import { and, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { spaceMembers } from "../../schema/spaces";
import { conversationMessageFiles, conversationMessages, conversations } from "./tables";

/** The reader is a side of the conversation: its participant, or an ADMIN of its space. */
const sideOf = (readerId: string) =>
  or(
    eq(conversations.participantMemberId, readerId),
    sql`EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${conversations.spaceId} AND sm.member_id = ${readerId} AND sm.role = 'ADMIN')`,
  );

/** A message attaching the file that the reader, enrolled in its space, may read, among those `where` selects. */
function readableMessageFile(db: Db, readerId: string, where: SQL | undefined): boolean {
  const row = db
    .select({ id: conversationMessages.id })
    .from(conversationMessageFiles)
    .innerJoin(conversationMessages, eq(conversationMessages.id, conversationMessageFiles.messageId))
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, conversations.spaceId), eq(spaceMembers.memberId, readerId)))
    .where(and(where, sideOf(readerId)))
    .limit(1)
    .get();
  return row !== undefined;
}

/** downloadFileContent of a URL emitted for `message:<messageId>`: the message still attaches the file and the reader is still a side. */
export function messageFileDownload(db: Db, messageId: string, fileId: string, readerId: string): "ok" | "gone" {
  const where = and(eq(conversationMessageFiles.messageId, messageId), eq(conversationMessageFiles.fileId, fileId));
  return readableMessageFile(db, readerId, where) ? "ok" : "gone";
}

/** getFile: a message the reader may read attaches the file. */
export function canSeeMessageFile(db: Db, memberId: string, fileId: string): boolean {
  return readableMessageFile(db, memberId, eq(conversationMessageFiles.fileId, fileId));
}
