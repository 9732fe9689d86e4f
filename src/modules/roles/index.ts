import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import { Id } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { CreateRoleBody, Role, RoleList, UpdateRoleBody } from "./model";
import { createRole, deleteRole, listRoles, updateRole } from "./service";

export function rolesModule(rt: Runtime) {
  return new Elysia({ name: "module.roles" })
    .use(authPlugin(rt))
    .get("/roles", ({ actor }) => listRoles(actor.db), {
      ...route("listRoles", "roles", "permission:role:read"),
      response: { 200: RoleList },
    })
    .post(
      "/roles",
      ({ actor, body, set }) => {
        set.status = 201;
        return createRole(actor, body);
      },
      {
        ...route("createRole", "roles", "permission:role:manage"),
        body: CreateRoleBody,
        response: { 201: Role },
      },
    )
    .patch("/roles/:roleId", ({ actor, params, body }) => updateRole(actor, params.roleId, body), {
      ...route("updateRole", "roles", "permission:role:manage"),
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
        ...route("deleteRole", "roles", "permission:role:manage"),
        params: t.Object({ roleId: Id }),
        response: { 204: t.Void() },
      },
    );
}
