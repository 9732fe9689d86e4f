// Submissions: the participant's submit and own history, the manager's list and per-submitter history.
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { conflict, notFound } from "../../platform/http/errors";
import { iso } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { libraryContents } from "../../schema/library";
import { members, profiles } from "../../schema/members";
import { readyFilesByIds, requireReadyFiles } from "../files/attachments";
import { canManageSql, contentForManager, contentForViewer } from "../library/access";
import { requireActiveSpace } from "../spaces/archived";
import { listExtensions } from "../submissions/extensions";
import { rubricTotal } from "../submissions/grading";
import { checkSubmitInput, lateMark, latestPage } from "../submissions/revisions";
import { onRevisionSubmitted, similarityView } from "../submissions/similarity-hook";
import { isReleased, revisionAttachments, revisionFields, type View } from "../submissions/view";
import { ASSIGNMENT, loadAssignmentConfig } from "./config";
import { ASSIGNMENT_EXTENSIONS, dueAtFor } from "./deadlines";
import type { Submission, SubmissionsQuery, SubmitBody } from "./model";
import { assignmentSubmissionFiles, assignmentSubmissions } from "./tables";

export type SubmissionRow = typeof assignmentSubmissions.$inferSelect;
type Loaded = { row: SubmissionRow; displayName: string | null };

const s = assignmentSubmissions;

/** Submissions with their submitter's name (left join: the member may be gone), newest revision first. */
export function selectSubmissions(db: Db, where: SQL | undefined) {
  return db
    .select({ row: s, displayName: members.displayName })
    .from(s)
    .leftJoin(profiles, eq(profiles.id, s.profileId))
    .leftJoin(members, eq(members.id, profiles.memberId))
    .where(where);
}

/** The Submission records of loaded rows for one reader: their files in one query, URLs signed for the reader. */
export function toSubmissions(rt: Runtime, actor: Actor, db: Db, loaded: Loaded[], view: View): Static<typeof Submission>[] {
  const ids = loaded.map((l) => l.row.id);
  const links = ids.length
    ? db
        .select()
        .from(assignmentSubmissionFiles)
        .where(inArray(assignmentSubmissionFiles.submissionId, ids))
        .orderBy(asc(assignmentSubmissionFiles.position))
        .all()
    : [];
  const ready = readyFilesByIds(
    db,
    links.map((l) => l.fileId),
  );
  const filesOf = new Map<string, string[]>();
  for (const l of links) filesOf.set(l.submissionId, [...(filesOf.get(l.submissionId) ?? []), l.fileId]);
  const similarity = similarityView(db, view, ids);
  return loaded.map(({ row, displayName }) => {
    const items = row.rubricItems;
    return {
      id: row.id,
      profileId: row.profileId,
      displayName,
      body: row.body,
      attachments: revisionAttachments(rt, actor, ready, filesOf.get(row.id) ?? [], `assignment-submission:${row.id}`),
      ...revisionFields(row, view),
      rubricEvaluation: isReleased(view, row.status) && items ? { items, total: rubricTotal(items) } : null,
      similarity: similarity(row.id),
    };
  });
}

/** {latest, history} of one submitter: every revision, newest first, in one query; latest null without any. */
function historyOf(rt: Runtime, actor: Actor, db: Db, contentId: string, profileId: string, view: View) {
  const loaded = selectSubmissions(db, and(eq(s.contentId, contentId), eq(s.profileId, profileId)))
    .orderBy(desc(s.revision))
    .all();
  const [latest = null, ...history] = toSubmissions(rt, actor, db, loaded, view);
  return { latest, history };
}

/**
 * submitAssignment (docs/rules/submissions.md#submitting): body and file rules (400), the caller's deadline (their
 * extension, else dueAt; 409 DEADLINE_PASSED
 * unless allowLateSubmit, then isLate), a resubmit only with allowResubmit (409 RESUBMIT_NOT_ALLOWED).
 * The new revision is SUBMITTED, ungraded and the latest; older ones stay as history.
 */
export function submitAssignment(rt: Runtime, actor: Actor, contentId: string, input: Static<typeof SubmitBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    const content = contentForViewer(actor, contentId, ASSIGNMENT, tx);
    const cfg = loadAssignmentConfig(tx, contentId);
    const fileIds = input.fileIds ?? [];
    checkSubmitInput(cfg, input.body, fileIds);
    requireReadyFiles(tx, actor, fileIds);
    requireActiveSpace(tx, content.spaceId);
    const dueAt = dueAtFor(tx, contentId, actor.profileId, cfg.dueAt);
    const isLate = lateMark(dueAt, now, cfg.allowLateSubmit);
    const previous = tx
      .select({ id: s.id, revision: s.revision })
      .from(s)
      .where(and(eq(s.contentId, contentId), eq(s.profileId, actor.profileId)))
      .orderBy(desc(s.revision))
      .limit(1)
      .get();
    if (previous && !cfg.allowResubmit) throw conflict("RESUBMIT_NOT_ALLOWED", "This assignment does not allow resubmitting.");
    if (previous) tx.update(s).set({ isLatest: false }).where(eq(s.id, previous.id)).run();
    const id = Bun.randomUUIDv7();
    tx.insert(s)
      .values({
        id,
        contentId,
        profileId: actor.profileId,
        revision: (previous?.revision ?? 0) + 1,
        isLatest: true,
        body: input.body ?? null,
        status: "SUBMITTED",
        submittedAt: now,
        dueAtAtSubmit: dueAt,
        isLate,
      })
      .run();
    if (fileIds.length) {
      tx.insert(assignmentSubmissionFiles)
        .values(fileIds.map((fileId, position) => ({ submissionId: id, fileId, position })))
        .run();
    }
    onRevisionSubmitted(rt, actor, tx, {
      kind: "ASSIGNMENT",
      contentId,
      submissionId: id,
      ownerId: actor.profileId,
      displayName: actor.displayName,
      body: input.body ?? null,
      fileIds,
    });
    const loaded = selectSubmissions(tx, eq(s.id, id)).all();
    return toSubmissions(rt, actor, tx, loaded, "participant")[0] as Static<typeof Submission>;
  });
}

/** getMySubmission: the caller's latest (null if none) and earlier revisions; the returned-grade rule. */
export function getMySubmission(rt: Runtime, actor: Actor, contentId: string) {
  contentForViewer(actor, contentId, ASSIGNMENT);
  return historyOf(rt, actor, actor.db, contentId, actor.profileId, "participant");
}

/** getSubmitterHistory: one submitter's revisions; a profile without any here is 404. */
export function getSubmitterHistory(rt: Runtime, actor: Actor, contentId: string, profileId: string) {
  contentForManager(actor, contentId, ASSIGNMENT);
  const { latest, history } = historyOf(rt, actor, actor.db, contentId, profileId, "manager");
  if (!latest) throw notFound();
  return { latest, history };
}

/**
 * listAssignmentSubmissions (docs/rules/submissions.md#submission-lists): one row per submitter, its latest
 * revision, newest submittedAt first. Page style over the (content, is_latest[, status], submitted_at, id) indexes.
 */
export function listAssignmentSubmissions(rt: Runtime, actor: Actor, contentId: string, query: Static<typeof SubmissionsQuery>) {
  contentForManager(actor, contentId, ASSIGNMENT);
  const { where, page, pendingCount } = latestPage(actor.db, s, contentId, query);
  const loaded = selectSubmissions(actor.db, where).orderBy(desc(s.submittedAt), desc(s.id)).limit(page.pageSize).offset(page.offset).all();
  const { offset: _, ...fields } = page;
  const extensions = listExtensions(actor.db, ASSIGNMENT_EXTENSIONS, contentId).map((e) => ({ profileId: e.ownerId, dueAt: iso(e.dueAt) }));
  return { ...fields, submissions: toSubmissions(rt, actor, actor.db, loaded, "manager"), pendingCount, extensions };
}

/** Whether a revision attaching a file (`where` on the link) is the reader's own or of an assignment they manage. One indexed probe. */
function ownOrManagedLink(db: Db, reader: Pick<Actor, "memberId" | "profileId">, where: SQL | undefined): boolean {
  const f = assignmentSubmissionFiles;
  const hit = db
    .select({ one: sql`1` })
    .from(f)
    .innerJoin(s, eq(s.id, f.submissionId))
    .innerJoin(libraryContents, eq(libraryContents.id, s.contentId))
    .where(and(where, sql`(${s.profileId} = ${reader.profileId} OR ${canManageSql(reader)})`))
    .limit(1)
    .get();
  return hit !== undefined;
}

/** For getFile (docs/rules/files.md#getfile): whether the caller submitted, or manages the assignment of, a submission attaching the file. */
export const canSeeSubmissionFile = (db: Db, actor: Pick<Actor, "memberId" | "profileId">, fileId: string): boolean =>
  ownOrManagedLink(db, actor, eq(assignmentSubmissionFiles.fileId, fileId));

/**
 * downloadFileContent of a URL emitted for `assignment-submission:<id>` (docs/rules/files.md#download-rules): the
 * submission still attaches the file and the reader is still its submitter or a manager.
 */
export function submissionFileDownload(
  db: Db,
  submissionId: string,
  fileId: string,
  reader: Pick<Actor, "memberId" | "profileId">,
): DownloadRule {
  const f = assignmentSubmissionFiles;
  return ownOrManagedLink(db, reader, and(eq(f.submissionId, submissionId), eq(f.fileId, fileId))) ? "ok" : "gone";
}
