import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import {
  AllEnabledBody,
  BulkGrantResult,
  BulkRevokeResult,
  BulkSubjectsBody,
  CodeParams,
  GrantList,
  GrantMemberList,
  GrantQuery,
  PermissionGrant,
  PermissionGrantExtended,
  SubjectBody,
} from "./model";
import {
  addGrantSubject,
  bulkGrant,
  bulkRevoke,
  getGrant,
  listGrantMembers,
  listGrants,
  removeGrantSubject,
  setGrantAllEnabled,
} from "./service";

/** Permission grants, addressed by permission code; they widen the holders' effective permissions. */
export function grantsModule(rt: Runtime) {
  return apiModule("module.grants")
    .use(authPlugin(rt))
    .get("/permission-grants", ({ actor }) => listGrants(actor.db), {
      ...route("listGrants", "grants", "permission:role:read", {
        summary: "List permission grants",
        description:
          "One item per permission code, in enumeration order, with its all-enabled flag and subject counts, also without subjects.",
      }),
      response: { 200: GrantList },
    })
    .get("/permission-grants/:code", ({ actor, params, query }) => getGrant(actor.db, params.code, query), {
      ...route("getGrant", "grants", "permission:role:read", {
        summary: "Get a permission grant",
        description:
          "One permission code's grant: all-enabled flag and a page of its groups and members (`page`, `pageSize` and `search` apply to both).",
        errors: ["404 `NOT_FOUND` for an unknown permission code"],
      }),
      params: CodeParams,
      query: GrantQuery,
      response: { 200: PermissionGrantExtended },
    })
    .get("/permission-grants/:code/members", ({ actor, params, query }) => listGrantMembers(actor.db, params.code, query), {
      ...route("listGrantMembers", "grants", "permission:role:read", {
        summary: "List the holders of a grant",
        description:
          "A page of the members who hold the permission through this grant: member subjects, members of granted groups, and every active member while it is all-enabled; deduplicated.",
        errors: ["404 `NOT_FOUND` for an unknown permission code"],
      }),
      params: CodeParams,
      query: GrantQuery,
      response: { 200: GrantMemberList },
    })
    .post("/permission-grants/:code/subjects", ({ actor, params, body }) => addGrantSubject(actor, params.code, body), {
      ...route("addGrantSubject", "grants", "permission:role:manage", {
        summary: "Grant a permission to a group or member",
        description: "Adds a GROUP or MEMBER subject to the permission's grant; one already there stays.",
        errors: ["400 `VALIDATION_FAILED` when `subjectId` names no group or member", "404 `NOT_FOUND` for an unknown permission code"],
      }),
      params: CodeParams,
      body: SubjectBody,
      response: { 200: PermissionGrant },
    })
    .post("/permission-grants/:code/subjects/remove", ({ actor, params, body }) => removeGrantSubject(actor.db, params.code, body), {
      ...route("removeGrantSubject", "grants", "permission:role:manage", {
        summary: "Revoke a permission from a group or member",
        description: "Removes a subject from the permission's grant.",
        errors: ["404 `NOT_FOUND` for an unknown permission code or a subject not in the grant"],
      }),
      params: CodeParams,
      body: SubjectBody,
      response: { 200: PermissionGrant },
    })
    .put("/permission-grants/:code/all-enabled", ({ actor, params, body }) => setGrantAllEnabled(actor, params.code, body.enabled), {
      ...route("setGrantAllEnabled", "grants", "permission:role:manage", {
        summary: "Grant a permission to everyone",
        description: "Turns on or off the permission for every member of the tenant.",
        errors: ["404 `NOT_FOUND` for an unknown permission code"],
      }),
      params: CodeParams,
      body: AllEnabledBody,
      response: { 200: PermissionGrant },
    })
    .post("/permission-grants/:code/subjects/bulk-grant", ({ actor, params, body }) => bulkGrant(actor, params.code, body), {
      ...route("bulkGrant", "grants", "permission:role:manage", {
        summary: "Grant a permission to many subjects",
        description:
          "Adds up to 500 subjects of one type; the ones skipped are listed with a reason (`ALREADY_GRANTED`, `NOT_FOUND`, `INACTIVE`).",
        errors: ["404 `NOT_FOUND` for an unknown permission code"],
      }),
      params: CodeParams,
      body: BulkSubjectsBody,
      response: { 200: BulkGrantResult },
    })
    .post("/permission-grants/:code/subjects/bulk-revoke", ({ actor, params, body }) => bulkRevoke(actor.db, params.code, body), {
      ...route("bulkRevoke", "grants", "permission:role:manage", {
        summary: "Revoke a permission from many subjects",
        description: "Removes up to 500 subjects of one type and counts the ones removed.",
        errors: ["404 `NOT_FOUND` for an unknown permission code"],
      }),
      params: CodeParams,
      body: BulkSubjectsBody,
      response: { 200: BulkRevokeResult },
    });
}
