// The revisions the similarity back-fill reads: submissions from before the check existed get one.
import { asc, eq, gt, inArray } from "drizzle-orm";
import { members, profiles } from "../../schema/members";
import type { RevisionSource } from "../similarity/revision";
import { assignmentSubmissionFiles as files, assignmentSubmissions as s } from "./tables";

/**
 * Every revision in id (submit) order, with the submitter's name and its files in the order sent.
 * Its own query, not submissions.ts's selectSubmissions: that module reaches the check's queue.
 */
export const assignmentRevisions: RevisionSource = (db, afterId, limit) => {
  const rows = db
    .select({ row: s, displayName: members.displayName })
    .from(s)
    .leftJoin(profiles, eq(profiles.id, s.profileId))
    .leftJoin(members, eq(members.id, profiles.memberId))
    .where(afterId ? gt(s.id, afterId) : undefined)
    .orderBy(asc(s.id))
    .limit(limit)
    .all();
  const fileIds = new Map<string, string[]>();
  if (rows.length > 0) {
    const ids = rows.map((r) => r.row.id);
    for (const l of db.select().from(files).where(inArray(files.submissionId, ids)).orderBy(asc(files.position)).all()) {
      fileIds.set(l.submissionId, [...(fileIds.get(l.submissionId) ?? []), l.fileId]);
    }
  }
  return rows.map(({ row, displayName }) => ({
    kind: "ASSIGNMENT",
    contentId: row.contentId,
    submissionId: row.id,
    ownerId: row.profileId,
    displayName,
    body: row.body,
    fileIds: fileIds.get(row.id) ?? [],
    submittedAt: row.submittedAt,
  }));
};
