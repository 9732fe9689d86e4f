import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.grants" })
    .use(authPlugin(rt))
    .get("/permission-grants", ({ actor }) => listGrants(actor.db), {
      ...route("listGrants", "grants", "permission:role:read"),
      response: { 200: GrantList },
    })
    .get("/permission-grants/:code", ({ actor, params, query }) => getGrant(actor.db, params.code, query), {
      ...route("getGrant", "grants", "permission:role:read"),
      params: CodeParams,
      query: GrantQuery,
      response: { 200: PermissionGrantExtended },
    })
    .get("/permission-grants/:code/members", ({ actor, params, query }) => listGrantMembers(actor.db, params.code, query), {
      ...route("listGrantMembers", "grants", "permission:role:read"),
      params: CodeParams,
      query: GrantQuery,
      response: { 200: GrantMemberList },
    })
    .post("/permission-grants/:code/subjects", ({ actor, params, body }) => addGrantSubject(actor, params.code, body), {
      ...route("addGrantSubject", "grants", "permission:role:manage"),
      params: CodeParams,
      body: SubjectBody,
      response: { 200: PermissionGrant },
    })
    .post("/permission-grants/:code/subjects/remove", ({ actor, params, body }) => removeGrantSubject(actor.db, params.code, body), {
      ...route("removeGrantSubject", "grants", "permission:role:manage"),
      params: CodeParams,
      body: SubjectBody,
      response: { 200: PermissionGrant },
    })
    .put("/permission-grants/:code/all-enabled", ({ actor, params, body }) => setGrantAllEnabled(actor, params.code, body.enabled), {
      ...route("setGrantAllEnabled", "grants", "permission:role:manage"),
      params: CodeParams,
      body: AllEnabledBody,
      response: { 200: PermissionGrant },
    })
    .post("/permission-grants/:code/subjects/bulk-grant", ({ actor, params, body }) => bulkGrant(actor, params.code, body), {
      ...route("bulkGrant", "grants", "permission:role:manage"),
      params: CodeParams,
      body: BulkSubjectsBody,
      response: { 200: BulkGrantResult },
    })
    .post("/permission-grants/:code/subjects/bulk-revoke", ({ actor, params, body }) => bulkRevoke(actor.db, params.code, body), {
      ...route("bulkRevoke", "grants", "permission:role:manage"),
      params: CodeParams,
      body: BulkSubjectsBody,
      response: { 200: BulkRevokeResult },
    });
}
