import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import {
  CreateGroupBody,
  Group,
  GroupDetail,
  GroupList,
  GroupMemberParams,
  GroupParams,
  ListGroupsQuery,
  PlainGroup,
  PlainGroupDetail,
  PlainGroupList,
  PlainGroupMemberParams,
  PlainGroupParams,
  UpdateGroupBody,
  UserIdsBody,
} from "./model";
import { addGroupMembers, createGroup, deleteGroup, getGroup, listGroups, removeGroupMember, updateGroup } from "./service";

/** Grant groups (/groups) and plain groups (/plain-groups): one table, told apart by kind. */
export function groupsModule(rt: Runtime) {
  return apiModule("module.groups")
    .use(authPlugin(rt))
    .get(
      "/groups",
      ({ actor, query }) => {
        const { items, ...page } = listGroups(actor.db, "grant", query);
        return { groups: items, ...page };
      },
      {
        ...route("listGroups", "groups", "permission:member:read", {
          summary: "List groups",
          description: "A page of permission groups, sorted by name, filtered by `search` (name).",
        }),
        query: ListGroupsQuery,
        response: { 200: GroupList },
      },
    )
    .post("/groups", ({ actor, body, status }) => status(201, createGroup(actor.db, "grant", body)), {
      ...route("createGroup", "groups", "permission:member:manage", {
        summary: "Create a group",
        description: "Creates a permission group (a grant subject), empty.",
      }),
      body: CreateGroupBody,
      response: { 201: Group },
    })
    .get("/groups/:groupId", ({ actor, params }) => getGroup(actor.db, "grant", params.groupId), {
      ...route("getGroup", "groups", "permission:member:read", {
        summary: "Get a group",
        description: "A group with its members.",
        errors: ["404 `NOT_FOUND` for an unknown group"],
      }),
      params: GroupParams,
      response: { 200: GroupDetail },
    })
    .patch("/groups/:groupId", ({ actor, params, body }) => updateGroup(actor.db, "grant", params.groupId, body), {
      ...route("updateGroup", "groups", "permission:member:manage", {
        summary: "Update a group",
        description: "Renames a group or changes its description.",
        errors: ["404 `NOT_FOUND` for an unknown group"],
      }),
      params: GroupParams,
      body: UpdateGroupBody,
      response: { 200: GroupDetail },
    })
    .delete(
      "/groups/:groupId",
      ({ actor, params, set }) => {
        deleteGroup(actor.db, "grant", params.groupId);
        set.status = 204;
      },
      {
        ...route("deleteGroup", "groups", "permission:member:manage", {
          summary: "Delete a group",
          description: "Deletes a group with its memberships and grant subjects.",
          errors: ["404 `NOT_FOUND` for an unknown group"],
        }),
        params: GroupParams,
        response: { 204: t.Void() },
      },
    )
    .post("/groups/:groupId/members", ({ actor, params, body }) => addGroupMembers(actor, "grant", params.groupId, body.userIds), {
      ...route("addGroupMembers", "groups", "permission:member:manage", {
        summary: "Add members to a group",
        description: "Adds up to 500 members; those already in stay, inactive ones are skipped. Answers the group with its members.",
        errors: ["400 `VALIDATION_FAILED` when an id names no member", "404 `NOT_FOUND` for an unknown group"],
      }),
      params: GroupParams,
      body: UserIdsBody,
      response: { 200: GroupDetail },
    })
    .delete(
      "/groups/:groupId/members/:userPkId",
      ({ actor, params }) => removeGroupMember(actor.db, "grant", params.groupId, params.userPkId),
      {
        ...route("removeGroupMember", "groups", "permission:member:manage", {
          summary: "Remove a member from a group",
          description: "Takes one member out of the group and answers the group.",
          errors: ["404 `NOT_FOUND` for an unknown group, or a member not in it"],
        }),
        params: GroupMemberParams,
        response: { 200: GroupDetail },
      },
    )
    .get(
      "/plain-groups",
      ({ actor, query }) => {
        const { items, ...page } = listGroups(actor.db, "plain", query);
        return { plainGroups: items, ...page };
      },
      {
        ...route("listPlainGroups", "groups", "permission:member:read", {
          summary: "List plain groups",
          description: "A page of plain groups (simple member lists, not grant subjects), sorted by name, filtered by `search`.",
        }),
        query: ListGroupsQuery,
        response: { 200: PlainGroupList },
      },
    )
    .post("/plain-groups", ({ actor, body, status }) => status(201, createGroup(actor.db, "plain", body)), {
      ...route("createPlainGroup", "groups", "permission:member:manage", {
        summary: "Create a plain group",
        description: "Creates an empty plain group.",
      }),
      body: CreateGroupBody,
      response: { 201: PlainGroup },
    })
    .get("/plain-groups/:plainGroupId", ({ actor, params }) => getGroup(actor.db, "plain", params.plainGroupId), {
      ...route("getPlainGroup", "groups", "permission:member:read", {
        summary: "Get a plain group",
        description: "A plain group with its members.",
        errors: ["404 `NOT_FOUND` for an unknown plain group"],
      }),
      params: PlainGroupParams,
      response: { 200: PlainGroupDetail },
    })
    .patch("/plain-groups/:plainGroupId", ({ actor, params, body }) => updateGroup(actor.db, "plain", params.plainGroupId, body), {
      ...route("updatePlainGroup", "groups", "permission:member:manage", {
        summary: "Update a plain group",
        description: "Renames a plain group or changes its description.",
        errors: ["404 `NOT_FOUND` for an unknown plain group"],
      }),
      params: PlainGroupParams,
      body: UpdateGroupBody,
      response: { 200: PlainGroupDetail },
    })
    .delete(
      "/plain-groups/:plainGroupId",
      ({ actor, params, set }) => {
        deleteGroup(actor.db, "plain", params.plainGroupId);
        set.status = 204;
      },
      {
        ...route("deletePlainGroup", "groups", "permission:member:manage", {
          summary: "Delete a plain group",
          description: "Deletes a plain group and its memberships.",
          errors: ["404 `NOT_FOUND` for an unknown plain group"],
        }),
        params: PlainGroupParams,
        response: { 204: t.Void() },
      },
    )
    .post(
      "/plain-groups/:plainGroupId/members",
      ({ actor, params, body }) => addGroupMembers(actor, "plain", params.plainGroupId, body.userIds),
      {
        ...route("addPlainGroupMembers", "groups", "permission:member:manage", {
          summary: "Add members to a plain group",
          description: "Adds up to 500 members; those already in stay. Answers the plain group with its members.",
          errors: ["400 `VALIDATION_FAILED` when an id names no member", "404 `NOT_FOUND` for an unknown plain group"],
        }),
        params: PlainGroupParams,
        body: UserIdsBody,
        response: { 200: PlainGroupDetail },
      },
    )
    .delete(
      "/plain-groups/:plainGroupId/members/:userPkId",
      ({ actor, params }) => removeGroupMember(actor.db, "plain", params.plainGroupId, params.userPkId),
      {
        ...route("removePlainGroupMember", "groups", "permission:member:manage", {
          summary: "Remove a member from a plain group",
          description: "Takes one member out of the plain group and answers it.",
          errors: ["404 `NOT_FOUND` for an unknown plain group, or a member not in it"],
        }),
        params: PlainGroupMemberParams,
        response: { 200: PlainGroupDetail },
      },
    );
}
