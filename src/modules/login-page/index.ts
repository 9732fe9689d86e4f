import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function loginPageModule(rt: Runtime) {
  return new Elysia({ name: "module.login-page" }).use(authPlugin(rt));
}
