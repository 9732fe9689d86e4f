import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function ssoModule(rt: Runtime) {
  return new Elysia({ name: "module.sso" }).use(authPlugin(rt));
}
