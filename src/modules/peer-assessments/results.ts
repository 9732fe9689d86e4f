// getPeerAssessmentResults: per-target averages and comments, and who has finished (docs/rules/group-work.md#peer-assessments).
import { and, asc, avg, count, eq, isNotNull } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { linkStatus } from "../group-assignments/link";
import { contentForManager } from "../library/access";
import { loadPeerConfig, PEER_ASSESSMENT, toPeerQuestions } from "./config";
import type { PeerResults } from "./model";
import { peerAnswers, peerAssessments } from "./tables";
import { allTargets, rosterOf, type Target, targetsOf } from "./targets";

/**
 * Targets are the set's current targets in set order, then any target that was assessed but has
 * left the set (with the names it had). Averages are over the current questions, from grouped
 * queries; comments are the non-empty ones, oldest first, without their authors.
 */
export function getPeerAssessmentResults(actor: Actor, contentId: string): Static<typeof PeerResults> {
  contentForManager(actor, contentId, PEER_ASSESSMENT);
  const db = actor.db;
  const cfg = loadPeerConfig(db, contentId);
  const roster = cfg.spaceGroupSetId && linkStatus(db, cfg).isLinkValid ? rosterOf(db, cfg.spaceGroupSetId) : { groups: [], people: [] };
  const current = allTargets(cfg, roster);

  const a = peerAssessments;
  const assessments = db
    .select({ assessor: a.assessorProfileId, targetId: a.targetId, targetName: a.targetName, groupId: a.groupId, groupName: a.groupName })
    .from(a)
    .where(eq(a.contentId, contentId))
    .orderBy(asc(a.submittedAt))
    .all();
  const received = new Map<string, number>();
  const gone = new Map<string, Target>();
  const known = new Set(current.map((t) => t.targetId));
  const assessedBy = new Map<string, Set<string>>();
  for (const r of assessments) {
    received.set(r.targetId, (received.get(r.targetId) ?? 0) + 1);
    if (!known.has(r.targetId))
      gone.set(r.targetId, { targetId: r.targetId, targetName: r.targetName, groupId: r.groupId, groupName: r.groupName });
    assessedBy.set(r.assessor, (assessedBy.get(r.assessor) ?? new Set()).add(r.targetId));
  }

  const n = peerAnswers;
  const byQuestion = new Map<string, number>();
  for (const r of db
    .select({ targetId: n.targetId, questionId: n.questionId, average: avg(n.score).mapWith(Number) })
    .from(n)
    .where(eq(n.contentId, contentId))
    .groupBy(n.targetId, n.questionId)
    .all())
    byQuestion.set(`${r.targetId}\u0000${r.questionId}`, r.average);
  const overall = new Map(
    db
      .select({ targetId: n.targetId, average: avg(n.score).mapWith(Number), n: count() })
      .from(n)
      .where(eq(n.contentId, contentId))
      .groupBy(n.targetId)
      .all()
      .map((r) => [r.targetId, r.average]),
  );
  const comments = new Map<string, string[]>();
  for (const r of db
    .select({ targetId: n.targetId, comment: n.comment })
    .from(n)
    .innerJoin(a, eq(a.id, n.assessmentId))
    .where(and(eq(n.contentId, contentId), isNotNull(n.comment)))
    .orderBy(asc(a.submittedAt), asc(n.questionId))
    .all())
    if (r.comment) comments.set(r.targetId, [...(comments.get(r.targetId) ?? []), r.comment]);

  let expected = 0;
  let submitted = 0;
  for (const person of roster.people) {
    const mine = targetsOf(cfg, current, person);
    if (mine.length === 0) continue;
    expected++;
    const done = assessedBy.get(person.profileId);
    if (done && mine.every((t) => done.has(t.targetId))) submitted++;
  }

  return {
    questions: toPeerQuestions(cfg.questions),
    targets: [...current, ...gone.values()].map((t) => ({
      ...t,
      receivedCount: received.get(t.targetId) ?? 0,
      averages: cfg.questions.map((q) => ({ questionId: q.id, average: byQuestion.get(`${t.targetId}\u0000${q.id}`) ?? null })),
      overallAverage: overall.get(t.targetId) ?? null,
      comments: comments.get(t.targetId) ?? [],
    })),
    expectedSubmitterCount: expected,
    submittedSubmitterCount: submitted,
  };
}
