// Peer assessment config: read and replace (docs/rules/group-work.md#group-set-link, docs/rules/group-work.md#peer-questions).
import { and, countDistinct, eq, notInArray } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, type FieldError, invalidMany } from "../../platform/http/errors";
import { linkStatus, requireLinkableSet } from "../group-assignments/link";
import { contentForManager } from "../library/access";
import type { PeerConfigBody, PeerConfigResult, PeerQuestion } from "./model";
import { PEER_MAX_SCORE, peerAnswers, peerAssessmentConfigs, peerAssessments, type StoredPeerQuestion } from "./tables";

export const PEER_ASSESSMENT = "GROUP_PEER_ASSESSMENT" as const;

export type StoredPeerConfig = Omit<typeof peerAssessmentConfigs.$inferSelect, "contentId" | "updatedAt" | "snapshotId"> & {
  snapshotId: string | null;
};

const DEFAULTS: StoredPeerConfig = {
  snapshotId: null,
  spaceGroupSetId: null,
  spaceGroupSetName: null,
  linkInvalidReason: null,
  allowDescriptiveAssessment: false,
  allowSelfAssessment: false,
  submitType: "GROUP_MEMBER",
  questions: [],
};

/** The stored config, or the defaults (not linked, no questions) before the first save. */
export function loadPeerConfig(db: Db, contentId: string): StoredPeerConfig {
  const row = db.select().from(peerAssessmentConfigs).where(eq(peerAssessmentConfigs.contentId, contentId)).get();
  if (!row) return { ...DEFAULTS, questions: [] };
  const { contentId: _c, updatedAt: _u, ...cfg } = row;
  return cfg;
}

export const toPeerQuestions = (questions: StoredPeerQuestion[]): Static<typeof PeerQuestion>[] =>
  questions.map((q, index) => ({ ...q, index, maxScore: PEER_MAX_SCORE }));

/** Members who have assessed at least one target. */
function submitCount(db: Db, contentId: string): number {
  return (
    db
      .select({ n: countDistinct(peerAssessments.assessorProfileId) })
      .from(peerAssessments)
      .where(eq(peerAssessments.contentId, contentId))
      .get()?.n ?? 0
  );
}

function toResult(db: Db, contentId: string, cfg: StoredPeerConfig): Static<typeof PeerConfigResult> {
  const submitted = submitCount(db, contentId);
  return {
    snapshot: {
      id: cfg.snapshotId,
      spaceGroupSetId: cfg.spaceGroupSetId,
      allowDescriptiveAssessment: cfg.allowDescriptiveAssessment,
      allowSelfAssessment: cfg.allowSelfAssessment,
      submitType: cfg.submitType,
    },
    questions: toPeerQuestions(cfg.questions),
    ...linkStatus(db, cfg),
    hasSubmitters: submitted > 0,
    submitCount: submitted,
  };
}

export function getPeerAssessmentConfig(actor: Actor, contentId: string) {
  contentForManager(actor, contentId, PEER_ASSESSMENT);
  return toResult(actor.db, contentId, loadPeerConfig(actor.db, contentId));
}

type Body = Static<typeof PeerConfigBody>;

/** Questions with an id keep it (it must be a stored question, listed once: 400); those without are new. */
function normalizeQuestions(current: StoredPeerQuestion[], input: Body["questions"]): StoredPeerQuestion[] {
  const stored = new Set(current.map((q) => q.id));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  const out = input.map((q, i) => {
    if (q.id !== undefined) {
      const field = `questions[${i}].id`;
      if (!stored.has(q.id)) errors.push({ in: "body", field, message: "must be a question of this peer assessment" });
      else if (seen.has(q.id)) errors.push({ in: "body", field, message: "repeats an earlier question" });
      seen.add(q.id);
    }
    return { id: q.id ?? Bun.randomUUIDv7(), assessmentCriteria: q.assessmentCriteria ?? "", criteriaSubText: q.criteriaSubText ?? null };
  });
  if (errors.length) throw invalidMany(errors);
  return out;
}

/**
 * setPeerAssessmentConfig: full replace. A new set must be linkable by the caller (400). Once anyone
 * has assessed, the set and submitType (which decide the targets) cannot change while the link
 * works (409 INVALID_STATE). A question left out takes its scores and comments with it.
 */
export function setPeerAssessmentConfig(actor: Actor, contentId: string, body: Body, now = Date.now()) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, PEER_ASSESSMENT, tx);
    const current = loadPeerConfig(tx, contentId);
    const questions = normalizeQuestions(current.questions, body.questions);
    const setId = body.spaceGroupSetId ?? null;
    const submitType = body.submitType ?? "GROUP_MEMBER";
    let link = {
      spaceGroupSetId: current.spaceGroupSetId,
      spaceGroupSetName: current.spaceGroupSetName,
      linkInvalidReason: current.linkInvalidReason,
    };
    const set = setId !== current.spaceGroupSetId && setId !== null ? requireLinkableSet(tx, actor, setId) : null;
    const retarget = setId !== current.spaceGroupSetId || submitType !== current.submitType;
    if (retarget && linkStatus(tx, current).isLinkValid && submitCount(tx, contentId) > 0) {
      throw conflict("INVALID_STATE", "Members have already assessed: the group set and submit type cannot be changed.");
    }
    if (setId !== current.spaceGroupSetId) link = { spaceGroupSetId: setId, spaceGroupSetName: set?.name ?? null, linkInvalidReason: null };
    const kept = questions.map((q) => q.id);
    tx.delete(peerAnswers)
      .where(and(eq(peerAnswers.contentId, contentId), notInArray(peerAnswers.questionId, kept)))
      .run();
    const next = {
      ...link,
      snapshotId: Bun.randomUUIDv7(),
      allowDescriptiveAssessment: body.allowDescriptiveAssessment ?? false,
      allowSelfAssessment: body.allowSelfAssessment ?? false,
      submitType,
      questions,
    };
    tx.insert(peerAssessmentConfigs)
      .values({ contentId, ...next, updatedAt: now })
      .onConflictDoUpdate({ target: peerAssessmentConfigs.contentId, set: { ...next, updatedAt: now } })
      .run();
    return toResult(tx, contentId, next);
  });
}

/** Called by deleteSpaceGroupSet in its transaction: linked configs become GROUP_SET_DELETED. */
export function markPeerAssessmentLinksDeleted(tx: Db, setId: string) {
  tx.update(peerAssessmentConfigs)
    .set({ linkInvalidReason: "GROUP_SET_DELETED" })
    .where(eq(peerAssessmentConfigs.spaceGroupSetId, setId))
    .run();
}
