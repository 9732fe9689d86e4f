import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function authModule(rt: Runtime) {
  return new Elysia({ name: "module.auth" }).use(authPlugin(rt));
}
