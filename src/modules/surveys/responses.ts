// The participant side: the caller's own response, its draft and its submission (docs/rules/surveys.md#responses).
import { and, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { conflict, type FieldError, invalidMany } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import { requireWindowOpen } from "../../platform/http/time-window";
import { contentForViewer } from "../library/access";
import { requireActiveSpace } from "../spaces/archived";
import { isChoice, isText, loadSurveyConfig, type StoredConfig, SURVEY } from "./config";
import type { SurveyAnswersBody, SurveyResponse } from "./model";
import { surveyAnswers, surveyResponses } from "./tables";

type ResponseRow = typeof surveyResponses.$inferSelect;
type AnswerRow = typeof surveyAnswers.$inferSelect;
type AnswerInput = Static<typeof SurveyAnswersBody>["answers"][number];
type Answer = { questionId: string; optionIds: string[]; etcText: string | null; text: string | null; scaleValue: number | null };

/** SurveyResponse (docs/rules/surveys.md#responses): answers in the order of the survey's questions. */
function toSurveyResponse(row: ResponseRow, answers: AnswerRow[], cfg: StoredConfig): Static<typeof SurveyResponse> {
  const order = new Map(cfg.questions.map((q, i) => [q.id, i]));
  const rank = (id: string) => order.get(id) ?? Number.MAX_SAFE_INTEGER;
  return {
    status: row.status,
    version: row.version,
    answers: [...answers]
      .sort((a, b) => rank(a.questionId) - rank(b.questionId))
      .map((a) => ({ questionId: a.questionId, optionIds: a.optionIds, etcText: a.etcText, text: a.text, scaleValue: a.scaleValue })),
    updatedAt: isoRequired(row.updatedAt),
    submittedAt: iso(row.submittedAt),
  };
}

function findResponse(db: Db, contentId: string, profileId: string): ResponseRow | undefined {
  return db
    .select()
    .from(surveyResponses)
    .where(and(eq(surveyResponses.contentId, contentId), eq(surveyResponses.profileId, profileId)))
    .get();
}

const answersOf = (db: Db, responseId: string) => db.select().from(surveyAnswers).where(eq(surveyAnswers.responseId, responseId)).all();

export function getMySurveyResponse(actor: Actor, contentId: string) {
  contentForViewer(actor, contentId, SURVEY);
  const row = findResponse(actor.db, contentId, actor.profileId);
  if (!row) return { response: null };
  return { response: toSurveyResponse(row, answersOf(actor.db, row.id), loadSurveyConfig(actor.db, contentId)) };
}

const filled = (v: string | null | undefined): v is string => typeof v === "string" && v.trim() !== "";

/**
 * Checks answers against the survey's questions (docs/rules/surveys.md#question-types) and returns the
 * answered ones; unanswered items (nothing filled in) are dropped. With `submit`, every isRequired
 * question must be answered. 400 naming every bad field.
 */
function checkAnswers(cfg: StoredConfig, input: AnswerInput[], submit: boolean): Answer[] {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ in: "body", field, message });
  const questions = new Map(cfg.questions.map((q) => [q.id, q]));
  const seen = new Set<string>();
  const out: Answer[] = [];
  for (const [i, a] of input.entries()) {
    const at = `answers[${i}]`;
    const q = questions.get(a.questionId);
    if (!q || seen.has(q.id)) {
      err(`${at}.questionId`, q ? "repeats an earlier answer" : "must be a question of this survey");
      continue;
    }
    seen.add(q.id);
    const notHere = `must be absent, null or empty for a ${q.type} question`;
    const optionIds = a.optionIds ?? [];
    if (!isChoice(q.type)) {
      if (optionIds.length > 0) err(`${at}.optionIds`, notHere);
      if (filled(a.etcText)) err(`${at}.etcText`, notHere);
    }
    if (!isText(q.type) && filled(a.text)) err(`${at}.text`, notHere);
    if (q.type !== "SCALE" && a.scaleValue !== undefined && a.scaleValue !== null) err(`${at}.scaleValue`, notHere);
    if (isText(q.type)) {
      if (filled(a.text)) out.push({ questionId: q.id, optionIds: [], etcText: null, text: a.text, scaleValue: null });
    } else if (isChoice(q.type)) {
      const options = new Map(q.options.map((o) => [o.id, o]));
      const chosen = new Set<string>();
      optionIds.forEach((id, j) => {
        if (!options.has(id)) err(`${at}.optionIds[${j}]`, "must be an option of this question");
        else if (chosen.has(id)) err(`${at}.optionIds[${j}]`, "repeats an earlier option");
        chosen.add(id);
      });
      if (q.type === "SINGLE_CHOICE" && optionIds.length > 1) err(`${at}.optionIds`, "takes exactly one option for SINGLE_CHOICE");
      const etcChosen = optionIds.some((id) => options.get(id)?.isEtc);
      if (filled(a.etcText) && !etcChosen) err(`${at}.etcText`, "is allowed only when the isEtc option is chosen");
      if (optionIds.length > 0) {
        out.push({ questionId: q.id, optionIds, etcText: filled(a.etcText) ? a.etcText : null, text: null, scaleValue: null });
      }
    } else if (a.scaleValue !== undefined && a.scaleValue !== null) {
      const min = q.scaleMin ?? 1;
      const max = q.scaleMax ?? 5;
      if (a.scaleValue < min || a.scaleValue > max) err(`${at}.scaleValue`, `must be an integer ${min}..${max}`);
      out.push({ questionId: q.id, optionIds: [], etcText: null, text: null, scaleValue: a.scaleValue });
    }
  }
  if (submit) {
    const answered = new Set(out.map((a) => a.questionId));
    for (const q of cfg.questions) {
      if (q.isRequired && !answered.has(q.id)) err("answers", `requires an answer to question ${q.id}`);
    }
  }
  if (errors.length) throw invalidMany(errors);
  return out;
}

/** Creates or updates the caller's response row and replaces its answers, in the caller's transaction. */
function storeResponse(
  tx: Db,
  existing: ResponseRow | undefined,
  base: { contentId: string; profileId: string; version: number },
  status: "DRAFT" | "SUBMITTED",
  answers: Answer[],
  now: number,
): ResponseRow {
  const submittedAt = status === "SUBMITTED" ? now : null;
  let row: ResponseRow;
  if (existing) {
    row = tx
      .update(surveyResponses)
      .set({ status, version: base.version, updatedAt: now, submittedAt })
      .where(eq(surveyResponses.id, existing.id))
      .returning()
      .get();
    tx.delete(surveyAnswers).where(eq(surveyAnswers.responseId, existing.id)).run();
  } else {
    row = tx
      .insert(surveyResponses)
      .values({ id: Bun.randomUUIDv7(), ...base, status, createdAt: now, updatedAt: now, submittedAt })
      .returning()
      .get();
  }
  if (answers.length > 0) {
    tx.insert(surveyAnswers)
      .values(answers.map((a) => ({ ...a, responseId: row.id, contentId: base.contentId, submittedAt })))
      .run();
  }
  return row;
}

function respond(actor: Actor, contentId: string, input: AnswerInput[], submit: boolean, now: number) {
  return write(actor.db, (tx) => {
    const content = contentForViewer(actor, contentId, SURVEY, tx);
    const cfg = loadSurveyConfig(tx, contentId);
    const answers = checkAnswers(cfg, input, submit);
    requireActiveSpace(tx, content.spaceId);
    requireWindowOpen({ start: cfg.opensAt, end: cfg.closesAt }, now, "survey");
    if (cfg.questions.length === 0) throw conflict("INVALID_STATE", "This survey has no questions yet.");
    const existing = findResponse(tx, contentId, actor.profileId);
    if (existing?.status === "SUBMITTED") {
      if (!submit) throw conflict("INVALID_STATE", "This response is already submitted; submit again instead.");
      if (!cfg.allowResubmit) throw conflict("RESUBMIT_NOT_ALLOWED", "This survey does not allow resubmitting.");
    }
    const base = { contentId, profileId: actor.profileId, version: cfg.version };
    const row = storeResponse(tx, existing, base, submit ? "SUBMITTED" : "DRAFT", answers, now);
    return { response: toSurveyResponse(row, answersOf(tx, row.id), cfg) };
  });
}

/** saveSurveyResponseDraft: replaces the caller's draft; isRequired is not checked. */
export const saveSurveyResponseDraft = (actor: Actor, contentId: string, input: AnswerInput[], now = Date.now()) =>
  respond(actor, contentId, input, false, now);

/** submitSurveyResponse: every isRequired question answered; a resubmit needs allowResubmit. */
export const submitSurveyResponse = (actor: Actor, contentId: string, input: AnswerInput[], now = Date.now()) =>
  respond(actor, contentId, input, true, now);
