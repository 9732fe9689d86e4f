// The revisions the similarity back-fill reads: group submissions from before the check existed get one.
import { asc, gt } from "drizzle-orm";
import type { RevisionSource } from "../similarity/revision";
import { groupSubmissions as s } from "./tables";

/** Every revision in id (submit) order. */
export const groupAssignmentRevisions: RevisionSource = (db, afterId, limit) =>
  db
    .select({
      id: s.id,
      contentId: s.contentId,
      groupId: s.groupId,
      groupName: s.groupName,
      body: s.body,
      fileIds: s.fileIds,
      submittedAt: s.submittedAt,
    })
    .from(s)
    .where(afterId ? gt(s.id, afterId) : undefined)
    .orderBy(asc(s.id))
    .limit(limit)
    .all()
    .map((r) => ({
      kind: "GROUP_ASSIGNMENT",
      contentId: r.contentId,
      submissionId: r.id,
      ownerId: r.groupId,
      displayName: r.groupName,
      body: r.body,
      fileIds: r.fileIds,
      submittedAt: r.submittedAt,
    }));
