// A member who leaves: what they own, and handing it to a colleague (docs/rules/members.md#hand-over).
import { and, eq } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { forbidden, invalid, notFound } from "../../platform/http/errors";
import { members, profiles } from "../../schema/members";
import { authoredContents, reassignAuthor } from "../library/authors";
import { TAKEOVER_PERMISSION } from "../spaces/access";
import { handOverSpaces, ownedSpaces } from "../spaces/ownership";

/** The member with its main profile, or null. */
function memberProfile(db: Db, id: string) {
  return (
    db
      .select({ id: members.id, isActive: members.isActive, profileId: profiles.id })
      .from(members)
      .innerJoin(profiles, and(eq(profiles.memberId, members.id), eq(profiles.isMain, true)))
      .where(eq(members.id, id))
      .get() ?? null
  );
}

/** listMemberOwnership: the spaces the member owns and the contents they authored. */
export function listMemberOwnership(actor: Actor, id: string) {
  const member = memberProfile(actor.db, id);
  if (!member) throw notFound();
  return { spaces: ownedSpaces(actor.db, id), contents: authoredContents(actor.db, member.profileId) };
}

/**
 * handOverMember: needs tenant-settings:manage besides the route's member:manage (403). Every owned
 * space and authored content goes to `toMemberId`, another active member (400), in one transaction.
 */
export function handOverMember(actor: Actor, id: string, toMemberId: string, now = Date.now()) {
  if (!actor.permissionSet.has(TAKEOVER_PERMISSION)) throw forbidden();
  return write(actor.db, (tx) => {
    const from = memberProfile(tx, id);
    if (!from) throw notFound();
    const to = memberProfile(tx, toMemberId);
    if (!to?.isActive || to.id === id) throw invalid("toMemberId", "must be another active member of this tenant");
    return { spaces: handOverSpaces(tx, id, toMemberId, now), contents: reassignAuthor(tx, from.profileId, to.profileId, now) };
  });
}
