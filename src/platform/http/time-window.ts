import { conflict, invalid } from "./errors";
import { parseTime } from "./schemas";

export type TimeWindow = { start: number | null; end: number | null };

/**
 * A start/end pair of optional date-times (live sessions, quiz and survey windows) as ms; the end
 * must come after the start when both are given (400 naming the end field).
 */
export function timeWindow(
  start: string | null | undefined,
  end: string | null | undefined,
  endField: string,
  startField: string,
): TimeWindow {
  const w = { start: start == null ? null : parseTime(start), end: end == null ? null : parseTime(end) };
  if (w.start !== null && w.end !== null && w.end <= w.start) throw invalid(endField, `must be after ${startField}`);
  return w;
}

/** Where `now` falls in a window: before its start, inside it, or at/after its end. */
export function windowPhase(w: TimeWindow, now: number): "BEFORE" | "OPEN" | "AFTER" {
  if (w.start !== null && now < w.start) return "BEFORE";
  if (w.end !== null && now >= w.end) return "AFTER";
  return "OPEN";
}

/** Quiz and survey windows (docs/rules/quizzes.md#windows): work outside the window gets 409 INVALID_STATE. */
export function requireWindowOpen(w: TimeWindow, now: number, what: string): void {
  const phase = windowPhase(w, now);
  if (phase === "BEFORE") throw conflict("INVALID_STATE", `This ${what} is not open yet.`);
  if (phase === "AFTER") throw conflict("INVALID_STATE", `This ${what} is closed.`);
}
