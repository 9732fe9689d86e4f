import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import { Id } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { createMembers } from "./bulk-create";
import { getMember, listMembers } from "./list";
import {
  CreateMemberBody,
  CreateMemberResult,
  CreateMembersBody,
  CreateMembersResult,
  DeleteMembersBody,
  DeleteMembersResult,
  FieldValues,
  ListMembersQuery,
  Member,
  MemberPage,
  ResetPasswordBody,
  ResetPasswordResult,
  SetFieldValuesBody,
  SetMemberRoleBody,
  UpdateMemberBody,
} from "./model";
import { setMemberRole } from "./role";
import { createMember, deleteMembers, resetMemberPassword, setMemberFieldValues } from "./service";
import { updateMember } from "./update";

const MemberParams = t.Object({ userPkId: Id });

/** The repeated array keys as sent (Elysia's array parsing splits a value at its commas). */
function rawArrays(request: Request) {
  const q = new URL(request.url).searchParams;
  return { roleKeys: q.getAll("roleKeys"), statuses: q.getAll("statuses"), fieldFilters: q.getAll("fieldFilters") };
}

export function membersModule(rt: Runtime) {
  return new Elysia({ name: "module.members" })
    .use(authPlugin(rt))
    .post(
      "/members",
      async ({ actor, body, set }) => {
        set.status = 201;
        return createMember(rt, actor, body);
      },
      {
        ...route("createMember", "members", "permission:member:invite"),
        body: CreateMemberBody,
        response: { 201: CreateMemberResult },
      },
    )
    .get("/members", ({ actor, query, request }) => listMembers(actor.handle.sqlite, query, rawArrays(request)), {
      ...route("listMembers", "members", "permission:member:read"),
      query: ListMembersQuery,
      response: { 200: MemberPage },
    })
    .post(
      "/members/bulk-create",
      async ({ actor, body, set }) => {
        set.status = 201;
        return createMembers(rt, actor, body.members);
      },
      {
        ...route("createMembers", "members", "permission:member:manage"),
        body: CreateMembersBody,
        response: { 201: CreateMembersResult },
      },
    )
    .post("/members/bulk-delete", ({ actor, body }) => deleteMembers(rt, actor, body.userPkIds), {
      ...route("deleteMembers", "members", "permission:member:remove"),
      body: DeleteMembersBody,
      response: { 200: DeleteMembersResult },
    })
    .get(
      "/members/:userPkId",
      ({ actor, params, query, request }) => getMember(actor.handle.sqlite, params.userPkId, query, rawArrays(request)),
      {
        ...route("getMember", "members", "permission:member:read"),
        params: MemberParams,
        query: ListMembersQuery,
        response: { 200: Member },
      },
    )
    .patch("/members/:userPkId", ({ actor, params, body }) => updateMember(rt, actor, params.userPkId, body), {
      ...route("updateMember", "members", "permission:member:manage"),
      params: MemberParams,
      body: UpdateMemberBody,
      response: { 200: Member },
    })
    .put("/members/:userPkId/role", ({ actor, params, body }) => setMemberRole(actor, params.userPkId, body.roleKey), {
      ...route("setMemberRole", "members", "permission:member:manage-role"),
      params: MemberParams,
      body: SetMemberRoleBody,
      response: { 200: Member },
    })
    .post(
      "/members/:userPkId/reset-password",
      ({ actor, params, body }) => resetMemberPassword(rt, actor, params.userPkId, body.password),
      {
        ...route("resetMemberPassword", "members", "permission:member:manage"),
        params: MemberParams,
        body: ResetPasswordBody,
        response: { 200: ResetPasswordResult },
      },
    )
    .put("/members/:userPkId/field-values", ({ actor, params, body }) => setMemberFieldValues(actor, params.userPkId, body.values), {
      ...route("setMemberFieldValues", "members", "permission:member:manage"),
      params: MemberParams,
      body: SetFieldValuesBody,
      response: { 200: FieldValues },
    });
}
