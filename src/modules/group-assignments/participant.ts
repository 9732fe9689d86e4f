// The participant side: submit for one's group, and see the group's work (docs/rules/group-work.md#group-submissions).
import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { conflict, forbidden } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { requireReadyFiles } from "../files/attachments";
import { contentForViewer } from "../library/access";
import { requireActiveSpace } from "../spaces/archived";
import { checkSubmitInput, lateMark } from "../submissions/revisions";
import { onRevisionSubmitted } from "../submissions/similarity-hook";
import { GROUP_ASSIGNMENT, loadGroupAssignmentConfig, toGroupAssignmentConfig } from "./config";
import { groupDueAt } from "./extensions";
import { groupPeople, linkStatus, memberGroup } from "./link";
import type { GroupSubmission, SubmitGroupBody } from "./model";
import { groupChain, toGroupSubmissions } from "./submissions";
import { groupSubmissionFiles, groupSubmissions } from "./tables";

/**
 * submitGroupAssignment: a new revision of the caller's group's chain. Link invalid: 409; caller in
 * no group of the set: 403; body/file rules: 400; latest revision GRADED: 409 INVALID_STATE;
 * after the group's deadline (its extension, else dueAt): isLate with allowLateSubmit, else 409 DEADLINE_PASSED.
 */
export function submitGroupAssignment(
  rt: Runtime,
  actor: Actor,
  contentId: string,
  input: Static<typeof SubmitGroupBody>,
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    const content = contentForViewer(actor, contentId, GROUP_ASSIGNMENT, tx);
    requireActiveSpace(tx, content.spaceId);
    const cfg = loadGroupAssignmentConfig(tx, contentId);
    if (!linkStatus(tx, cfg).isLinkValid || cfg.spaceGroupSetId === null) {
      throw conflict("INVALID_STATE", "This group assignment is not linked to a group set.");
    }
    const group = memberGroup(tx, cfg.spaceGroupSetId, actor.memberId);
    if (!group) throw forbidden("FORBIDDEN", "You are in no group of this assignment's group set.");
    const body = input.body ?? "";
    const fileIds = input.fileIds ?? [];
    checkSubmitInput(cfg, body, fileIds);
    requireReadyFiles(tx, actor, fileIds);
    const [latest] = groupChain(tx, contentId, group.id, 1);
    // Graded is final for a group (docs/rules/submissions.md#returned-grades): a returned grade is a released grade.
    if (latest && latest.status !== "SUBMITTED")
      throw conflict("INVALID_STATE", "Your group's submission is graded and cannot be resubmitted.");
    const dueAt = groupDueAt(tx, contentId, group.id, cfg.dueAt);
    const late = lateMark(dueAt, now, cfg.allowLateSubmit);
    if (latest) tx.update(groupSubmissions).set({ isLatest: false }).where(eq(groupSubmissions.id, latest.id)).run();
    const me = tx.select({ displayName: members.displayName }).from(members).where(eq(members.id, actor.memberId)).get();
    const row = tx
      .insert(groupSubmissions)
      .values({
        id: Bun.randomUUIDv7(),
        contentId,
        groupId: group.id,
        groupName: group.name,
        submitterMemberId: actor.memberId,
        submitterName: me?.displayName ?? "",
        revision: (latest?.revision ?? 0) + 1,
        isLatest: true,
        body,
        fileIds,
        status: "SUBMITTED",
        submittedAt: now,
        dueAtAtSubmit: dueAt,
        isLate: late,
      })
      .returning()
      .get();
    if (fileIds.length > 0)
      tx.insert(groupSubmissionFiles)
        .values(fileIds.map((fileId) => ({ submissionId: row.id, fileId })))
        .run();
    onRevisionSubmitted(rt, actor, tx, {
      kind: "GROUP_ASSIGNMENT",
      contentId,
      submissionId: row.id,
      ownerId: group.id,
      displayName: group.name,
      body,
      fileIds,
    });
    return toGroupSubmissions(rt, actor, tx, [row], true)[0] as Static<typeof GroupSubmission>;
  });
}

/** getMyGroupSubmission: config, the caller's group with who has submitted, and its chain (returned-grade rule). */
export function getMyGroupSubmission(rt: Runtime, actor: Actor, contentId: string) {
  contentForViewer(actor, contentId, GROUP_ASSIGNMENT);
  const db = actor.db;
  const cfg = loadGroupAssignmentConfig(db, contentId);
  const group = linkStatus(db, cfg).isLinkValid && cfg.spaceGroupSetId ? memberGroup(db, cfg.spaceGroupSetId, actor.memberId) : null;
  const config = toGroupAssignmentConfig(group ? { ...cfg, dueAt: groupDueAt(db, contentId, group.id, cfg.dueAt) } : cfg);
  if (!group) return { config, group: null, latest: null, history: [] };
  const chain = groupChain(db, contentId, group.id);
  const submitted = new Set(chain.map((r) => r.submitterMemberId));
  const people = groupPeople(db, { groupIds: [group.id] });
  const [latest, ...history] = toGroupSubmissions(rt, actor, db, chain, true);
  return {
    config,
    group: {
      ...group,
      members: people.map((p) => ({ profileId: p.profileId, displayName: p.displayName, submitted: submitted.has(p.memberId) })),
    },
    latest: latest ?? null,
    history,
  };
}
