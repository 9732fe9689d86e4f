import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function orgModule(rt: Runtime) {
  return new Elysia({ name: "module.org" }).use(authPlugin(rt));
}
