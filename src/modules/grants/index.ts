import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function grantsModule(rt: Runtime) {
  return new Elysia({ name: "module.grants" }).use(authPlugin(rt));
}
