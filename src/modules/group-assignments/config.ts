// Group assignment config: read and replace (docs/rules/group-work.md#group-set-link, docs/rules/submissions.md#deadlines).

import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict } from "../../platform/http/errors";
import { iso, parseTime } from "../../platform/http/schemas";
import { contentForManager } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { linkStatus, requireLinkableSet } from "./link";
import type { GroupAssignmentConfig, GroupAssignmentConfigBody, GroupAssignmentConfigResult } from "./model";
import { groupAssignmentConfigs, groupSubmissions } from "./tables";

export const GROUP_ASSIGNMENT = "GROUP_ASSIGNMENT" as const;

export type StoredConfig = Omit<typeof groupAssignmentConfigs.$inferSelect, "contentId" | "updatedAt">;

const DEFAULTS: StoredConfig = {
  spaceGroupSetId: null,
  spaceGroupSetName: null,
  linkInvalidReason: null,
  maxScore: null,
  allowLateSubmit: false,
  submissionMethod: "ANY_MEMBER",
  bodyRequired: false,
  fileRequired: false,
  dueAt: null,
};

/** The stored config of a group assignment, or the defaults (not linked) before the first save. */
export function loadGroupAssignmentConfig(db: Db, contentId: string): StoredConfig {
  const row = db.select().from(groupAssignmentConfigs).where(eq(groupAssignmentConfigs.contentId, contentId)).get();
  if (!row) return { ...DEFAULTS };
  const { contentId: _c, updatedAt: _u, ...cfg } = row;
  return cfg;
}

export function toGroupAssignmentConfig(cfg: StoredConfig): Static<typeof GroupAssignmentConfig> {
  return {
    spaceGroupSetId: cfg.spaceGroupSetId,
    maxScore: cfg.maxScore,
    allowLateSubmit: cfg.allowLateSubmit,
    submissionMethod: cfg.submissionMethod,
    bodyRequired: cfg.bodyRequired,
    fileRequired: cfg.fileRequired,
    dueAt: iso(cfg.dueAt),
  };
}

function toResult(db: Db, cfg: StoredConfig): Static<typeof GroupAssignmentConfigResult> {
  return { config: toGroupAssignmentConfig(cfg), ...linkStatus(db, cfg) };
}

export function getGroupAssignmentConfig(actor: Actor, contentId: string) {
  contentForManager(actor, contentId, GROUP_ASSIGNMENT);
  return toResult(actor.db, loadGroupAssignmentConfig(actor.db, contentId));
}

/**
 * setGroupAssignmentConfig: full replace. A new set must be linkable by the caller (400); keeping
 * the stored one needs no check. While the link works and groups have submitted, the set cannot be
 * swapped (409 INVALID_STATE: their submissions belong to its groups); a broken link may be replaced.
 */
export function setGroupAssignmentConfig(
  actor: Actor,
  contentId: string,
  body: Static<typeof GroupAssignmentConfigBody>,
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, GROUP_ASSIGNMENT, tx);
    const current = loadGroupAssignmentConfig(tx, contentId);
    const setId = body.spaceGroupSetId ?? null;
    let link = {
      spaceGroupSetId: current.spaceGroupSetId,
      spaceGroupSetName: current.spaceGroupSetName,
      linkInvalidReason: current.linkInvalidReason,
    };
    if (setId !== current.spaceGroupSetId) {
      const set = setId === null ? null : requireLinkableSet(tx, actor, setId);
      if (linkStatus(tx, current).isLinkValid && hasSubmissions(tx, contentId)) {
        throw conflict("INVALID_STATE", "Groups have already submitted: the group set cannot be changed.");
      }
      link = { spaceGroupSetId: set?.id ?? null, spaceGroupSetName: set?.name ?? null, linkInvalidReason: null };
    }
    const next: StoredConfig = {
      ...link,
      maxScore: body.maxScore ?? null,
      allowLateSubmit: body.allowLateSubmit ?? false,
      submissionMethod: body.submissionMethod ?? "ANY_MEMBER",
      bodyRequired: body.bodyRequired ?? false,
      fileRequired: body.fileRequired ?? false,
      dueAt: body.dueAt ? parseTime(body.dueAt) : null,
    };
    tx.insert(groupAssignmentConfigs)
      .values({ contentId, ...next, updatedAt: now })
      .onConflictDoUpdate({ target: groupAssignmentConfigs.contentId, set: { ...next, updatedAt: now } })
      .run();
    dueMomentsChanged(tx, actor, contentId, GROUP_ASSIGNMENT);
    return toResult(tx, next);
  });
}

const hasSubmissions = (db: Db, contentId: string) =>
  db.select({ id: groupSubmissions.id }).from(groupSubmissions).where(eq(groupSubmissions.contentId, contentId)).limit(1).get() !==
  undefined;
