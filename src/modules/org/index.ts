import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { UserIdsBody } from "../groups/model";
import { Member } from "../members/model";
import {
  AssignPositionBody,
  CreateOrgUnitBody,
  CreatePositionBody,
  MemberParams,
  OrgMemberPage,
  OrgMembersQuery,
  OrgUnit,
  OrgUnitList,
  OrgUnitMemberParams,
  OrgUnitParams,
  Position,
  PositionParams,
  PositionSettings,
  PositionSettingsBody,
  PositionSettingsResult,
  UpdateOrgUnitBody,
  UpdatePositionBody,
} from "./model";
import {
  assignMemberPosition,
  createPosition,
  deletePosition,
  getPositionSettings,
  updatePosition,
  updatePositionSettings,
} from "./positions";
import {
  addOrgUnitMembers,
  createOrgUnit,
  deleteOrgUnit,
  listOrgUnitMembers,
  listOrgUnits,
  removeOrgUnitMember,
  updateOrgUnit,
} from "./service";

/** Organization units (a tree with members and a leader) and positions (one per member). */
export function orgModule(rt: Runtime) {
  return apiModule("module.org")
    .use(authPlugin(rt))
    .get("/org-units", ({ actor }) => listOrgUnits(actor.db), {
      ...route("listOrgUnits", "org", "permission:member:read", {
        summary: "List organization units",
        description: "Every unit as a flat list: parents before children, siblings by `order`.",
      }),
      response: { 200: OrgUnitList },
    })
    .post("/org-units", ({ actor, body, status }) => status(201, createOrgUnit(actor.db, body)), {
      ...route("createOrgUnit", "org", "permission:member:manage", {
        summary: "Create an organization unit",
        description: "Adds a unit at the root or under `parentId`.",
        errors: ["400 `VALIDATION_FAILED` when `parentId` names no unit"],
      }),
      body: CreateOrgUnitBody,
      response: { 201: OrgUnit },
    })
    .patch("/org-units/:orgUnitId", ({ actor, params, body }) => updateOrgUnit(actor.db, params.orgUnitId, body), {
      ...route("updateOrgUnit", "org", "permission:member:manage", {
        summary: "Update an organization unit",
        description: "Renames, moves, reorders a unit or sets its leader. Absent fields stay.",
        errors: [
          "400 `VALIDATION_FAILED` when `parentId` names no unit or the unit itself or a descendant, or `leaderUserId` names no member",
          "404 `NOT_FOUND` for an unknown unit",
        ],
      }),
      params: OrgUnitParams,
      body: UpdateOrgUnitBody,
      response: { 200: OrgUnit },
    })
    .delete(
      "/org-units/:orgUnitId",
      ({ actor, params, set }) => {
        deleteOrgUnit(actor.db, params.orgUnitId);
        set.status = 204;
      },
      {
        ...route("deleteOrgUnit", "org", "permission:member:manage", {
          summary: "Delete an organization unit",
          description: "Deletes a unit without child units; its members are unlinked.",
          errors: ["404 `NOT_FOUND` for an unknown unit", "409 `IN_USE` while it has child units"],
        }),
        params: OrgUnitParams,
        response: { 204: t.Void() },
      },
    )
    .get("/org-units/:orgUnitId/members", ({ actor, params, query }) => listOrgUnitMembers(actor.db, rt.cursors, params.orgUnitId, query), {
      ...route("listOrgUnitMembers", "org", "permission:member:read", {
        summary: "List an organization unit's members",
        description: "The unit's members by display name, a cursor page at a time.",
        errors: ["404 `NOT_FOUND` for an unknown unit"],
      }),
      params: OrgUnitParams,
      query: OrgMembersQuery,
      response: { 200: OrgMemberPage },
    })
    .post(
      "/org-units/:orgUnitId/members",
      ({ actor, params, body }) => addOrgUnitMembers(actor.db, rt.cursors, params.orgUnitId, body.userIds),
      {
        ...route("addOrgUnitMembers", "org", "permission:member:manage", {
          summary: "Add members to an organization unit",
          description: "Adds up to 500 members (inactive ones are skipped) and answers the first page of the unit's members.",
          errors: ["400 `VALIDATION_FAILED` when an id names no member", "404 `NOT_FOUND` for an unknown unit"],
        }),
        params: OrgUnitParams,
        body: UserIdsBody,
        response: { 200: OrgMemberPage },
      },
    )
    .delete(
      "/org-units/:orgUnitId/members/:userPkId",
      ({ actor, params, set }) => {
        removeOrgUnitMember(actor.db, params.orgUnitId, params.userPkId);
        set.status = 204;
      },
      {
        ...route("removeOrgUnitMember", "org", "permission:member:manage", {
          summary: "Remove a member from an organization unit",
          description: "Unlinks one member; removing the leader clears `leaderUserId`.",
          errors: ["404 `NOT_FOUND` for an unknown unit, or a member not in it"],
        }),
        params: OrgUnitMemberParams,
        response: { 204: t.Void() },
      },
    )
    .post("/positions", ({ actor, body, status }) => status(201, createPosition(actor.db, body.name)), {
      ...route("createPosition", "org", "permission:member:manage", {
        summary: "Create a position",
        description: "Adds a position (job title) at the end of the order.",
      }),
      body: CreatePositionBody,
      response: { 201: Position },
    })
    .patch("/positions/:positionId", ({ actor, params, body }) => updatePosition(actor.db, params.positionId, body), {
      ...route("updatePosition", "org", "permission:member:manage", {
        summary: "Update a position",
        description: "Renames or reorders a position.",
        errors: ["404 `NOT_FOUND` for an unknown position"],
      }),
      params: PositionParams,
      body: UpdatePositionBody,
      response: { 200: Position },
    })
    .delete(
      "/positions/:positionId",
      ({ actor, params, set }) => {
        deletePosition(actor.db, params.positionId);
        set.status = 204;
      },
      {
        ...route("deletePosition", "org", "permission:member:manage", {
          summary: "Delete a position",
          description: "Deletes a position and clears it from its members.",
          errors: ["404 `NOT_FOUND` for an unknown position"],
        }),
        params: PositionParams,
        response: { 204: t.Void() },
      },
    )
    .get("/position-settings", ({ actor }) => getPositionSettings(actor.db), {
      ...route("getPositionSettings", "org", "permission:member:read", {
        summary: "Get the position settings",
        description: "Whether positions are in use, and every position with its member count.",
      }),
      response: { 200: PositionSettings },
    })
    .put("/position-settings", ({ actor, body }) => updatePositionSettings(actor.db, body.enabled), {
      ...route("updatePositionSettings", "org", "permission:tenant-settings:manage", {
        summary: "Turn positions on or off",
        description: "Sets whether the tenant uses positions.",
      }),
      body: PositionSettingsBody,
      response: { 200: PositionSettingsResult },
    })
    .put("/members/:userPkId/position", ({ actor, params, body }) => assignMemberPosition(actor, params.userPkId, body.positionId), {
      ...route("assignMemberPosition", "org", "permission:member:manage", {
        summary: "Set a member's position",
        description: "Gives the member one position, or none with `null`.",
        errors: ["400 `VALIDATION_FAILED` when `positionId` names no position", "404 `NOT_FOUND` for an unknown member"],
      }),
      params: MemberParams,
      body: AssignPositionBody,
      response: { 200: Member },
    });
}
