// The manager's side of group submissions: the list, a group's history, grading, feedback, return
// and per-member score overrides (docs/rules/group-work.md#group-submissions, docs/rules/submissions.md#submission-lists).
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { conflict, type FieldError, invalid, invalidMany, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { libraryContents } from "../../schema/library";
import { spaceGroupMembers } from "../../schema/spaces";
import { readyFilesByIds } from "../files/attachments";
import { canManageSql, contentForManager, contentVisibleTo, visibleContentSql } from "../library/access";
import { checkMaxScore } from "../submissions/grading";
import {
  gradedSet,
  latestPage,
  onLatestRevision,
  type RevisionChanges,
  type RevisionRef,
  returnLatest,
  saveFeedback,
} from "../submissions/revisions";
import { similarityView } from "../submissions/similarity-hook";
import { revisionAttachments, revisionFields } from "../submissions/view";
import { GROUP_ASSIGNMENT, loadGroupAssignmentConfig, type StoredConfig } from "./config";
import { groupPeople, linkStatus, setGroups } from "./link";
import type { FeedbackBody, GradeBody, GroupSubmission, GroupSubmissionsQuery, MemberScoresBody } from "./model";
import { groupMemberScores, groupSubmissionFiles, groupSubmissions } from "./tables";

export type SubmissionRow = typeof groupSubmissions.$inferSelect;
type Record = Static<typeof GroupSubmission>;
type Reader = { tenantId: string; memberId: string };

/**
 * GroupSubmission records for one reader, with one file query for all rows. `participant` applies
 * the returned-grade rule (docs/rules/submissions.md#returned-grades): score and feedback stay null until the revision is RETURNED.
 */
export function toGroupSubmissions(rt: Runtime, reader: Reader, db: Db, rows: SubmissionRow[], participant: boolean): Record[] {
  const files = readyFilesByIds(
    db,
    rows.flatMap((r) => r.fileIds),
  );
  const view = participant ? "participant" : "manager";
  const similarity = similarityView(
    db,
    view,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    groupId: r.groupId,
    groupName: r.groupName,
    submitterUserId: r.submitterMemberId,
    submitterName: r.submitterName,
    body: r.body,
    attachments: revisionAttachments(rt, reader, files, r.fileIds, `group-submission:${r.id}`),
    ...revisionFields(r, view),
    similarity: similarity(r.id),
  }));
}

/** A group's revisions, newest first (the chain index); `limit` 1 gives just its head. */
export function groupChain(db: Db, contentId: string, groupId: string, limit?: number): SubmissionRow[] {
  const q = db
    .select()
    .from(groupSubmissions)
    .where(and(eq(groupSubmissions.contentId, contentId), eq(groupSubmissions.groupId, groupId)))
    .orderBy(desc(groupSubmissions.revision));
  return limit === undefined ? q.all() : q.limit(limit).all();
}

/** Who has submitted per group: the distinct submitters of every chain of the content. */
function submittersByGroup(db: Db, contentId: string, groupIds?: string[]): Map<string, Set<string>> {
  const rows = db
    .selectDistinct({ groupId: groupSubmissions.groupId, memberId: groupSubmissions.submitterMemberId })
    .from(groupSubmissions)
    .where(and(eq(groupSubmissions.contentId, contentId), groupIds ? inArray(groupSubmissions.groupId, groupIds) : undefined))
    .all();
  const out = new Map<string, Set<string>>();
  for (const r of rows) out.set(r.groupId, (out.get(r.groupId) ?? new Set()).add(r.memberId));
  return out;
}

/**
 * Whether a group counts as submitted (docs/rules/group-work.md#group-submissions): ANY_MEMBER once it has a
 * revision; ALL_MEMBERS once every current member of the group has added one.
 */
function isGroupComplete(db: Db, contentId: string, cfg: StoredConfig, groupId: string): boolean {
  if (cfg.submissionMethod === "ANY_MEMBER") return true;
  const submitted = submittersByGroup(db, contentId, [groupId]).get(groupId) ?? new Set();
  return groupPeople(db, { groupIds: [groupId] }).every((p) => submitted.has(p.memberId));
}

/** Groups of the linked set that have not submitted (0 while the link is invalid). */
function notSubmittedGroupCount(db: Db, contentId: string, cfg: StoredConfig): number {
  if (!linkStatus(db, cfg).isLinkValid || cfg.spaceGroupSetId === null) return 0;
  const groups = setGroups(db, cfg.spaceGroupSetId);
  const submitted = submittersByGroup(db, contentId);
  if (cfg.submissionMethod === "ANY_MEMBER") return groups.filter((g) => !submitted.has(g.id)).length;
  const people = groupPeople(db, { setId: cfg.spaceGroupSetId });
  return groups.filter((g) => {
    const who = submitted.get(g.id);
    return !who || people.some((p) => p.groupId === g.id && !who.has(p.memberId));
  }).length;
}

export function listGroupSubmissions(rt: Runtime, actor: Actor, contentId: string, query: Static<typeof GroupSubmissionsQuery>) {
  contentForManager(actor, contentId, GROUP_ASSIGNMENT);
  const db = actor.db;
  const { where, page: at, pendingCount } = latestPage(db, groupSubmissions, contentId, query);
  const { offset, ...page } = at;
  const rows = db
    .select()
    .from(groupSubmissions)
    .where(where)
    .orderBy(desc(groupSubmissions.submittedAt), desc(groupSubmissions.id))
    .limit(page.pageSize)
    .offset(offset)
    .all();
  return {
    ...page,
    submissions: toGroupSubmissions(rt, actor, db, rows, false),
    pendingCount,
    notSubmittedGroupCount: notSubmittedGroupCount(db, contentId, loadGroupAssignmentConfig(db, contentId)),
  };
}

/** getGroupSubmissionHistory: a group without any submission is 404. */
export function getGroupSubmissionHistory(rt: Runtime, actor: Actor, contentId: string, groupId: string) {
  contentForManager(actor, contentId, GROUP_ASSIGNMENT);
  const chain = groupChain(actor.db, contentId, groupId);
  if (chain.length === 0) throw notFound();
  const [latest, ...history] = toGroupSubmissions(rt, actor, actor.db, chain, false);
  return { latest: latest as Record, history };
}

const LATEST = {
  type: GROUP_ASSIGNMENT,
  table: groupSubmissions,
  message: "Only the latest revision of a group's submission can be changed.",
} as const;

/** Applies a change to the latest revision and renders it for the manager. */
function update(rt: Runtime, actor: Actor, tx: Db, id: string, set: Partial<SubmissionRow>): Record {
  const row = tx.update(groupSubmissions).set(set).where(eq(groupSubmissions.id, id)).returning().get() as SubmissionRow;
  return toGroupSubmissions(rt, actor, tx, [row], false)[0] as Record;
}

/** The manager's changes through the shared flows: a return tells the group's current members. */
const changes = (rt: Runtime, actor: Actor): RevisionChanges<SubmissionRow, Record> => ({
  ...LATEST,
  change: (tx, id, set) => update(rt, actor, tx, id, set),
  recipients: (tx, row) => groupPeople(tx, { groupIds: [row.groupId] }).map((p) => p.profileId),
});

/**
 * gradeGroupSubmission: score (at most maxScore when set) and feedback; status GRADED. A regrade of
 * a RETURNED revision takes the grade back (GRADED, returnedAt null) until it is returned again.
 * ALL_MEMBERS: only once every current member has submitted (409 INVALID_STATE).
 */
export function gradeGroupSubmission(rt: Runtime, actor: Actor, ref: RevisionRef, body: Static<typeof GradeBody>, now = Date.now()) {
  return onLatestRevision(actor, LATEST, ref, (tx, row: SubmissionRow) => {
    const cfg = loadGroupAssignmentConfig(tx, ref.contentId);
    if ((body.rubric ?? []).length > 0) throw invalid("rubric", "must be empty: group assignments have no rubric");
    const score = body.score ?? null;
    const errors: FieldError[] = [];
    checkMaxScore(score, cfg.maxScore, "score", errors);
    if (errors.length) throw invalidMany(errors);
    if (!isGroupComplete(tx, ref.contentId, cfg, row.groupId)) {
      throw conflict("INVALID_STATE", "Not every member of the group has submitted yet.");
    }
    return update(rt, actor, tx, row.id, gradedSet(score, body.feedback, now));
  });
}

/** saveGroupSubmissionFeedback: replaces the feedback only; the status stays. */
export function saveGroupSubmissionFeedback(rt: Runtime, actor: Actor, ref: RevisionRef, body: Static<typeof FeedbackBody>) {
  return saveFeedback(actor, changes(rt, actor), ref, body.feedback);
}

/** returnGroupSubmission: GRADED → RETURNED only (409 INVALID_STATE otherwise). */
export function returnGroupSubmission(rt: Runtime, actor: Actor, ref: RevisionRef, now = Date.now()) {
  return returnLatest(actor, changes(rt, actor), ref, now);
}

/**
 * overrideGroupMemberScores: replaces the per-member overrides of a graded latest revision. Every
 * profileId must be a current member of the submission's group, listed once (400). The result lists
 * the group's current members with overrideScore (null = none) and effectiveScore (override, else groupScore).
 */
export function overrideGroupMemberScores(actor: Actor, ref: RevisionRef, body: Static<typeof MemberScoresBody>) {
  return onLatestRevision(actor, LATEST, ref, (tx, row: SubmissionRow) => {
    const people = groupPeople(tx, { groupIds: [row.groupId] });
    const inGroup = new Set(people.map((p) => p.profileId));
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    body.scores.forEach((s, i) => {
      const field = `scores[${i}].profileId`;
      if (seen.has(s.profileId)) errors.push({ in: "body", field, message: "repeats an earlier member" });
      else if (!inGroup.has(s.profileId)) errors.push({ in: "body", field, message: "must be a current member of the submission's group" });
      seen.add(s.profileId);
    });
    if (errors.length) throw invalidMany(errors);
    if (row.status === "SUBMITTED") throw conflict("INVALID_STATE", "Grade the submission before overriding member scores.");
    tx.delete(groupMemberScores).where(eq(groupMemberScores.submissionId, row.id)).run();
    if (body.scores.length) {
      tx.insert(groupMemberScores)
        .values(body.scores.map((s) => ({ submissionId: row.id, profileId: s.profileId, score: s.score })))
        .run();
    }
    const overrides = new Map(body.scores.map((s) => [s.profileId, s.score]));
    return {
      groupScore: row.score,
      members: people.map((p) => {
        const overrideScore = overrides.get(p.profileId) ?? null;
        return { profileId: p.profileId, displayName: p.displayName, effectiveScore: overrideScore ?? row.score, overrideScore };
      }),
    };
  });
}

/**
 * For getFile (docs/rules/files.md#getfile): whether the caller manages the group assignment of a revision
 * attaching the file, or can see the assignment and is in that revision's group of the linked set
 * (who getMyGroupSubmission shows it to). One indexed probe.
 */
export function canSeeGroupSubmissionFile(db: Db, actor: Pick<Actor, "memberId" | "profileId">, fileId: string): boolean {
  const inGroup = sql`EXISTS (SELECT 1 FROM space_group_members gm JOIN group_assignment_configs gc ON gc.space_group_set_id = gm.set_id WHERE gm.group_id = ${groupSubmissions.groupId} AND gm.member_id = ${actor.memberId} AND gc.content_id = ${groupSubmissions.contentId} AND gc.link_invalid_reason IS NULL)`;
  const hit = db
    .select({ one: sql`1` })
    .from(groupSubmissionFiles)
    .innerJoin(groupSubmissions, eq(groupSubmissions.id, groupSubmissionFiles.submissionId))
    .innerJoin(libraryContents, eq(libraryContents.id, groupSubmissions.contentId))
    .where(and(eq(groupSubmissionFiles.fileId, fileId), sql`(${canManageSql(actor)} OR (${visibleContentSql(actor)} AND ${inGroup}))`))
    .limit(1)
    .get();
  return hit !== undefined;
}

/**
 * downloadFileContent of a URL emitted for `group-submission:<id>` (docs/rules/files.md#download-rules): the submission
 * still attaches the file, and the reader still manages the assignment or sees it from the group.
 */
export function groupSubmissionFileDownload(
  db: Db,
  submissionId: string,
  fileId: string,
  reader: Pick<Actor, "memberId" | "profileId">,
): DownloadRule {
  const row = db
    .select({
      contentId: groupSubmissions.contentId,
      groupId: groupSubmissions.groupId,
      fileIds: groupSubmissions.fileIds,
      canManage: canManageSql(reader),
    })
    .from(groupSubmissions)
    .innerJoin(libraryContents, eq(libraryContents.id, groupSubmissions.contentId))
    .where(eq(groupSubmissions.id, submissionId))
    .get();
  if (!row?.fileIds.includes(fileId)) return "gone";
  if (row.canManage) return "ok";
  if (!contentVisibleTo(db, row.contentId, reader, GROUP_ASSIGNMENT)) return "gone";
  const inGroup = db
    .select({ one: spaceGroupMembers.groupId })
    .from(spaceGroupMembers)
    .where(and(eq(spaceGroupMembers.groupId, row.groupId), eq(spaceGroupMembers.memberId, reader.memberId)))
    .get();
  return inGroup ? "ok" : "gone";
}
