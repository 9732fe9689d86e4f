// The assessor's side: whom to assess, and one assessment per target (docs/rules/group-work.md#peer-assessments).
import { and, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, type FieldError, forbidden, invalidMany, notFound } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import { linkStatus } from "../group-assignments/link";
import { contentForViewer } from "../library/access";
import { requireActiveSpace } from "../spaces/archived";
import { loadPeerConfig, PEER_ASSESSMENT, type StoredPeerConfig, toPeerQuestions } from "./config";
import type { PeerAnswersBody } from "./model";
import { peerAnswers, peerAssessments } from "./tables";
import { allTargets, rosterOf, type Target, targetsOf } from "./targets";

/** The caller's targets: link invalid 409 INVALID_STATE, caller in no group of the set 403. */
function myTargets(db: Db, actor: Actor, cfg: StoredPeerConfig): Target[] {
  if (!cfg.spaceGroupSetId || !linkStatus(db, cfg).isLinkValid) {
    throw conflict("INVALID_STATE", "This peer assessment is not linked to a group set.");
  }
  const roster = rosterOf(db, cfg.spaceGroupSetId);
  const me = roster.people.find((p) => p.memberId === actor.memberId);
  if (!me) throw forbidden("FORBIDDEN", "You are in no group of this peer assessment's group set.");
  return targetsOf(cfg, allTargets(cfg, roster), me);
}

export function listMyPeerTargets(actor: Actor, contentId: string) {
  contentForViewer(actor, contentId, PEER_ASSESSMENT);
  const db = actor.db;
  const cfg = loadPeerConfig(db, contentId);
  const targets = myTargets(db, actor, cfg);
  const done = new Map(
    db
      .select({ targetId: peerAssessments.targetId, submittedAt: peerAssessments.submittedAt })
      .from(peerAssessments)
      .where(and(eq(peerAssessments.contentId, contentId), eq(peerAssessments.assessorProfileId, actor.profileId)))
      .all()
      .map((r) => [r.targetId, r.submittedAt]),
  );
  return {
    submitType: cfg.submitType,
    allowDescriptiveAssessment: cfg.allowDescriptiveAssessment,
    questions: toPeerQuestions(cfg.questions),
    targets: targets.map((t) => ({ ...t, submittedAt: iso(done.get(t.targetId)) })),
  };
}

type AnswerInput = Static<typeof PeerAnswersBody>["answers"];

/** One answer per question, each question answered; comments only with allowDescriptiveAssessment (400). */
function checkAnswers(cfg: StoredPeerConfig, answers: AnswerInput) {
  const errors: FieldError[] = [];
  const questions = new Set(cfg.questions.map((q) => q.id));
  const seen = new Set<string>();
  answers.forEach((a, i) => {
    const at = `answers[${i}]`;
    if (!questions.has(a.questionId))
      errors.push({ in: "body", field: `${at}.questionId`, message: "must be a question of this peer assessment" });
    else if (seen.has(a.questionId)) errors.push({ in: "body", field: `${at}.questionId`, message: "repeats an earlier answer" });
    seen.add(a.questionId);
    if (!cfg.allowDescriptiveAssessment && a.comment) {
      errors.push({ in: "body", field: `${at}.comment`, message: "is not allowed: this peer assessment takes scores only" });
    }
  });
  const missing = cfg.questions.filter((q) => !seen.has(q.id));
  if (missing.length)
    errors.push({ in: "body", field: "answers", message: `must answer every question (missing: ${missing.map((q) => q.id).join(", ")})` });
  if (errors.length) throw invalidMany(errors);
}

/** submitPeerAssessment: creates or replaces the caller's assessment of one of their targets (else 404). */
export function submitPeerAssessment(actor: Actor, contentId: string, targetId: string, answers: AnswerInput, now = Date.now()) {
  return write(actor.db, (tx) => {
    const content = contentForViewer(actor, contentId, PEER_ASSESSMENT, tx);
    const cfg = loadPeerConfig(tx, contentId);
    const target = myTargets(tx, actor, cfg).find((t) => t.targetId === targetId);
    if (!target) throw notFound();
    checkAnswers(cfg, answers);
    requireActiveSpace(tx, content.spaceId);
    const a = peerAssessments;
    const existing = tx
      .select({ id: a.id })
      .from(a)
      .where(and(eq(a.contentId, contentId), eq(a.assessorProfileId, actor.profileId), eq(a.targetId, targetId)))
      .get();
    const row = { ...target, submittedAt: now };
    let id: string;
    if (existing) {
      id = existing.id;
      tx.update(a).set(row).where(eq(a.id, id)).run();
      tx.delete(peerAnswers).where(eq(peerAnswers.assessmentId, id)).run();
    } else {
      id = Bun.randomUUIDv7();
      tx.insert(a)
        .values({ id, contentId, assessorProfileId: actor.profileId, ...row })
        .run();
    }
    const order = new Map(cfg.questions.map((q, i) => [q.id, i]));
    const stored = [...answers]
      .sort((x, y) => (order.get(x.questionId) ?? 0) - (order.get(y.questionId) ?? 0))
      .map((x) => ({ questionId: x.questionId, score: x.score, comment: x.comment || null }));
    if (stored.length)
      tx.insert(peerAnswers)
        .values(stored.map((x) => ({ ...x, assessmentId: id, contentId, targetId })))
        .run();
    return { targetId, answers: stored, submittedAt: isoRequired(now) };
  });
}
