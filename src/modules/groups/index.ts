import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function groupsModule(rt: Runtime) {
  return new Elysia({ name: "module.groups" }).use(authPlugin(rt));
}
