import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { decodeKeyset } from "../../platform/http/cursor";
import { conflict, forbidden } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { spaceEnrollmentEvents } from "../../schema/spaces";
import { contains } from "../groups/lookup";
import { requireSpaceAdmin, visibleSpace } from "./access";
import { requireActive } from "./archived";
import { enrol, isBlocked, spaceMemberItem } from "./members";
import type { EnrollmentHistory, MemberCandidates, MemberCandidatesQuery, SpaceMember } from "./model";

const CANDIDATES_OP = "listSpaceMemberCandidates";
const HISTORY_OP = "listSpaceEnrollmentHistory";

/**
 * listSpaceMemberCandidates (docs/rules/spaces.md#enrolment): active tenant members neither enrolled nor blocked
 * here, by displayName (then id) on members_display_name_idx; `keyword` matches displayName or
 * userId. No e-mails or fields: a teacher enrols without member:read.
 */
export function listSpaceMemberCandidates(rt: Runtime, actor: Actor, spaceId: string, q: Static<typeof MemberCandidatesQuery>) {
  const keyword = q.keyword ?? null;
  const filters = { spaceId, keyword };
  const after = decodeKeyset<string>(rt.cursors, CANDIDATES_OP, filters, q.cursor, "string");
  requireSpaceAdmin(actor, spaceId);
  const limit = q.limit ?? 30;
  const rows = actor.db
    .select({ id: members.id, userId: members.userId, displayName: members.displayName })
    .from(members)
    .where(
      and(
        eq(members.isActive, true),
        sql`NOT EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${spaceId} AND sm.member_id = ${members.id})`,
        sql`NOT EXISTS (SELECT 1 FROM space_blocks sb WHERE sb.space_id = ${spaceId} AND sb.member_id = ${members.id})`,
        keyword !== null ? or(contains(members.displayName, keyword), contains(members.userId, keyword)) : undefined,
        after ? sql`(${members.displayName}, ${members.id}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(members.displayName), asc(members.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    candidates: page,
    nextCursor: rows.length > limit && last ? rt.cursors.encode(CANDIDATES_OP, filters, [last.displayName, last.id]) : null,
  } satisfies Static<typeof MemberCandidates>;
}

/**
 * joinPublicSpace (docs/rules/spaces.md#enrolment): a space the caller cannot see is 404; not public and autoJoin,
 * or blocked: 403; inactive: 409 INVALID_STATE; already enrolled: 409 ALREADY_EXISTS.
 */
export function joinPublicSpace(actor: Actor, spaceId: string, now = Date.now()): Static<typeof SpaceMember> {
  return write(actor.db, (tx) => {
    const space = visibleSpace(actor, spaceId, tx);
    if (!space.isPublic || !space.autoJoin) throw forbidden("FORBIDDEN", "This space is not open to join.");
    if (isBlocked(tx, spaceId, actor.memberId)) throw forbidden("FORBIDDEN", "You are blocked in this space.");
    requireActive(space);
    if (space.callerRole !== null) throw conflict("ALREADY_EXISTS", "You are already enrolled in this space.");
    enrol(tx, space, [actor.memberId], "PARTICIPANT", now);
    return spaceMemberItem(tx, spaceId, actor.memberId) as Static<typeof SpaceMember>;
  });
}

/** listSpaceEnrollmentHistory (docs/rules/spaces.md#enrolment-history): newest first on (at, id); empty unless the space retains history. */
export function listSpaceEnrollmentHistory(rt: Runtime, actor: Actor, spaceId: string, q: { cursor?: string; limit?: number }) {
  const after = decodeKeyset(rt.cursors, HISTORY_OP, { spaceId }, q.cursor);
  const space = requireSpaceAdmin(actor, spaceId);
  if (!space.retainEnrollmentHistory) return { entries: [], nextCursor: null };
  const e = spaceEnrollmentEvents;
  const limit = q.limit ?? 30;
  const rows = actor.db
    .select({ id: e.id, memberId: e.memberId, displayName: members.displayName, event: e.event, role: e.role, at: e.at })
    .from(e)
    .innerJoin(members, eq(members.id, e.memberId))
    .where(and(eq(e.spaceId, spaceId), after ? sql`(${e.at}, ${e.id}) < (${after[0]}, ${after[1]})` : undefined))
    .orderBy(desc(e.at), desc(e.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map(({ id: _id, at, ...r }) => ({ ...r, at: isoRequired(at) })),
    nextCursor: rows.length > limit && last ? rt.cursors.encode(HISTORY_OP, { spaceId }, [last.at, last.id]) : null,
  } satisfies Static<typeof EnrollmentHistory>;
}
