// Editing a question set (quizzes, surveys): a full replace where a question or option sent with its
// id keeps it, one without is new, and files are the caller's ready uploads or already attached.
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { type FieldError, invalidMany } from "../../platform/http/errors";
import { iso } from "../../platform/http/schemas";
import { attachableFiles, questionFileIds } from "../files/attachments";

type StoredQuestion = { id: string; fileIds: string[]; options: { id: string; fileIds: string[] }[] };

/**
 * Collects every bad field of one config body (400 naming them all at `finish`): ids of another
 * `owner` (quiz, survey) or question, repeats, and attachment ids.
 */
export function questionEditor<Q extends StoredQuestion>(current: Q[], owner: string) {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ in: "body", field, message });
  const stored = new Map(current.map((q) => [q.id, q]));
  const attachments = attachableFiles(new Set(questionFileIds(current)), err);
  const seenQuestions = new Set<string>();
  return {
    err,
    /** The attachment ids of one field, without repeats (checked at `finish`). */
    files: attachments.take,
    /** The stored question a sent id names; undefined for a new one. */
    question(id: string | undefined, at: string): Q | undefined {
      if (id === undefined) return undefined;
      const old = stored.get(id);
      if (!old) err(`${at}.id`, `must be a question of this ${owner}`);
      else if (seenQuestions.has(id)) err(`${at}.id`, "repeats an earlier question");
      seenQuestions.add(id);
      return old;
    },
    /** The id checker of one question's options: a sent id must be one of its stored options, once; a new option gets a fresh id. */
    options(old: Q | undefined, at: string) {
      const known = new Set((old?.options ?? []).map((o) => o.id));
      const seen = new Set<string>();
      return (id: string | undefined, j: number): string => {
        if (id === undefined) return Bun.randomUUIDv7();
        if (!known.has(id)) err(`${at}.options[${j}].id`, "must be an option of this question");
        else if (seen.has(id)) err(`${at}.options[${j}].id`, "repeats an earlier option");
        seen.add(id);
        return id;
      };
    },
    /** Checks the newly attached files, then throws every error found. */
    finish(db: Db, actor: Actor) {
      attachments.check(db, actor);
      if (errors.length) throw invalidMany(errors);
    },
  };
}

/** The distinct files a set of questions attaches (the rows of its file index). */
export const setFileIds = (questions: StoredQuestion[]) => [...new Set(questionFileIds(questions))];

export const sameQuestions = (a: unknown[], b: unknown[]) => JSON.stringify(a) === JSON.stringify(b);

/** What every question set's config holds before its first save: no window, no questions. */
export const UNSAVED = { opensAt: null, closesAt: null, questions: [] as never[] } as const;

/** The question-type predicates of one question-set kind (choice types have options; text types free answers). */
export function questionKinds<T extends string>(choice: readonly T[], text: readonly T[]) {
  return { isChoice: (type: T) => choice.includes(type), isText: (type: T) => text.includes(type) };
}

/** The answer window of a question set's config record. */
export const windowOf = (cfg: { opensAt: number | null; closesAt: number | null }) => ({
  opensAt: iso(cfg.opensAt),
  closesAt: iso(cfg.closesAt),
});

/**
 * A copy of a question set for another content (docs/rules/next-year.md#copies): every question and
 * option gets a fresh id, so answers to the copy never mix with the original's; files stay the same.
 */
export function freshQuestionIds<Q extends { id: string; options: { id: string }[] }>(questions: Q[]): Q[] {
  return questions.map((q) => ({ ...q, id: Bun.randomUUIDv7(), options: q.options.map((o) => ({ ...o, id: Bun.randomUUIDv7() })) }));
}
