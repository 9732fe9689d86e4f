import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import type { Runtime } from "../../platform/runtime";

export function invitationsModule(rt: Runtime) {
  return new Elysia({ name: "module.invitations" }).use(authPlugin(rt));
}
