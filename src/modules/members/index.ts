import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function membersModule(rt: Runtime) {
  return new Elysia({ name: "module.members" }).use(authPlugin(rt));
}
