import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import { Id } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { CreateRoleBody, Role, RoleList, UpdateRoleBody } from "./model";
import { createRole, deleteRole, listRoles, updateRole } from "./service";

export function rolesModule(rt: Runtime) {
  return apiModule("module.roles")
    .use(authPlugin(rt))
    .get("/roles", ({ actor }) => listRoles(actor.db), {
      ...route("listRoles", "roles", "permission:role:read", {
        summary: "List roles",
        description: "Every role of the tenant: the builtin `owner` and `member` first, then the others by name.",
      }),
      response: { 200: RoleList },
    })
    .post(
      "/roles",
      ({ actor, body, set }) => {
        set.status = 201;
        return createRole(actor, body);
      },
      {
        ...route("createRole", "roles", "permission:role:manage", {
          summary: "Create a role",
          description: "Creates a tenant role holding the given permissions.",
          errors: ["409 `ALREADY_EXISTS` when the key is taken"],
        }),
        body: CreateRoleBody,
        response: { 201: Role },
      },
    )
    .patch("/roles/:roleId", ({ actor, params, body }) => updateRole(actor, params.roleId, body), {
      ...route("updateRole", "roles", "permission:role:manage", {
        summary: "Update a role",
        description: "Renames a role or replaces its permissions. A builtin role may be renamed only.",
        errors: ["404 `NOT_FOUND` for an unknown role", "409 `INVALID_STATE` when changing a builtin role's permissions"],
      }),
      params: t.Object({ roleId: Id }),
      body: UpdateRoleBody,
      response: { 200: Role },
    })
    .delete(
      "/roles/:roleId",
      ({ actor, params, set }) => {
        deleteRole(actor.db, params.roleId);
        set.status = 204;
      },
      {
        ...route("deleteRole", "roles", "permission:role:manage", {
          summary: "Delete a role",
          description: "Deletes a role nobody holds.",
          errors: [
            "404 `NOT_FOUND` for an unknown role",
            "409 `INVALID_STATE` for a builtin role",
            "409 `IN_USE` while a member or a pending invitation holds it",
          ],
        }),
        params: t.Object({ roleId: Id }),
        response: { 204: t.Void() },
      },
    );
}
