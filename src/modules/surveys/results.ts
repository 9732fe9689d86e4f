// The manager's view of the answers: statistics, text answers, respondents, e-mail count.
import { and, count, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { forbidden, invalid, notFound } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members, profiles } from "../../schema/members";
import { spaceMembers } from "../../schema/spaces";
import { contentForManager, contentForViewer, contentPopulation } from "../library/access";
import { profilesWithEmail } from "../members/directory";
import { percent, selectedCounts } from "../question-sets/statistics";
import { visibleSpace } from "../spaces/access";
import { isChoice, isText, loadSurveyConfig, SURVEY } from "./config";
import type { RespondentsQuery, SurveyStatistics } from "./model";
import { surveyAnswers, surveyResponses } from "./tables";

const TEXT_OP = "listSurveyTextAnswers";
const RESPONDENTS_OP = "listSurveyRespondents";

/** Median of a value → count distribution (sorted by value): the middle value, or the mean of the two middle ones. */
function medianOf(distribution: { value: number; count: number }[], total: number): number | null {
  if (total === 0) return null;
  const at = (k: number) => {
    let seen = 0;
    for (const d of distribution) {
      seen += d.count;
      if (k < seen) return d.value;
    }
    return distribution.at(-1)?.value ?? 0;
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

/**
 * getSurveyStatistics: response counts, the population's submit rate (docs/rules/library.md#who-should-answer) and
 * per-question figures over submitted responses, from four grouped queries over the survey.
 */
export function getSurveyStatistics(actor: Actor, contentId: string): Static<typeof SurveyStatistics> {
  const content = contentForManager(actor, contentId, SURVEY);
  const db = actor.db;
  const cfg = loadSurveyConfig(db, contentId);
  const r = surveyResponses;
  const byStatus = new Map(
    db
      .select({ status: r.status, n: count() })
      .from(r)
      .where(eq(r.contentId, contentId))
      .groupBy(r.status)
      .all()
      .map((x) => [x.status, x.n]),
  );
  const submitters = new Set(
    db
      .select({ profileId: r.profileId })
      .from(r)
      .where(and(eq(r.contentId, contentId), eq(r.status, "SUBMITTED")))
      .all()
      .map((x) => x.profileId),
  );
  const population = contentPopulation(db, content);
  const populationSubmitted = population.filter((p) => submitters.has(p.profileId)).length;

  const a = surveyAnswers;
  const submittedAnswers = and(eq(a.contentId, contentId), isNotNull(a.submittedAt));
  const answered = new Map(
    db
      .select({ questionId: a.questionId, n: count() })
      .from(a)
      .where(submittedAnswers)
      .groupBy(a.questionId)
      .all()
      .map((x) => [x.questionId, x.n]),
  );
  const selected = selectedCounts(db, a, a.optionIds, submittedAnswers);
  const scaleRows = db
    .select({ questionId: a.questionId, value: a.scaleValue, n: count() })
    .from(a)
    .where(and(submittedAnswers, isNotNull(a.scaleValue)))
    .groupBy(a.questionId, a.scaleValue)
    .all();

  const questions = cfg.questions.map((q) => {
    const answeredCount = answered.get(q.id) ?? 0;
    const options = isChoice(q.type)
      ? q.options.map((o) => {
          const selectedCount = selected.get(o.id) ?? 0;
          return { optionId: o.id, label: o.label, isEtc: o.isEtc, selectedCount, ratio: percent(selectedCount, answeredCount) };
        })
      : [];
    let scale: Static<typeof SurveyStatistics>["questions"][number]["scale"] = null;
    if (q.type === "SCALE") {
      const min = q.scaleMin ?? 1;
      const max = q.scaleMax ?? 5;
      const counts = new Map(scaleRows.filter((s) => s.questionId === q.id).map((s) => [s.value as number, s.n]));
      const distribution = Array.from({ length: max - min + 1 }, (_, k) => ({ value: min + k, count: counts.get(min + k) ?? 0 }));
      const total = distribution.reduce((s, d) => s + d.count, 0);
      const sum = distribution.reduce((s, d) => s + d.value * d.count, 0);
      scale = { distribution, average: total === 0 ? null : sum / total, median: medianOf(distribution, total) };
    }
    return { questionId: q.id, title: q.title, type: q.type, isRequired: q.isRequired, answeredCount, options, scale };
  });

  return {
    isAnonymous: cfg.isAnonymous,
    submittedCount: byStatus.get("SUBMITTED") ?? 0,
    draftCount: byStatus.get("DRAFT") ?? 0,
    notSubmittedCount: population.length - populationSubmitted,
    submitRate: percent(populationSubmitted, population.length),
    questionCount: cfg.questions.length,
    questions,
  };
}

const isKeyset = (v: unknown): v is [number, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === "number" && typeof v[1] === "string";

/**
 * listSurveyTextAnswers: texts of submitted responses, newest submission first, keyset on
 * (submitted_at, response_id). Text types list `text`; choice types the `etcText`s; SCALE is 404.
 */
export function listSurveyTextAnswers(
  rt: Runtime,
  actor: Actor,
  contentId: string,
  questionId: string,
  q: { cursor?: string; limit?: number },
) {
  const after = rt.cursors.decode<unknown>(TEXT_OP, { contentId, questionId }, q.cursor);
  if (after !== null && !isKeyset(after)) throw invalid("cursor", "is not a valid cursor for this list", "query");
  contentForManager(actor, contentId, SURVEY);
  const cfg = loadSurveyConfig(actor.db, contentId);
  const question = cfg.questions.find((x) => x.id === questionId);
  if (!question || question.type === "SCALE") throw notFound();
  const a = surveyAnswers;
  const column = isText(question.type) ? a.text : a.etcText;
  const limit = q.limit ?? 30;
  const rows = actor.db
    .select({ text: column, submittedAt: a.submittedAt, responseId: a.responseId, name: members.displayName })
    .from(a)
    .innerJoin(surveyResponses, eq(surveyResponses.id, a.responseId))
    .leftJoin(profiles, eq(profiles.id, surveyResponses.profileId))
    .leftJoin(members, eq(members.id, profiles.memberId))
    .where(
      and(
        eq(a.questionId, questionId),
        eq(a.contentId, contentId),
        isNotNull(a.submittedAt),
        isNotNull(column),
        after ? sql`(${a.submittedAt}, ${a.responseId}) < (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(desc(a.submittedAt), desc(a.responseId))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    answers: page.map((x) => ({
      text: x.text as string,
      respondentName: cfg.isAnonymous ? null : (x.name ?? null),
      submittedAt: isoRequired(x.submittedAt as number),
    })),
    nextCursor:
      rows.length > limit && last ? rt.cursors.encode(TEXT_OP, { contentId, questionId }, [last.submittedAt, last.responseId]) : null,
  };
}

/**
 * listSurveyRespondents: the PARTICIPANTs of `spaceId` in enrolment order (keyset on the space's
 * (created_at, member_id) index), each with their response's state. A space the caller cannot
 * see is 404; the content is checked first (404), the manager rule last (403).
 */
export function listSurveyRespondents(rt: Runtime, actor: Actor, contentId: string, q: Static<typeof RespondentsQuery>) {
  if (q.spaceId === undefined) throw invalid("spaceId", "is required", "query");
  const spaceId = q.spaceId;
  const status = q.status ?? "ALL";
  const filters = { contentId, spaceId, status };
  const after = rt.cursors.decode<unknown>(RESPONDENTS_OP, filters, q.cursor);
  if (after !== null && !isKeyset(after)) throw invalid("cursor", "is not a valid cursor for this list", "query");
  const content = contentForViewer(actor, contentId, SURVEY);
  visibleSpace(actor, spaceId);
  if (!content.canManage) throw forbidden();
  const sm = spaceMembers;
  const r = surveyResponses;
  const limit = q.limit ?? 30;
  const rows = actor.db
    .select({
      memberId: sm.memberId,
      createdAt: sm.createdAt,
      profileId: profiles.id,
      displayName: members.displayName,
      status: r.status,
      submittedAt: r.submittedAt,
    })
    .from(sm)
    .innerJoin(members, eq(members.id, sm.memberId))
    .innerJoin(profiles, and(eq(profiles.memberId, sm.memberId), eq(profiles.isMain, true)))
    .leftJoin(r, and(eq(r.contentId, contentId), eq(r.profileId, profiles.id)))
    .where(
      and(
        eq(sm.spaceId, spaceId),
        eq(sm.role, "PARTICIPANT"),
        status === "SUBMITTED" ? eq(r.status, "SUBMITTED") : undefined,
        status === "NOT_SUBMITTED" ? or(sql`${r.status} IS NULL`, eq(r.status, "DRAFT")) : undefined,
        after ? sql`(${sm.createdAt}, ${sm.memberId}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(sm.createdAt, sm.memberId)
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    respondents: page.map((x) => {
      const submitted = x.status === "SUBMITTED";
      return { profileId: x.profileId, displayName: x.displayName, submitted, submittedAt: submitted ? iso(x.submittedAt) : null };
    }),
    nextCursor: rows.length > limit && last ? rt.cursors.encode(RESPONDENTS_OP, filters, [last.createdAt, last.memberId]) : null,
  };
}

/** checkSurveyEmailCount (docs/rules/spaces.md#e-mail-counts): submitted responses of members with this e-mail. */
export function checkSurveyEmailCount(actor: Actor, contentId: string, email: string) {
  contentForManager(actor, contentId, SURVEY);
  // From the e-mail's member to its profiles, then the (content, profile) unique index.
  const ofEmail = profilesWithEmail(actor.db, email);
  const n =
    actor.db
      .select({ n: count() })
      .from(surveyResponses)
      .where(
        and(eq(surveyResponses.contentId, contentId), inArray(surveyResponses.profileId, ofEmail), eq(surveyResponses.status, "SUBMITTED")),
      )
      .get()?.n ?? 0;
  return { email, count: n };
}
