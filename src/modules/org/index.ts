import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.org" })
    .use(authPlugin(rt))
    .get("/org-units", ({ actor }) => listOrgUnits(actor.db), {
      ...route("listOrgUnits", "org", "permission:member:read"),
      response: { 200: OrgUnitList },
    })
    .post("/org-units", ({ actor, body, status }) => status(201, createOrgUnit(actor.db, body)), {
      ...route("createOrgUnit", "org", "permission:member:manage"),
      body: CreateOrgUnitBody,
      response: { 201: OrgUnit },
    })
    .patch("/org-units/:orgUnitId", ({ actor, params, body }) => updateOrgUnit(actor.db, params.orgUnitId, body), {
      ...route("updateOrgUnit", "org", "permission:member:manage"),
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
      { ...route("deleteOrgUnit", "org", "permission:member:manage"), params: OrgUnitParams, response: { 204: t.Void() } },
    )
    .get("/org-units/:orgUnitId/members", ({ actor, params, query }) => listOrgUnitMembers(actor.db, rt.cursors, params.orgUnitId, query), {
      ...route("listOrgUnitMembers", "org", "permission:member:read"),
      params: OrgUnitParams,
      query: OrgMembersQuery,
      response: { 200: OrgMemberPage },
    })
    .post(
      "/org-units/:orgUnitId/members",
      ({ actor, params, body }) => addOrgUnitMembers(actor.db, rt.cursors, params.orgUnitId, body.userIds),
      {
        ...route("addOrgUnitMembers", "org", "permission:member:manage"),
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
      { ...route("removeOrgUnitMember", "org", "permission:member:manage"), params: OrgUnitMemberParams, response: { 204: t.Void() } },
    )
    .post("/positions", ({ actor, body, status }) => status(201, createPosition(actor.db, body.name)), {
      ...route("createPosition", "org", "permission:member:manage"),
      body: CreatePositionBody,
      response: { 201: Position },
    })
    .patch("/positions/:positionId", ({ actor, params, body }) => updatePosition(actor.db, params.positionId, body), {
      ...route("updatePosition", "org", "permission:member:manage"),
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
      { ...route("deletePosition", "org", "permission:member:manage"), params: PositionParams, response: { 204: t.Void() } },
    )
    .get("/position-settings", ({ actor }) => getPositionSettings(actor.db), {
      ...route("getPositionSettings", "org", "permission:member:read"),
      response: { 200: PositionSettings },
    })
    .put("/position-settings", ({ actor, body }) => updatePositionSettings(actor.db, body.enabled), {
      ...route("updatePositionSettings", "org", "permission:tenant-settings:manage"),
      body: PositionSettingsBody,
      response: { 200: PositionSettingsResult },
    })
    .put("/members/:userPkId/position", ({ actor, params, body }) => assignMemberPosition(actor, params.userPkId, body.positionId), {
      ...route("assignMemberPosition", "org", "permission:member:manage"),
      params: MemberParams,
      body: AssignPositionBody,
      response: { 200: Member },
    });
}
