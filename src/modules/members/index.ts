import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import { Id } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { createMembers } from "./bulk-create";
import { updateMembers } from "./bulk-update";
import { addMemberGuardian, listMemberGuardians, removeMemberGuardian } from "./guardians";
import { handOverMember, listMemberOwnership } from "./handover";
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
  HandOverBody,
  HandOverResult,
  ListMembersQuery,
  Member,
  MemberOwnership,
  MemberPage,
  ResetPasswordBody,
  ResetPasswordResult,
  SetFieldValuesBody,
  SetMemberRoleBody,
  UpdateMemberBody,
  UpdateMembersBody,
  UpdateMembersResult,
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
  return apiModule("module.members")
    .use(authPlugin(rt))
    .post(
      "/members",
      async ({ actor, body, set }) => {
        set.status = 201;
        return createMember(rt, actor, body);
      },
      {
        ...route("createMember", "members", "permission:member:invite", {
          summary: "Create a member",
          description:
            "Issues an account in the tenant (`isIssuedAccount`, `mustChangePassword`): at least one of `userId` and `email`; without `password` a temporary one is generated and answered as `tempPassword`. `roleKey` defaults to `member`.",
          errors: [
            "400 `VALIDATION_FAILED` when neither `userId` nor `email` is given or `roleKey` names no role",
            "403 `FORBIDDEN` when a role other than `member` is given without `member:manage-role`, or the role holds a permission the caller does not",
            "409 `ALREADY_EXISTS` when the `userId` or e-mail is taken",
          ],
        }),
        body: CreateMemberBody,
        response: { 201: CreateMemberResult },
      },
    )
    .get("/members", ({ actor, query, request }) => listMembers(actor.handle.sqlite, query, rawArrays(request)), {
      ...route("listMembers", "members", "permission:member:read", {
        summary: "List members",
        description:
          "A page of the tenant's members, filtered by `search` (display name, login id, e-mail), roles, status, custom-field values, last sign-in and space counts, sorted by `sortBy`/`sortDir` (default newest first). `include=spaceCounts` adds the space counts.",
        errors: ["400 `UNKNOWN_SORT_FIELD` (message `unknown sort field`) when `sortBy` is neither a column nor a custom-field id"],
      }),
      query: ListMembersQuery,
      response: { 200: MemberPage },
    })
    .post(
      "/members/bulk-create",
      async ({ actor, body, set }) => {
        set.status = 201;
        return createMembers(rt, actor, body.members, body.upsert);
      },
      {
        ...route("createMembers", "members", "permission:member:manage", {
          summary: "Create members in bulk",
          description:
            "Creates up to 500 members, each as `createMember` would, one savepoint per item: an item may also set `externalMemberCode`, `affiliation`, `fieldValues`, join `orgUnitIds`, be enrolled in `spaceIds` as PARTICIPANT and become the guardian of `guardianOf` (a student of the tenant or of an earlier item). With `upsert: true` an item whose userId (else e-mail) exists updates that member and is listed under `updated`. The answer lists what was `created` (with `tempPassword`), `updated`, and what `failed` with its reason (`ALREADY_EXISTS`, `INVALID: …`, `FORBIDDEN_ROLE`, `FORBIDDEN`, `INVALID_STATE`). Answers 201 even when every item failed.",
        }),
        body: CreateMembersBody,
        response: { 201: CreateMembersResult },
      },
    )
    .post("/members/bulk-update", ({ actor, body }) => updateMembers(rt, actor, body.members), {
      ...route("updateMembers", "members", "permission:member:manage", {
        summary: "Update up to 500 members in one call",
        description:
          "Each item alone, as updateMember, setMemberRole (when roleKey differs; needs member:manage-role and only roles whose permissions the caller holds) and field values would (fieldValues [{fieldId, value}] set those fields, null clears, the others stay). A refused item is reported under failed with the reason its single call would give and changes nothing; the others are applied. One transaction for the batch.",
      }),
      body: UpdateMembersBody,
      response: { 200: UpdateMembersResult },
    })
    .post("/members/bulk-delete", ({ actor, body }) => deleteMembers(rt, actor, body.userPkIds), {
      ...route("deleteMembers", "members", "permission:member:remove", {
        summary: "Delete members",
        description:
          "Deletes up to 10 members of the tenant and their sessions. Items that cannot go are reported in `failed` with a reason: `not-found`, `self` (the caller) or `owner` (a holder of the owner role).",
      }),
      body: DeleteMembersBody,
      response: { 200: DeleteMembersResult },
    })
    .get(
      "/members/:userPkId",
      ({ actor, params, query, request }) => getMember(actor.handle.sqlite, params.userPkId, query, rawArrays(request)),
      {
        ...route("getMember", "members", "permission:member:read", {
          summary: "Get a member",
          description: "One member. Takes the list's query parameters (validated the same way); only `include` has an effect.",
          errors: ["400 `UNKNOWN_SORT_FIELD` for an unknown `sortBy`", "404 `NOT_FOUND` for an unknown member"],
        }),
        params: MemberParams,
        query: ListMembersQuery,
        response: { 200: Member },
      },
    )
    .patch("/members/:userPkId", ({ actor, params, body }) => updateMember(rt, actor, params.userPkId, body), {
      ...route("updateMember", "members", "permission:member:manage", {
        summary: "Update a member",
        description:
          "Changes a member's profile fields, login id or e-mail (the platform directory follows at once), or deactivates it (`isActive: false` revokes its sessions and refuses its sign-ins) and reactivates it. Absent fields stay.",
        errors: [
          "400 `VALIDATION_FAILED` when the member would keep neither `userId` nor `email`",
          "404 `NOT_FOUND` for an unknown member",
          "409 `ALREADY_EXISTS` when the `userId` or e-mail is taken",
          "409 `INVALID_STATE` when deactivating the caller or a holder of the owner role",
        ],
      }),
      params: MemberParams,
      body: UpdateMemberBody,
      response: { 200: Member },
    })
    .put("/members/:userPkId/role", ({ actor, params, body }) => setMemberRole(actor, params.userPkId, body.roleKey), {
      ...route("setMemberRole", "members", "permission:member:manage-role", {
        summary: "Change a member's role",
        description: "Gives the member another tenant role, effective at its next request.",
        errors: [
          "400 `VALIDATION_FAILED` when `roleKey` names no role",
          "403 `FORBIDDEN` when the role holds a permission the caller does not, or the member holds `owner` and the caller does not",
          "404 `NOT_FOUND` for an unknown member",
          "409 `INVALID_STATE` for the caller's own role or the last active owner",
        ],
      }),
      params: MemberParams,
      body: SetMemberRoleBody,
      response: { 200: Member },
    })
    .post(
      "/members/:userPkId/reset-password",
      ({ actor, params, body }) => resetMemberPassword(rt, actor, params.userPkId, body.password),
      {
        ...route("resetMemberPassword", "members", "permission:member:manage", {
          summary: "Reset a member's password",
          description:
            "Sets the given password (8..128) or a generated one, answered as `tempPassword`; the member must change it at the next sign-in (`mustChangePassword`).",
          errors: ["404 `NOT_FOUND` for an unknown member"],
        }),
        params: MemberParams,
        body: ResetPasswordBody,
        response: { 200: ResetPasswordResult },
      },
    )
    .put("/members/:userPkId/field-values", ({ actor, params, body }) => setMemberFieldValues(actor, params.userPkId, body.values), {
      ...route("setMemberFieldValues", "members", "permission:member:manage", {
        summary: "Set a member's custom-field values",
        description: "Writes the member's values of the given custom fields (at most 200) and answers all of its values.",
        errors: [
          "400 `VALIDATION_FAILED` when a `fieldId` names no member field or a value does not fit the field's type or options",
          "404 `NOT_FOUND` for an unknown member",
        ],
      }),
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
    })
    .post("/members/:userPkId/hand-over", ({ actor, params, body }) => handOverMember(actor, params.userPkId, body.toMemberId), {
      ...route("handOverMember", "members", "permission:member:manage", {
        summary: "Hand a leaving member's spaces and contents to a colleague",
        description:
          "Also needs tenant-settings:manage (403). Every space the member owns goes to toMemberId as transferSpaceOwnership would (the old owner stays ADMIN, or PARTICIPANT when inactive), and every content the member authored (tenant library and spaces) gets toMemberId as author. toMemberId: another active member (400); blocked in one of the spaces: 400, nothing moves. The member stays as they are: deactivate separately with updateMember.",
      }),
      params: MemberParams,
      body: HandOverBody,
      response: { 200: HandOverResult },
    })
    .get("/members/:userPkId/ownership", ({ actor, params }) => listMemberOwnership(actor, params.userPkId), {
      ...route("listMemberOwnership", "members", "permission:member:read", {
        summary: "What a member owns",
        description: "The spaces the member owns and the contents they authored: what handOverMember would move.",
      }),
      params: MemberParams,
      response: { 200: MemberOwnership },
    });
}
