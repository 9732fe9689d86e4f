import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function termsModule(rt: Runtime) {
  return new Elysia({ name: "module.terms" }).use(authPlugin(rt));
}
