import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function rolesModule(rt: Runtime) {
  return new Elysia({ name: "module.roles" }).use(authPlugin(rt));
}
