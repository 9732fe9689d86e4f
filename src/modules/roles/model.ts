import { t } from "elysia";
import { Enum } from "../../platform/http/schemas";
import { PERMISSIONS } from "./permissions";

export const Permission = Enum(PERMISSIONS);

export const Role = t.Object({
  id: t.String(),
  key: t.String(),
  name: t.String(),
  scope: t.Literal("tenant"),
  isBuiltin: t.Boolean(),
  permissions: t.Array(t.String()),
});

export const RoleRef = t.Object({ key: t.String(), name: t.String() });

const RoleName = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
const Permissions = t.Array(Permission, { maxItems: 100, error: "must be a list of permission codes" });

export const CreateRoleBody = t.Object({
  key: t.String({ pattern: "^[a-z0-9-]{1,50}$", error: "must be 1..50 lowercase letters, digits or hyphens" }),
  name: RoleName,
  permissions: t.Optional(Permissions),
});

export const UpdateRoleBody = t.Object({
  name: t.Optional(RoleName),
  permissions: t.Optional(Permissions),
});

export const RoleList = t.Object({ roles: t.Array(Role) });
