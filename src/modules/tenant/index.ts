import { authPlugin } from "../../platform/auth/context";
import { invalid } from "../../platform/http/errors";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { TenantInfo, UpdateTenantBody } from "./model";
import { getTenant, updateTenant } from "./service";

const badPolicy = new WeakSet<Request>();

export function tenantModule(rt: Runtime) {
  return apiModule("module.tenant")
    .use(authPlugin(rt))
    .get("/tenant", ({ actor }) => getTenant(rt, actor), {
      ...route("getTenant", "tenant", "session", {
        summary: "Get the tenant",
        description:
          "The caller's tenant: name, description, contact, login identifier, plan, logo, contract period, session policy and time zone.",
      }),
      response: { 200: TenantInfo },
    })
    .patch("/tenant", ({ actor, body }) => updateTenant(rt, actor, body), {
      ...route("updateTenant", "tenant", "permission:tenant-settings:manage", {
        summary: "Update the tenant",
        description: "Changes the tenant's name, description, contact info, session policy or time zone. Absent fields stay.",
        errors: ["400 `VALIDATION_FAILED` for an unknown time zone"],
      }),
      // Elysia's exact-mirror normalizing turns any non-object sessionPolicy (null, "x", []) into {}
      // before validation: note it here, refuse it after the auth checks.
      transform: ({ body, request }) => {
        const policy = (body as { sessionPolicy?: unknown } | null)?.sessionPolicy;
        if (policy !== undefined && (typeof policy !== "object" || policy === null || Array.isArray(policy))) badPolicy.add(request);
      },
      beforeHandle: ({ request }) => {
        if (badPolicy.delete(request)) throw invalid("sessionPolicy", "must be an object");
      },
      body: UpdateTenantBody,
      response: { 200: TenantInfo },
    });
}
