// What posts tell the notifications module: a post turning PUBLISHED, at once or at its publishAt
// (docs/rules/notifications.md#posts).
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { notify } from "../notifications/emit";
import type { Scope } from "../notifications/hooks";
import { cancelJobs, scheduleJob } from "../notifications/schedule";
import { consoleUrl } from "../notifications/urls";
import { type PostStatus, posts } from "./tables";

type Row = {
  id: string;
  spaceId: string;
  title: string;
  content: string;
  type: string;
  isEmergency: boolean;
  status: PostStatus;
  publishAt: number;
  authorMemberId: string | null;
};

/** The job kind of a scheduled post. */
export const POST_JOB = "POST";

/**
 * A post became readable: POST (EMERGENCY when flagged) to every enrolled member but the author,
 * or QUESTION to the space's ADMINs for a QUESTION post. Once per (post, publish moment).
 */
export function announcePost(tx: Db, scope: Scope, p: Row, now: number) {
  const question = p.type === "QUESTION";
  notify(
    tx,
    scope,
    {
      kind: question ? "QUESTION" : p.isEmergency ? "EMERGENCY" : "POST",
      spaceId: p.spaceId,
      recordType: "POST",
      recordId: p.id,
      titleKo: p.title,
      titleEn: p.title,
      bodyPreview: p.content,
      url: consoleUrl.post(p.spaceId, p.id),
      actorMemberId: p.authorMemberId,
      roles: question ? ["ADMIN"] : undefined,
      moment: p.publishAt,
    },
    now,
  );
}

/** After a post was written: announce it now, or schedule its announcement, or drop a schedule it no longer needs. */
export function postWritten(tx: Db, scope: Scope, p: Row, now: number) {
  if (p.status === "SCHEDULED" && p.publishAt > now) scheduleJob(tx, scope, { kind: POST_JOB, recordId: p.id, fireAt: p.publishAt });
  else {
    cancelJobs(tx, p.id, POST_JOB);
    if (p.status !== "ARCHIVED") announcePost(tx, scope, p, now);
  }
}

/** The job of a scheduled post (registered in app.ts): announce once its publishAt has come. */
export function runScheduledPost(tx: Db, scope: Scope, job: { recordId: string }, now: number): number | null {
  const p = tx.select().from(posts).where(eq(posts.id, job.recordId)).get();
  if (p?.status !== "SCHEDULED") return null;
  if (p.publishAt > now) return p.publishAt;
  announcePost(tx, scope, p, now);
  return null;
}
