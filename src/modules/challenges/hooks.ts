// Clean-ups other modules call inside their own transaction.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { spaceMembers } from "../../schema/spaces";
import { challengeCompletions, challengeFiles, challengeMembers, challenges } from "./tables";

/**
 * An enrolment ended (left, removed or blocked): the member also leaves the space's challenges,
 * with their completions (docs/rules/challenges.md#leaving). Walks (member_id, …) indexes.
 */
export function leaveSpaceChallenges(tx: Db, spaceId: string, memberId: string): void {
  const ofSpace = tx.select({ id: challenges.id }).from(challenges).where(eq(challenges.spaceId, spaceId));
  tx.delete(challengeCompletions)
    .where(and(eq(challengeCompletions.memberId, memberId), inArray(challengeCompletions.challengeId, ofSpace)))
    .run();
  tx.delete(challengeMembers)
    .where(and(eq(challengeMembers.memberId, memberId), inArray(challengeMembers.challengeId, ofSpace)))
    .run();
}

/**
 * For getFile (docs/rules/files.md#getfile): whether a challenge the caller can read (enrolled in its space)
 * attaches the file. One probe on (file_id) then the enrolment primary key.
 */
export function canSeeChallengeFile(db: Db, actor: { memberId: string }, fileId: string): boolean {
  const row = db
    .select({ id: challengeFiles.challengeId })
    .from(challengeFiles)
    .innerJoin(challenges, eq(challenges.id, challengeFiles.challengeId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, challenges.spaceId), eq(spaceMembers.memberId, actor.memberId)))
    .where(eq(challengeFiles.fileId, fileId))
    .limit(1)
    .get();
  return row !== undefined;
}

/**
 * downloadFileContent of a URL emitted for `challenge:<challengeId>` (docs/rules/files.md#download-rules): the challenge
 * still attaches the file and the reader is still enrolled in its space.
 */
export function challengeFileDownload(db: Db, challengeId: string, fileId: string, reader: { memberId: string }): DownloadRule {
  const row = db
    .select({ id: challengeFiles.challengeId })
    .from(challengeFiles)
    .innerJoin(challenges, eq(challenges.id, challengeFiles.challengeId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, challenges.spaceId), eq(spaceMembers.memberId, reader.memberId)))
    .where(and(eq(challengeFiles.challengeId, challengeId), eq(challengeFiles.fileId, fileId)))
    .get();
  return row ? "ok" : "gone";
}
