// Per-participant deadlines (DECISIONS §13 Another chance: setSubmissionExtension).

import { and, eq, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { notFound } from "../../platform/http/errors";
import { iso, parseTime } from "../../platform/http/schemas";
import { profiles } from "../../schema/members";
import { contentForManager } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { ASSIGNMENT, loadAssignmentConfig } from "./config";
import { dueAtFor } from "./deadlines";
import type { Extension, ExtensionBody } from "./model";
import { assignmentExtensions, assignmentSubmissions } from "./tables";

const x = assignmentExtensions;

/**
 * setSubmissionExtension: sets (or with null removes) one participant's deadline. Their submissions
 * follow at once: dueAtAtSubmit becomes the new deadline and isLate is recomputed against it.
 * An unknown profile: 404.
 */
export function setSubmissionExtension(
  actor: Actor,
  contentId: string,
  profileId: string,
  body: Static<typeof ExtensionBody>,
  now = Date.now(),
): Static<typeof Extension> {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, ASSIGNMENT, tx);
    if (!tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)).get()) throw notFound();
    const where = and(eq(x.contentId, contentId), eq(x.profileId, profileId));
    if (body.dueAt == null) tx.delete(x).where(where).run();
    else {
      const dueAt = parseTime(body.dueAt);
      tx.insert(x)
        .values({ contentId, profileId, dueAt, updatedAt: now })
        .onConflictDoUpdate({ target: [x.contentId, x.profileId], set: { dueAt, updatedAt: now } })
        .run();
    }
    const dueAt = dueAtFor(tx, contentId, profileId, loadAssignmentConfig(tx, contentId).dueAt);
    const s = assignmentSubmissions;
    tx.update(s)
      .set({ dueAtAtSubmit: dueAt, isLate: dueAt === null ? false : sql`${s.submittedAt} > ${dueAt}` })
      .where(and(eq(s.contentId, contentId), eq(s.profileId, profileId)))
      .run();
    dueMomentsChanged(tx, actor, contentId, ASSIGNMENT);
    return { profileId, dueAt: iso(body.dueAt == null ? null : dueAt) };
  });
}
