// Scoring and ordering rules with no database: docs/rules/quizzes.md#scoring, docs/rules/quizzes.md#participant-view.
import type { ScoreAggregation, StoredCandidate, StoredQuestion } from "./tables";

/**
 * Trimmed, inner whitespace collapsed to one space, NFC-normalised and case-folded (lower, upper, lower
 * case: the full fold, so that ß, ẞ and SS compare equal, not only the simple lower-casing).
 */
export function normalizeText(v: string): string {
  return v.normalize("NFC").trim().replace(/\s+/gu, " ").toLowerCase().toUpperCase().toLowerCase().normalize("NFC");
}

/** Whether `text` is, in full, the `*`-separated `parts` (at least two) with any run of characters (empty included) at each `*`. */
function wildcardMatches(text: string, parts: string[]): boolean {
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  const end = text.length - last.length;
  let pos = first.length;
  for (const part of parts.slice(1, -1)) {
    const at = text.indexOf(part, pos);
    if (at < 0 || at + part.length > end) return false;
    pos = at + part.length;
  }
  return true;
}

/**
 * A candidate matches the whole answer; `*` is any run of characters unless ignoreWildcard makes it
 * literal. No other character is special, and no pattern is compiled, so no candidate can make scoring throw.
 */
export function matchesCandidate(answer: string, candidate: StoredCandidate): boolean {
  const a = normalizeText(answer);
  const c = normalizeText(candidate.text);
  if (candidate.ignoreWildcard || !c.includes("*")) return a === c;
  return wildcardMatches(a, c.split("*"));
}

export type AnswerValue = { selectedOptionIds: string[]; textAnswer: string | null };
export type Scored = { answered: boolean; isCorrect: boolean | null; pointsAwarded: number | null };

/** Whether an answer holds anything to score: an option chosen, or a non-blank text. */
export const isAnswered = (a: AnswerValue) => a.selectedOptionIds.length > 0 || (a.textAnswer ?? "").trim() !== "";

/**
 * Scores one answer by its question's type. ESSAY answers stay unscored (null) for scoreQuizAnswer;
 * an unanswered question, ESSAY included, gets 0 and isCorrect=false.
 */
export function scoreAnswer(q: StoredQuestion, a: AnswerValue, partialCreditMultiple: boolean): Scored {
  if (!isAnswered(a)) return { answered: false, isCorrect: false, pointsAwarded: 0 };
  const full = (ok: boolean): Scored => ({ answered: true, isCorrect: ok, pointsAwarded: ok ? q.point : 0 });
  switch (q.type) {
    case "SINGLE":
      return full(q.options.find((o) => o.isCorrect)?.id === a.selectedOptionIds[0]);
    case "MULTIPLE": {
      const chosen = new Set(a.selectedOptionIds);
      const correct = q.options.filter((o) => o.isCorrect);
      const right = correct.filter((o) => chosen.has(o.id)).length;
      const wrong = chosen.size - right;
      if (right === correct.length && wrong === 0) return full(true);
      const points = partialCreditMultiple ? Math.floor((q.point * Math.max(0, right - wrong)) / correct.length) : 0;
      return { answered: true, isCorrect: false, pointsAwarded: points };
    }
    case "SHORT_ANSWER":
      return full(q.answerCandidates.some((c) => matchesCandidate(a.textAnswer ?? "", c)));
    case "ESSAY":
      return { answered: true, isCorrect: null, pointsAwarded: null };
  }
}

/** Totals of an attempt from its scored answers: score = sum, pending while an answer is unscored. */
export function attemptTotals(answers: { pointsAwarded: number | null; answered: boolean }[]) {
  return {
    score: answers.reduce((s, a) => s + (a.pointsAwarded ?? 0), 0),
    hasPendingManual: answers.some((a) => a.answered && a.pointsAwarded === null),
  };
}

/** `passed` of a fully scored result; null without passScore or while scoring is pending. */
export const passedOf = (score: number | null, complete: boolean, passScore: number | null) =>
  passScore === null || score === null || !complete ? null : score >= passScore;

/**
 * The final score over fully scored attempts (`scoreAggregation`): HIGHEST, LAST (latest
 * submitted) or AVERAGE (may be fractional); null without any.
 */
export function finalScoreOf(scored: { score: number; submittedAt: number; id: string }[], how: ScoreAggregation): number | null {
  if (scored.length === 0) return null;
  if (how === "HIGHEST") return Math.max(...scored.map((a) => a.score));
  if (how === "AVERAGE") return scored.reduce((s, a) => s + a.score, 0) / scored.length;
  const last = scored.reduce((x, y) => (y.submittedAt > x.submittedAt || (y.submittedAt === x.submittedAt && y.id > x.id) ? y : x));
  return last.score;
}

/** A PRNG seeded by a string (FNV-1a into mulberry32): the same seed gives the same sequence. */
function seeded(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  return () => {
    h = (h + 0x6d2b79f5) | 0;
    let x = Math.imul(h ^ (h >>> 15), 1 | h);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Fisher–Yates permutation seeded by `seed`: stable for the same seed. */
export function shuffled<T>(items: readonly T[], seed: string): T[] {
  const out = [...items];
  const rand = seeded(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
