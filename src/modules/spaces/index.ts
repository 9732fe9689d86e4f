import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { blockSpaceUser, listSpaceBlocks, unblockSpaceUser } from "./blocks";
import { joinPublicSpace, listSpaceEnrollmentHistory, listSpaceMemberCandidates } from "./enrolment";
import { createSpaceGroupSet, deleteSpaceGroupSet, listSpaceGroupSets, updateSpaceGroupSet } from "./group-sets";
import { createSpaceJoinCode, joinSpaceWithCode, listSpaceJoinCodes, updateSpaceJoinCode } from "./join-codes";
import { addSpaceMembers, leaveSpace, listSpaceMembers, removeSpaceMember, updateSpaceMemberRole } from "./members";
import {
  AddSpaceMembersBody,
  BlockSpaceUserBody,
  Category,
  CategoryParams,
  CreateGroupSetBody,
  CreateSpaceBody,
  CreateSpaceJoinCodeBody,
  EmailCountBody,
  EmailCountResult,
  EnrollmentHistory,
  EnrollmentHistoryQuery,
  JoinSpaceBody,
  JoinSpaceResult,
  ListSpacesQuery,
  MemberCandidates,
  MemberCandidatesQuery,
  Space,
  SpaceBlockList,
  SpaceCategories,
  SpaceDefaults,
  SpaceGroupSet,
  SpaceGroupSetList,
  SpaceGroupSetParams,
  SpaceJoinCode,
  SpaceJoinCodeList,
  SpaceJoinCodeParams,
  SpaceMember,
  SpaceMemberPage,
  SpaceMemberParams,
  SpaceMembersQuery,
  SpacePage,
  SpaceParams,
  TransferOwnershipBody,
  UpdateGroupSetBody,
  UpdateSpaceBody,
  UpdateSpaceCategoriesBody,
  UpdateSpaceCategoryBody,
  UpdateSpaceDefaultsBody,
  UpdateSpaceJoinCodeBody,
  UpdateSpaceMemberRoleBody,
} from "./model";
import { transferSpaceOwnership } from "./ownership";
import { checkSpaceEmailCount, createSpace, deleteSpace, getSpace, listSpaces, updateSpace } from "./service";
import { getSpaceCategories, getSpaceDefaults, updateSpaceCategories, updateSpaceCategory, updateSpaceDefaults } from "./settings";

const TAG = "spaces";
const SETTINGS = "permission:tenant-settings:manage";

/** Spaces, their members, join codes, blocks and group sets, and the tenant's space settings. */
export function spacesModule(rt: Runtime) {
  return apiModule("module.spaces")
    .use(authPlugin(rt))
    .get("/spaces", ({ actor, query }) => listSpaces(rt, actor, query), {
      ...route("listSpaces", TAG, "session", {
        summary: "List spaces",
        description:
          "The spaces the caller can see (enrolled, public, or all with `space:create` or `tenant-settings:manage`), filtered by `search`, `isActive`, `semester`, `autoJoin`, `exitRestricted` and `myRole` (only those the caller is enrolled in with that role: a teacher's own classes), a cursor page at a time.",
      }),
      query: ListSpacesQuery,
      response: { 200: SpacePage },
    })
    .post(
      "/spaces",
      ({ actor, body, set }) => {
        set.status = 201;
        return createSpace(rt, actor, body);
      },
      {
        ...route("createSpace", TAG, "permission:space:create", {
          summary: "Create a space",
          description:
            "Creates a space with the caller as its owner (ADMIN, `isOwner`). Absent `autoJoin`, `exitRestricted`, `allowFileDownload`, `vodConcurrentLimit` come from the space defaults, whose `enforce*` flags override sent values; menus come from the space categories.",
          errors: ["400 `VALIDATION_FAILED` when `thumbnailFileId` names no ready file of the caller"],
        }),
        body: CreateSpaceBody,
        response: { 201: Space },
      },
    )
    .post("/spaces/email-count", ({ actor, body }) => checkSpaceEmailCount(actor.db, body.email), {
      ...route("checkSpaceEmailCount", TAG, "permission:member:read", {
        summary: "Count a member's spaces by e-mail",
        description: "How many spaces the member with this e-mail is enrolled in (0 when there is none).",
      }),
      body: EmailCountBody,
      response: { 200: EmailCountResult },
    })
    .post("/spaces/join", ({ actor, body }) => joinSpaceWithCode(rt, actor, body), {
      ...route("joinSpaceWithCode", TAG, "session", {
        summary: "Join a space with a code",
        description: "Enrols the caller with the role of the space join code (already enrolled: unchanged).",
        errors: [
          "400 `INVALID_CODE` for an unknown, disabled or expired code (`errors[0].field` `code`) or a wrong password (`password`)",
          "403 `FORBIDDEN` when the caller is blocked in the space",
          "409 `INVALID_STATE` when the space is inactive",
        ],
      }),
      body: JoinSpaceBody,
      response: { 200: JoinSpaceResult },
    })
    .get("/spaces/:spaceId", ({ actor, params }) => getSpace(rt, actor, params.spaceId), {
      ...route("getSpace", TAG, "session", {
        summary: "Get a space",
        description: "One space the caller can see.",
        errors: ["404 `NOT_FOUND` for an unknown space or one the caller cannot see"],
      }),
      params: SpaceParams,
      response: { 200: Space },
    })
    .patch("/spaces/:spaceId", ({ actor, params, body }) => updateSpace(rt, actor, params.spaceId, body), {
      ...route("updateSpace", TAG, "spaceAdmin", {
        summary: "Update a space",
        description:
          "Changes a space's settings, menus, or `isActive` (an inactive space is read-only for participants). Absent fields stay.",
        errors: ["400 `VALIDATION_FAILED` when `thumbnailFileId` names no ready file"],
      }),
      params: SpaceParams,
      body: UpdateSpaceBody,
      response: { 200: Space },
    })
    .delete("/spaces/:spaceId", ({ actor, params }) => deleteSpace(rt, actor, params.spaceId), {
      ...route("deleteSpace", TAG, "spaceAdmin", {
        summary: "Delete a space",
        description:
          "Deletes the space with its posts, challenges, join codes, group sets, blocks and enrolments, and answers it; its library folders move to the tenant library. Only the owner may.",
        errors: ["403 `FORBIDDEN` for an ADMIN who is not the owner"],
      }),
      params: SpaceParams,
      response: { 200: Space },
    })
    .post("/spaces/:spaceId/owner", ({ actor, params, body }) => transferSpaceOwnership(rt, actor, params.spaceId, body.memberId), {
      ...route("transferSpaceOwnership", TAG, "session", {
        summary: "Transfer a space's ownership",
        description:
          "Makes another member the owner (ADMIN with `isOwner`); the old owner stays ADMIN (PARTICIPANT if inactive). Called by the owner, or by a holder of `tenant-settings:manage` taking over a space.",
        errors: [
          "400 `VALIDATION_FAILED` when `memberId` names no active member",
          "403 `FORBIDDEN` for anyone else who can see the space",
          "404 `NOT_FOUND` for a space the caller cannot see",
        ],
      }),
      params: SpaceParams,
      body: TransferOwnershipBody,
      response: { 200: Space },
    })
    .get("/spaces/:spaceId/member-candidates", ({ actor, params, query }) => listSpaceMemberCandidates(rt, actor, params.spaceId, query), {
      ...route("listSpaceMemberCandidates", TAG, "spaceAdmin", {
        summary: "List members who could be enrolled",
        description:
          "Active tenant members neither enrolled nor blocked in the space, filtered by `keyword`, a cursor page at a time; no e-mails or fields.",
      }),
      params: SpaceParams,
      query: MemberCandidatesQuery,
      response: { 200: MemberCandidates },
    })
    .post("/spaces/:spaceId/join", ({ actor, params }) => joinPublicSpace(actor, params.spaceId), {
      ...route("joinPublicSpace", TAG, "session", {
        summary: "Join a public space",
        description: "Enrols the caller as PARTICIPANT in a space that is public and `autoJoin`.",
        errors: [
          "403 `FORBIDDEN` when the space is not `autoJoin` or the caller is blocked",
          "404 `NOT_FOUND` for a space the caller cannot see",
          "409 `INVALID_STATE` when the space is inactive",
          "409 `ALREADY_EXISTS` when already enrolled",
        ],
      }),
      params: SpaceParams,
      response: { 200: SpaceMember },
    })
    .get(
      "/spaces/:spaceId/enrollment-history",
      ({ actor, params, query }) => listSpaceEnrollmentHistory(rt, actor, params.spaceId, query),
      {
        ...route("listSpaceEnrollmentHistory", TAG, "spaceAdmin", {
          summary: "List a space's enrolment history",
          description:
            "Joins, leaves, removals, blocks and role changes, newest first, a cursor page at a time; empty unless the space has `retainEnrollmentHistory`.",
        }),
        params: SpaceParams,
        query: EnrollmentHistoryQuery,
        response: { 200: EnrollmentHistory },
      },
    )
    .get("/spaces/:spaceId/members", ({ actor, params, query }) => listSpaceMembers(actor, rt.cursors, params.spaceId, query), {
      ...route("listSpaceMembers", TAG, "spaceMember", {
        summary: "List a space's members",
        description: "The enrolled members with their space role, a cursor page at a time.",
      }),
      params: SpaceParams,
      query: SpaceMembersQuery,
      response: { 200: SpaceMemberPage },
    })
    .post(
      "/spaces/:spaceId/members",
      ({ actor, params, body }) => addSpaceMembers(actor, rt.cursors, params.spaceId, body.userIds, body.role ?? "PARTICIPANT"),
      {
        ...route("addSpaceMembers", TAG, "spaceAdmin", {
          summary: "Enrol members in a space",
          description:
            "Enrols up to 500 members with one role (default PARTICIPANT); those enrolled stay unchanged, inactive ones are skipped. Answers the first page of members. A holder of `tenant-settings:manage` may also add to a space they do not administer (takeover).",
          errors: ["400 `VALIDATION_FAILED` when an id names no member"],
        }),
        params: SpaceParams,
        body: AddSpaceMembersBody,
        response: { 200: SpaceMemberPage },
      },
    )
    .patch(
      "/spaces/:spaceId/members/:userPkId",
      ({ actor, params, body }) => updateSpaceMemberRole(actor, params.spaceId, params.userPkId, body.role),
      {
        ...route("updateSpaceMemberRole", TAG, "spaceAdmin", {
          summary: "Change a space member's role",
          description: "Makes an enrolled member ADMIN or PARTICIPANT.",
          errors: ["404 `NOT_FOUND` for a member not enrolled", "409 `INVALID_STATE` for the owner"],
        }),
        params: SpaceMemberParams,
        body: UpdateSpaceMemberRoleBody,
        response: { 200: SpaceMember },
      },
    )
    .delete(
      "/spaces/:spaceId/members/:userPkId",
      ({ actor, params, set }) => {
        removeSpaceMember(actor, params.spaceId, params.userPkId);
        set.status = 204;
      },
      {
        ...route("removeSpaceMember", TAG, "spaceAdmin", {
          summary: "Remove a member from a space",
          description: "Unenrols a member (not a block: they may be added again).",
          errors: ["404 `NOT_FOUND` for a member not enrolled", "409 `INVALID_STATE` for the owner"],
        }),
        params: SpaceMemberParams,
        response: { 204: t.Void() },
      },
    )
    .post(
      "/spaces/:spaceId/leave",
      ({ actor, params, set }) => {
        leaveSpace(actor, params.spaceId);
        set.status = 204;
      },
      {
        ...route("leaveSpace", TAG, "spaceMember", {
          summary: "Leave a space",
          description: "Unenrols the caller, and from the space's challenges.",
          errors: ["409 `EXIT_RESTRICTED` for a PARTICIPANT of an `exitRestricted` space", "409 `INVALID_STATE` for the owner"],
        }),
        params: SpaceParams,
        response: { 204: t.Void() },
      },
    )
    .get("/spaces/:spaceId/join-codes", ({ actor, params }) => listSpaceJoinCodes(rt, actor, params.spaceId), {
      ...route("listSpaceJoinCodes", TAG, "spaceAdmin", {
        summary: "List a space's join codes",
        description: "Every join code of the space with its password (ADMINs only).",
      }),
      params: SpaceParams,
      response: { 200: SpaceJoinCodeList },
    })
    .post(
      "/spaces/:spaceId/join-codes",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return createSpaceJoinCode(rt, actor, params.spaceId, body ?? {});
      },
      {
        ...route("createSpaceJoinCode", TAG, "spaceAdmin", {
          summary: "Create a space join code",
          description:
            "A code unique in the tenant that enrols with `role` (`joinSpaceWithCode`), optionally with a password and an expiry.",
        }),
        params: SpaceParams,
        body: CreateSpaceJoinCodeBody,
        response: { 201: SpaceJoinCode },
      },
    )
    .patch(
      "/spaces/:spaceId/join-codes/:joinCodeId",
      ({ actor, params, body }) => updateSpaceJoinCode(rt, actor, params.spaceId, params.joinCodeId, body),
      {
        ...route("updateSpaceJoinCode", TAG, "spaceAdmin", {
          summary: "Update a space join code",
          description: "Enables or disables a code or changes its password.",
          errors: ["404 `NOT_FOUND` for an unknown code of this space"],
        }),
        params: SpaceJoinCodeParams,
        body: UpdateSpaceJoinCodeBody,
        response: { 200: SpaceJoinCode },
      },
    )
    .get("/spaces/:spaceId/blocks", ({ actor, params }) => listSpaceBlocks(actor, params.spaceId), {
      ...route("listSpaceBlocks", TAG, "spaceAdmin", {
        summary: "List a space's blocked members",
        description: "Every block of the space.",
      }),
      params: SpaceParams,
      response: { 200: SpaceBlockList },
    })
    .post(
      "/spaces/:spaceId/blocks",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return blockSpaceUser(actor, params.spaceId, body);
      },
      {
        ...route("blockSpaceUser", TAG, "spaceAdmin", {
          summary: "Block a member from a space",
          description: "Removes the member from the space and keeps them out (join codes, public join); answers every block.",
          errors: [
            "400 `VALIDATION_FAILED` when `userId` names no member",
            "409 `INVALID_STATE` for the owner",
            "409 `ALREADY_EXISTS` when the member is already blocked",
          ],
        }),
        params: SpaceParams,
        body: BlockSpaceUserBody,
        response: { 201: SpaceBlockList },
      },
    )
    .delete("/spaces/:spaceId/blocks/:userPkId", ({ actor, params }) => unblockSpaceUser(actor, params.spaceId, params.userPkId), {
      ...route("unblockSpaceUser", TAG, "spaceAdmin", {
        summary: "Unblock a member",
        description: "Lifts a block (does not re-enrol) and answers every block.",
        errors: ["404 `NOT_FOUND` when the member is not blocked"],
      }),
      params: SpaceMemberParams,
      response: { 200: SpaceBlockList },
    })
    .get("/spaces/:spaceId/group-sets", ({ actor, params }) => listSpaceGroupSets(actor, params.spaceId), {
      ...route("listSpaceGroupSets", TAG, "spaceMember", {
        summary: "List a space's group sets",
        description:
          "The space's group sets with their groups and members (a participant sees their group), for group assignments and peer assessments.",
      }),
      params: SpaceParams,
      response: { 200: SpaceGroupSetList },
    })
    .post(
      "/spaces/:spaceId/group-sets",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return createSpaceGroupSet(actor, params.spaceId, body);
      },
      {
        ...route("createSpaceGroupSet", TAG, "spaceAdmin", {
          summary: "Create a group set",
          description: "1..200 named groups of enrolled members; a member is in at most one group of a set.",
          errors: ["400 `VALIDATION_FAILED` when a member is not enrolled or is in two groups"],
        }),
        params: SpaceParams,
        body: CreateGroupSetBody,
        response: { 201: SpaceGroupSet },
      },
    )
    .put(
      "/spaces/:spaceId/group-sets/:groupSetId",
      ({ actor, params, body }) => updateSpaceGroupSet(actor, params.spaceId, params.groupSetId, body),
      {
        ...route("updateSpaceGroupSet", TAG, "spaceAdmin", {
          summary: "Replace a group set",
          description:
            "Full replace: a group with `id` is kept, one without is new, an absent one is removed (its submissions keep their group's id and name).",
          errors: ["400 `VALIDATION_FAILED` when a member is not enrolled or is in two groups", "404 `NOT_FOUND` for an unknown group set"],
        }),
        params: SpaceGroupSetParams,
        body: UpdateGroupSetBody,
        response: { 200: SpaceGroupSet },
      },
    )
    .delete(
      "/spaces/:spaceId/group-sets/:groupSetId",
      ({ actor, params, set }) => {
        deleteSpaceGroupSet(actor, params.spaceId, params.groupSetId);
        set.status = 204;
      },
      {
        ...route("deleteSpaceGroupSet", TAG, "spaceAdmin", {
          summary: "Delete a group set",
          description: "Deletes the set; linked group assignments and peer assessments get `isLinkValid: false` (`GROUP_SET_DELETED`).",
          errors: ["404 `NOT_FOUND` for an unknown group set"],
        }),
        params: SpaceGroupSetParams,
        response: { 204: t.Void() },
      },
    )
    .get("/space-defaults", ({ actor }) => getSpaceDefaults(actor.db), {
      ...route("getSpaceDefaults", TAG, "session", {
        summary: "Get the space defaults",
        description: "The defaults new spaces take, and whether they are enforced.",
      }),
      response: { 200: SpaceDefaults },
    })
    .patch("/space-defaults", ({ actor, body }) => updateSpaceDefaults(actor.db, body), {
      ...route("updateSpaceDefaults", TAG, SETTINGS, {
        summary: "Update the space defaults",
        description: "Changes the defaults of new spaces and their `enforce*` flags. Absent fields stay.",
      }),
      body: UpdateSpaceDefaultsBody,
      response: { 200: SpaceDefaults },
    })
    .get("/space-categories", ({ actor }) => getSpaceCategories(actor.db), {
      ...route("getSpaceCategories", TAG, "session", {
        summary: "Get the space categories",
        description: "Semester settings, tags, roles, menus and categories offered to spaces.",
      }),
      response: { 200: SpaceCategories },
    })
    .put("/space-categories", ({ actor, body }) => updateSpaceCategories(actor.db, body), {
      ...route("updateSpaceCategories", TAG, SETTINGS, {
        summary: "Replace the space categories",
        description: "Full replace; a category without `id` is new, one left out is deleted.",
        errors: ["400 `VALIDATION_FAILED` when an `id` names no category"],
      }),
      body: UpdateSpaceCategoriesBody,
      response: { 200: SpaceCategories },
    })
    .patch("/space-categories/:categoryId", ({ actor, params, body }) => updateSpaceCategory(actor.db, params.categoryId, body), {
      ...route("updateSpaceCategory", TAG, SETTINGS, {
        summary: "Update a space category",
        description: "Renames or reorders one category.",
        errors: ["404 `NOT_FOUND` for an unknown category"],
      }),
      params: CategoryParams,
      body: UpdateSpaceCategoryBody,
      response: { 200: Category },
    });
}
