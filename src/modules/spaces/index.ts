import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.spaces" })
    .use(authPlugin(rt))
    .get("/spaces", ({ actor, query }) => listSpaces(rt, actor, query), {
      ...route("listSpaces", TAG, "session"),
      query: ListSpacesQuery,
      response: { 200: SpacePage },
    })
    .post(
      "/spaces",
      ({ actor, body, set }) => {
        set.status = 201;
        return createSpace(rt, actor, body);
      },
      { ...route("createSpace", TAG, "permission:space:create"), body: CreateSpaceBody, response: { 201: Space } },
    )
    .post("/spaces/email-count", ({ actor, body }) => checkSpaceEmailCount(actor.db, body.email), {
      ...route("checkSpaceEmailCount", TAG, "permission:member:read"),
      body: EmailCountBody,
      response: { 200: EmailCountResult },
    })
    .post("/spaces/join", ({ actor, body }) => joinSpaceWithCode(rt, actor, body), {
      ...route("joinSpaceWithCode", TAG, "session"),
      body: JoinSpaceBody,
      response: { 200: JoinSpaceResult },
    })
    .get("/spaces/:spaceId", ({ actor, params }) => getSpace(rt, actor, params.spaceId), {
      ...route("getSpace", TAG, "session"),
      params: SpaceParams,
      response: { 200: Space },
    })
    .patch("/spaces/:spaceId", ({ actor, params, body }) => updateSpace(rt, actor, params.spaceId, body), {
      ...route("updateSpace", TAG, "spaceAdmin"),
      params: SpaceParams,
      body: UpdateSpaceBody,
      response: { 200: Space },
    })
    .delete("/spaces/:spaceId", ({ actor, params }) => deleteSpace(rt, actor, params.spaceId), {
      ...route("deleteSpace", TAG, "spaceAdmin"),
      params: SpaceParams,
      response: { 200: Space },
    })
    .post("/spaces/:spaceId/owner", ({ actor, params, body }) => transferSpaceOwnership(rt, actor, params.spaceId, body.memberId), {
      ...route("transferSpaceOwnership", TAG, "session"),
      params: SpaceParams,
      body: TransferOwnershipBody,
      response: { 200: Space },
    })
    .get("/spaces/:spaceId/member-candidates", ({ actor, params, query }) => listSpaceMemberCandidates(rt, actor, params.spaceId, query), {
      ...route("listSpaceMemberCandidates", TAG, "spaceAdmin"),
      params: SpaceParams,
      query: MemberCandidatesQuery,
      response: { 200: MemberCandidates },
    })
    .post("/spaces/:spaceId/join", ({ actor, params }) => joinPublicSpace(actor, params.spaceId), {
      ...route("joinPublicSpace", TAG, "session"),
      params: SpaceParams,
      response: { 200: SpaceMember },
    })
    .get(
      "/spaces/:spaceId/enrollment-history",
      ({ actor, params, query }) => listSpaceEnrollmentHistory(rt, actor, params.spaceId, query),
      {
        ...route("listSpaceEnrollmentHistory", TAG, "spaceAdmin"),
        params: SpaceParams,
        query: EnrollmentHistoryQuery,
        response: { 200: EnrollmentHistory },
      },
    )
    .get("/spaces/:spaceId/members", ({ actor, params, query }) => listSpaceMembers(actor, rt.cursors, params.spaceId, query), {
      ...route("listSpaceMembers", TAG, "spaceMember"),
      params: SpaceParams,
      query: SpaceMembersQuery,
      response: { 200: SpaceMemberPage },
    })
    .post(
      "/spaces/:spaceId/members",
      ({ actor, params, body }) => addSpaceMembers(actor, rt.cursors, params.spaceId, body.userIds, body.role ?? "PARTICIPANT"),
      {
        ...route("addSpaceMembers", TAG, "spaceAdmin"),
        params: SpaceParams,
        body: AddSpaceMembersBody,
        response: { 200: SpaceMemberPage },
      },
    )
    .patch(
      "/spaces/:spaceId/members/:userPkId",
      ({ actor, params, body }) => updateSpaceMemberRole(actor, params.spaceId, params.userPkId, body.role),
      {
        ...route("updateSpaceMemberRole", TAG, "spaceAdmin"),
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
      { ...route("removeSpaceMember", TAG, "spaceAdmin"), params: SpaceMemberParams, response: { 204: t.Void() } },
    )
    .post(
      "/spaces/:spaceId/leave",
      ({ actor, params, set }) => {
        leaveSpace(actor, params.spaceId);
        set.status = 204;
      },
      { ...route("leaveSpace", TAG, "spaceMember"), params: SpaceParams, response: { 204: t.Void() } },
    )
    .get("/spaces/:spaceId/join-codes", ({ actor, params }) => listSpaceJoinCodes(rt, actor, params.spaceId), {
      ...route("listSpaceJoinCodes", TAG, "spaceAdmin"),
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
        ...route("createSpaceJoinCode", TAG, "spaceAdmin"),
        params: SpaceParams,
        body: CreateSpaceJoinCodeBody,
        response: { 201: SpaceJoinCode },
      },
    )
    .patch(
      "/spaces/:spaceId/join-codes/:joinCodeId",
      ({ actor, params, body }) => updateSpaceJoinCode(rt, actor, params.spaceId, params.joinCodeId, body),
      {
        ...route("updateSpaceJoinCode", TAG, "spaceAdmin"),
        params: SpaceJoinCodeParams,
        body: UpdateSpaceJoinCodeBody,
        response: { 200: SpaceJoinCode },
      },
    )
    .get("/spaces/:spaceId/blocks", ({ actor, params }) => listSpaceBlocks(actor, params.spaceId), {
      ...route("listSpaceBlocks", TAG, "spaceAdmin"),
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
        ...route("blockSpaceUser", TAG, "spaceAdmin"),
        params: SpaceParams,
        body: BlockSpaceUserBody,
        response: { 201: SpaceBlockList },
      },
    )
    .delete("/spaces/:spaceId/blocks/:userPkId", ({ actor, params }) => unblockSpaceUser(actor, params.spaceId, params.userPkId), {
      ...route("unblockSpaceUser", TAG, "spaceAdmin"),
      params: SpaceMemberParams,
      response: { 200: SpaceBlockList },
    })
    .get("/spaces/:spaceId/group-sets", ({ actor, params }) => listSpaceGroupSets(actor, params.spaceId), {
      ...route("listSpaceGroupSets", TAG, "spaceMember"),
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
        ...route("createSpaceGroupSet", TAG, "spaceAdmin"),
        params: SpaceParams,
        body: CreateGroupSetBody,
        response: { 201: SpaceGroupSet },
      },
    )
    .put(
      "/spaces/:spaceId/group-sets/:groupSetId",
      ({ actor, params, body }) => updateSpaceGroupSet(actor, params.spaceId, params.groupSetId, body),
      {
        ...route("updateSpaceGroupSet", TAG, "spaceAdmin"),
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
      { ...route("deleteSpaceGroupSet", TAG, "spaceAdmin"), params: SpaceGroupSetParams, response: { 204: t.Void() } },
    )
    .get("/space-defaults", ({ actor }) => getSpaceDefaults(actor.db), {
      ...route("getSpaceDefaults", TAG, "session"),
      response: { 200: SpaceDefaults },
    })
    .patch("/space-defaults", ({ actor, body }) => updateSpaceDefaults(actor.db, body), {
      ...route("updateSpaceDefaults", TAG, SETTINGS),
      body: UpdateSpaceDefaultsBody,
      response: { 200: SpaceDefaults },
    })
    .get("/space-categories", ({ actor }) => getSpaceCategories(actor.db), {
      ...route("getSpaceCategories", TAG, "session"),
      response: { 200: SpaceCategories },
    })
    .put("/space-categories", ({ actor, body }) => updateSpaceCategories(actor.db, body), {
      ...route("updateSpaceCategories", TAG, SETTINGS),
      body: UpdateSpaceCategoriesBody,
      response: { 200: SpaceCategories },
    })
    .patch("/space-categories/:categoryId", ({ actor, params, body }) => updateSpaceCategory(actor.db, params.categoryId, body), {
      ...route("updateSpaceCategory", TAG, SETTINGS),
      params: CategoryParams,
      body: UpdateSpaceCategoryBody,
      response: { 200: Category },
    });
}
