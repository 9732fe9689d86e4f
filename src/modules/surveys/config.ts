// Survey config: read, replace, and the side-effect-free change check (docs/rules/surveys.md#question-types, docs/rules/surveys.md#change-check).

import { and, count, eq, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { conflict } from "../../platform/http/errors";
import { timeWindow } from "../../platform/http/time-window";
import type { Runtime } from "../../platform/runtime";
import { libraryContents } from "../../schema/library";
import { contentForManager, contentForViewer, visibleContentSql } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { questionAttachments, questionFileDownload } from "../question-sets/attachments";
import { questionEditor, questionKinds, sameQuestions, setFileIds, UNSAVED, windowOf } from "../question-sets/edit";
import { CHANGE_REASONS, type ChangeReason, type SurveyConfig, type SurveyConfigBody, type SurveyQuestion } from "./model";
import {
  type StoredOption,
  type StoredQuestion,
  type SurveyQuestionType,
  surveyConfigFiles,
  surveyConfigs,
  surveyResponses,
} from "./tables";

export const SURVEY = "SURVEY" as const;

export type StoredConfig = {
  description: string | null;
  isAnonymous: boolean;
  allowResubmit: boolean;
  version: number;
  opensAt: number | null;
  closesAt: number | null;
  questions: StoredQuestion[];
};

const DEFAULT_CONFIG: StoredConfig = {
  description: null,
  isAnonymous: false,
  allowResubmit: false,
  version: 0,
  ...UNSAVED,
};

export const { isChoice, isText } = questionKinds<SurveyQuestionType>(["SINGLE_CHOICE", "MULTIPLE_CHOICE"], ["SHORT_TEXT", "LONG_TEXT"]);

/** The stored config of a survey, or the defaults (version 0, no questions) before the first save. */
export function loadSurveyConfig(db: Db, contentId: string): StoredConfig {
  const row = db.select().from(surveyConfigs).where(eq(surveyConfigs.contentId, contentId)).get();
  if (!row) return { ...DEFAULT_CONFIG };
  return {
    description: row.description,
    isAnonymous: row.isAnonymous,
    allowResubmit: row.allowResubmit,
    version: row.version,
    opensAt: row.opensAt,
    closesAt: row.closesAt,
    questions: row.questions,
  };
}

/** The survey config record for one reader: attachments carry download URLs signed for them. */
function toSurveyConfig(rt: Runtime, actor: Actor, contentId: string, cfg: StoredConfig, db: Db): Static<typeof SurveyConfig> {
  const attachments = questionAttachments(rt, actor, db, `survey:${contentId}`, cfg.questions);
  return {
    description: cfg.description,
    isAnonymous: cfg.isAnonymous,
    allowResubmit: cfg.allowResubmit,
    version: cfg.version,
    ...windowOf(cfg),
    questions: cfg.questions.map(
      (q): Static<typeof SurveyQuestion> => ({
        id: q.id,
        type: q.type,
        title: q.title,
        description: q.description,
        isRequired: q.isRequired,
        attachments: attachments(q.fileIds),
        options: q.options.map((o) => ({ id: o.id, label: o.label, isEtc: o.isEtc, attachments: attachments(o.fileIds) })),
        scaleMin: q.scaleMin,
        scaleMax: q.scaleMax,
        scaleMinLabel: q.scaleMinLabel,
        scaleMaxLabel: q.scaleMaxLabel,
      }),
    ),
  };
}

export function getSurveyConfig(rt: Runtime, actor: Actor, contentId: string) {
  contentForManager(actor, contentId, SURVEY);
  return toSurveyConfig(rt, actor, contentId, loadSurveyConfig(actor.db, contentId), actor.db);
}

/** getSurveyForParticipant: the same record for any viewer (survey questions hold no answers). */
export function getSurveyForParticipant(rt: Runtime, actor: Actor, contentId: string) {
  contentForViewer(actor, contentId, SURVEY);
  return toSurveyConfig(rt, actor, contentId, loadSurveyConfig(actor.db, contentId), actor.db);
}

type Body = Static<typeof SurveyConfigBody>;
const blank = (v: string | null | undefined) => v === undefined || v === null || v === "";

/**
 * Validates a config body against the stored config and returns the config it would store (new
 * questions and options get fresh ids). 400 naming every bad field: ids of another survey or
 * question, option counts, fields of another type, files that are not the caller's ready uploads
 * (files the survey already attaches are kept without that check).
 */
function normalizeConfig(db: Db, actor: Actor, current: StoredConfig, body: Body): Omit<StoredConfig, "version"> {
  const edit = questionEditor(current.questions, "survey");
  const { err, files } = edit;
  const questions = body.questions.map((sent, i): StoredQuestion => {
    const q = { ...sent, type: sent.type ?? "SHORT_TEXT" };
    const at = `questions[${i}]`;
    const old = edit.question(q.id, at);
    const choice = isChoice(q.type);
    const scale = q.type === "SCALE";
    const notHere = `must be absent, null or empty for a ${q.type} question`;
    const inputOptions = q.options ?? [];
    if (!choice && inputOptions.length > 0) err(`${at}.options`, notHere);
    if (choice && inputOptions.length < 2) err(`${at}.options`, "must have 2..50 options for a choice question");
    if (choice && inputOptions.filter((o) => o.isEtc).length > 1) err(`${at}.options`, "may have at most one isEtc option");
    if (!scale) {
      for (const key of ["scaleMin", "scaleMax"] as const) if (q[key] !== undefined && q[key] !== null) err(`${at}.${key}`, notHere);
      for (const key of ["scaleMinLabel", "scaleMaxLabel"] as const) if (!blank(q[key])) err(`${at}.${key}`, notHere);
    }
    const optionId = edit.options(old, at);
    const options = choice
      ? inputOptions.map(
          (o, j): StoredOption => ({
            id: optionId(o.id, j),
            label: o.label ?? "",
            isEtc: o.isEtc ?? false,
            fileIds: files(o.attachmentFileIds, `${at}.options[${j}].attachmentFileIds`),
          }),
        )
      : [];
    return {
      id: q.id ?? Bun.randomUUIDv7(),
      type: q.type,
      title: q.title ?? "",
      description: q.description ?? null,
      isRequired: q.isRequired ?? false,
      fileIds: files(q.attachmentFileIds, `${at}.attachmentFileIds`),
      options,
      scaleMin: scale ? (q.scaleMin ?? 1) : null,
      scaleMax: scale ? (q.scaleMax ?? 5) : null,
      scaleMinLabel: scale ? (q.scaleMinLabel ?? null) : null,
      scaleMaxLabel: scale ? (q.scaleMaxLabel ?? null) : null,
    };
  });
  edit.finish(db, actor);
  const window = timeWindow(body.opensAt, body.closesAt, "closesAt", "opensAt");
  return {
    description: body.description ?? null,
    isAnonymous: body.isAnonymous ?? false,
    allowResubmit: body.allowResubmit ?? false,
    opensAt: window.start,
    closesAt: window.end,
    questions,
  };
}

/** The changes between two configs that invalidate answers given to the first (see CHANGE_REASONS). */
export function changeReasons(before: StoredQuestion[], after: StoredQuestion[]): ChangeReason[] {
  const found = new Set<ChangeReason>();
  const next = new Map(after.map((q) => [q.id, q]));
  for (const q of before) {
    const n = next.get(q.id);
    if (!n) {
      found.add("QUESTION_REMOVED");
      continue;
    }
    if (q.type !== n.type && !(isText(q.type) && isText(n.type))) {
      found.add("QUESTION_TYPE_CHANGED");
      continue;
    }
    if (isChoice(q.type)) {
      const options = new Map(n.options.map((o) => [o.id, o]));
      for (const o of q.options) {
        const no = options.get(o.id);
        if (!no) found.add("OPTION_REMOVED");
        else if (o.isEtc && !no.isEtc) found.add("ETC_OPTION_REMOVED");
      }
    }
    if (q.type === "SCALE" && (q.scaleMin !== n.scaleMin || q.scaleMax !== n.scaleMax)) found.add("SCALE_CHANGED");
  }
  return CHANGE_REASONS.filter((r) => found.has(r));
}

function submitCount(db: Db, contentId: string): number {
  return (
    db
      .select({ n: count() })
      .from(surveyResponses)
      .where(and(eq(surveyResponses.contentId, contentId), eq(surveyResponses.status, "SUBMITTED")))
      .get()?.n ?? 0
  );
}

/** Every response of the survey, drafts included (the ones a reset deletes). */
function responseCount(db: Db, contentId: string): number {
  return db.select({ n: count() }).from(surveyResponses).where(eq(surveyResponses.contentId, contentId)).get()?.n ?? 0;
}

/** checkSurveyConfigChange: what setSurveyConfig would do with this body, without doing it. */
export function checkSurveyConfigChange(actor: Actor, contentId: string, body: Body) {
  contentForManager(actor, contentId, SURVEY);
  const current = loadSurveyConfig(actor.db, contentId);
  const next = normalizeConfig(actor.db, actor, current, body);
  const reasons = changeReasons(current.questions, next.questions);
  const submitted = submitCount(actor.db, contentId);
  const isModified =
    next.description !== current.description ||
    next.isAnonymous !== current.isAnonymous ||
    next.allowResubmit !== current.allowResubmit ||
    next.opensAt !== current.opensAt ||
    next.closesAt !== current.closesAt ||
    !sameQuestions(current.questions, next.questions);
  return { submitCount: submitted, isModified, needReset: submitted > 0 && reasons.length > 0, reasons };
}

/**
 * setSurveyConfig: full replace. A question or option sent with its id is kept (answers stay linked
 * to it); one without is new; one left out is removed. `version` goes up when the questions change.
 * A change with any CHANGE_REASONS resets the survey: every response (submitted or draft) is deleted;
 * removing a question or changing its type while responses exist needs `resetResponses: true`
 * (else 409 IN_USE, docs/rules/surveys.md#changes-that-drop-answers).
 */
export function setSurveyConfig(rt: Runtime, actor: Actor, contentId: string, body: Body, now = Date.now()) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, SURVEY, tx);
    const current = loadSurveyConfig(tx, contentId);
    const next = normalizeConfig(tx, actor, current, body);
    const reasons = changeReasons(current.questions, next.questions);
    const dropsAnswers = reasons.includes("QUESTION_REMOVED") || reasons.includes("QUESTION_TYPE_CHANGED");
    if (dropsAnswers && body.resetResponses !== true && responseCount(tx, contentId) > 0) {
      throw conflict("IN_USE", "Responses exist: send resetResponses true to remove or retype a question and delete them.");
    }
    if (reasons.length > 0) {
      tx.delete(surveyResponses).where(eq(surveyResponses.contentId, contentId)).run();
    }
    const version = current.version + (sameQuestions(current.questions, next.questions) ? 0 : 1);
    const row = { ...next, version, updatedAt: now };
    tx.insert(surveyConfigs)
      .values({ contentId, ...row })
      .onConflictDoUpdate({ target: surveyConfigs.contentId, set: row })
      .run();
    tx.delete(surveyConfigFiles).where(eq(surveyConfigFiles.contentId, contentId)).run();
    const fileIds = setFileIds(next.questions);
    if (fileIds.length > 0)
      tx.insert(surveyConfigFiles)
        .values(fileIds.map((fileId) => ({ contentId, fileId })))
        .run();
    dueMomentsChanged(tx, actor, contentId, SURVEY);
    return toSurveyConfig(rt, actor, contentId, { ...next, version }, tx);
  });
}

/** For getFile (docs/rules/files.md#getfile): whether the caller can see a survey whose questions attach the file. One indexed probe. */
export function canSeeSurveyFile(db: Db, actor: Pick<Actor, "memberId" | "profileId">, fileId: string): boolean {
  const hit = db
    .select({ one: sql`1` })
    .from(surveyConfigFiles)
    .innerJoin(libraryContents, eq(libraryContents.id, surveyConfigFiles.contentId))
    .where(and(eq(surveyConfigFiles.fileId, fileId), visibleContentSql(actor)))
    .limit(1)
    .get();
  return hit !== undefined;
}

/**
 * downloadFileContent of a URL emitted for `survey:<contentId>` (docs/rules/files.md#download-rules): the reader can
 * still see the survey and its questions still attach the file.
 */
export function surveyFileDownload(db: Db, contentId: string, fileId: string, reader: Pick<Actor, "memberId" | "profileId">): DownloadRule {
  return questionFileDownload(db, { id: contentId, type: SURVEY }, fileId, reader, () => [loadSurveyConfig(db, contentId).questions]);
}
