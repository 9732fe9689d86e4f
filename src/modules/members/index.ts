import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import { Id } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { createMembers } from "./bulk-create";
import { addMemberGuardian, listMemberGuardians, removeMemberGuardian } from "./guardians";
import { getMember, listMembers } from "./list";
import {
  AddGuardianBody,
  CreateMemberBody,
  CreateMemberResult,
  CreateMembersBody,
  CreateMembersResult,
  DeleteMembersBody,
  DeleteMembersResult,
  FieldValues,
  GuardianParams,
  Guardians,
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
    })
    .post(
      "/members/:userPkId/guardians",
      ({ actor, params, body, status }) => status(201, addMemberGuardian(actor, params.userPkId, body.guardianId)),
      {
        ...route("addMemberGuardian", "members", "permission:member:manage", {
          summary: "Link a guardian to a student",
          description:
            "guardianId: an active member of the tenant (any role), not the student (400 naming guardianId). An inactive student: 409 INVALID_STATE; a fifth guardian: 409 INVALID_STATE; an existing link: 409 ALREADY_EXISTS. The guardian is not enrolled anywhere by the link; it sees the student through listMyStudents and getStudentOverview.",
        }),
        params: MemberParams,
        body: AddGuardianBody,
        response: { 201: Guardians },
      },
    )
    .delete(
      "/members/:userPkId/guardians/:guardianId",
      ({ actor, params, set }) => {
        removeMemberGuardian(actor, params.userPkId, params.guardianId);
        set.status = 204;
      },
      {
        ...route("removeMemberGuardian", "members", "permission:member:manage", {
          summary: "Unlink a guardian",
          description: "An unknown link: 404. The guardian's overview of the student and its notification copies stop at once.",
        }),
        params: GuardianParams,
        response: { 204: t.Void() },
      },
    )
    .get("/members/:userPkId/guardians", ({ actor, params }) => listMemberGuardians(actor, params.userPkId), {
      ...route("listMemberGuardians", "members", "permission:member:read", {
        summary: "A student's guardians",
        description: "Every link, oldest first, inactive guardians included (they see nothing while inactive).",
      }),
      params: MemberParams,
      response: { 200: Guardians },
    });
}
