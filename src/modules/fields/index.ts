import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function fieldsModule(rt: Runtime) {
  return new Elysia({ name: "module.fields" }).use(authPlugin(rt));
}
