// What features register with the spaces base at start-up (wired once in src/app.ts), so spaces
// never imports a feature (docs/architecture.md#registrations).
import type { Db } from "../../platform/db/types";

/** An enrolment ended (left, removed or blocked): the feature drops what the member held in the space, inside the same transaction. */
export type EnrolmentEnded = (tx: Db, spaceId: string, memberId: string) => void;
/** A group set is being deleted: the feature marks what links to it (docs/rules/spaces.md#group-sets). */
export type GroupSetDeleted = (tx: Db, setId: string) => void;
/** A count per space of one kind of record, for a page of spaces: one grouped query, never one per space. */
export type SpaceCounter = (db: Db, spaceIds: string[]) => Map<string, number>;
/** The counts a space summary shows (docs/rules/spaces.md#content-counters). */
export type SpaceCount = "postCount" | "contentCount";

// Keyed by the registering feature, so a second createApp (tests start many servers) replaces, never doubles.
const enrolmentEndedHooks = new Map<string, EnrolmentEnded>();
const groupSetDeletedHooks = new Map<string, GroupSetDeleted>();
const counters = new Map<SpaceCount, SpaceCounter>();

export function onEnrolmentEnded(feature: string, hook: EnrolmentEnded) {
  enrolmentEndedHooks.set(feature, hook);
}

export function onGroupSetDeleted(feature: string, hook: GroupSetDeleted) {
  groupSetDeletedHooks.set(feature, hook);
}

export function registerSpaceCounter(count: SpaceCount, counter: SpaceCounter) {
  counters.set(count, counter);
}

/** Runs every feature's enrolment-ended hook (in the caller's transaction). */
export function enrolmentEnded(tx: Db, spaceId: string, memberId: string) {
  for (const hook of enrolmentEndedHooks.values()) hook(tx, spaceId, memberId);
}

/** Runs every feature's group-set-deleted hook (in the caller's transaction, before the set's row goes). */
export function groupSetDeleted(tx: Db, setId: string) {
  for (const hook of groupSetDeletedHooks.values()) hook(tx, setId);
}

/** One registered count for a page of spaces; 0 for every space when no feature registered it. */
export function spaceCount(db: Db, count: SpaceCount, spaceIds: string[]): Map<string, number> {
  return counters.get(count)?.(db, spaceIds) ?? new Map();
}
