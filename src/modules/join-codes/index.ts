import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function joinCodesModule(rt: Runtime) {
  return new Elysia({ name: "module.join-codes" }).use(authPlugin(rt));
}
