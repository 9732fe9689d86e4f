// Who may write posts and comments in a space besides its ADMINs (docs/rules/community.md).
import type { Actor } from "../../platform/auth/actor";
import { forbidden } from "../../platform/http/errors";
import { limitMemberWrites } from "../../platform/http/rate-limit";
import type { Runtime } from "../../platform/runtime";
import type { SpaceRole } from "../../schema/spaces";
import { requireActive } from "../spaces/archived";

/** docs/rules/community.md#participant-posts: the space's `community` menu lets its participants write. */
export const communityOn = (space: { enabledMenus: string[] }) => space.enabledMenus.includes("community");

/**
 * A participant's new post or comment (docs/rules/community.md#participant-posts): 403 unless the
 * space has `community` on (and the caller is enrolled), then what `fields` refuses (403), then
 * 409 in an archived space, then the per-member write limit (429). ADMINs are not asked.
 */
export function requireParticipantWrite(
  rt: Runtime,
  actor: Actor,
  space: { isActive: boolean; enabledMenus: string[]; callerRole: SpaceRole | null },
  fields: () => void = () => {},
): void {
  if (space.callerRole !== "PARTICIPANT" || !communityOn(space)) throw forbidden();
  fields();
  requireActive(space);
  limitMemberWrites(rt, actor);
}

type PostFields = {
  type?: string;
  isEmergency?: boolean;
  isPinned?: boolean;
  publishAt?: string | null;
  status?: string;
};

/**
 * docs/rules/community.md#participant-posts: a participant writes GENERAL and QUESTION posts only,
 * published at once: a NOTICE (the type's default when none is sent), an emergency, a pin, a
 * publish time or a status change is 403. `isUpdate`: a PATCH, where an absent type keeps the
 * post's own and any publishAt sent counts.
 */
export function requireParticipantPostFields(input: PostFields, isUpdate: boolean): void {
  const type = input.type ?? (isUpdate ? undefined : "NOTICE");
  const scheduled = isUpdate ? input.publishAt !== undefined : input.publishAt != null;
  if (type === "NOTICE" || input.isEmergency || input.isPinned || scheduled || input.status !== undefined) {
    throw forbidden("FORBIDDEN", "A participant posts GENERAL and QUESTION posts only, without emergency, pin or schedule.");
  }
}
