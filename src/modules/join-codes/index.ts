import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import { Id } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { CreateJoinCodeBody, JoinCode, JoinCodeList, UpdateJoinCodeBody } from "./model";
import { createTenantJoinCode, listTenantJoinCodes, updateTenantJoinCode } from "./service";

export function joinCodesModule(rt: Runtime) {
  return apiModule("module.join-codes")
    .use(authPlugin(rt))
    .get("/join-codes", ({ actor }) => listTenantJoinCodes(rt, actor), {
      ...route("listTenantJoinCodes", "joinCodes", "permission:member:invite", {
        summary: "List tenant join codes",
        description: "Every join code of the tenant, newest first, disabled and expired ones included.",
      }),
      response: { 200: JoinCodeList },
    })
    .post(
      "/join-codes",
      ({ actor, body, set }) => {
        set.status = 201;
        return createTenantJoinCode(rt, actor, body ?? {});
      },
      {
        ...route("createTenantJoinCode", "joinCodes", "permission:member:invite", {
          summary: "Create a tenant join code",
          description:
            "A code, and a `link` carrying it, that lets people join the tenant (`joinTenantWithJoinCode`) even while self sign-up is off. Without `expiresInDays` it never expires.",
        }),
        body: CreateJoinCodeBody,
        response: { 201: JoinCode },
      },
    )
    .patch("/join-codes/:joinCodeId", ({ actor, params, body }) => updateTenantJoinCode(rt, actor, params.joinCodeId, body), {
      ...route("updateTenantJoinCode", "joinCodes", "permission:member:invite", {
        summary: "Enable or disable a tenant join code",
        description: "Turns a join code on or off.",
        errors: ["404 `NOT_FOUND` for an unknown join code"],
      }),
      params: t.Object({ joinCodeId: Id }),
      body: UpdateJoinCodeBody,
      response: { 200: JoinCode },
    });
}
