import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { TenantInfo } from "./model";
import { getTenant } from "./service";

export function tenantModule(rt: Runtime) {
  return new Elysia({ name: "module.tenant" }).use(authPlugin(rt)).get("/tenant", ({ actor }) => getTenant(actor.db), {
    ...route("getTenant", "tenant", "session"),
    response: { 200: TenantInfo },
  });
}
