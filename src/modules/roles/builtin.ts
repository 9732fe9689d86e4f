import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { roles } from "../../schema/roles";
import { PERMISSIONS } from "./permissions";

/** Builtin roles: `owner` has every code (the tenant creator), `member` none (the default roleKey). */
export function seedBuiltinRoles(db: Db, now: number) {
  db.insert(roles)
    .values([
      { id: Bun.randomUUIDv7(), key: "owner", name: "Owner", isBuiltin: true, permissions: [...PERMISSIONS], createdAt: now },
      { id: Bun.randomUUIDv7(), key: "member", name: "Member", isBuiltin: true, permissions: [], createdAt: now + 1 },
    ])
    .run();
}

export function roleByKey(db: Db, key: string) {
  return db.select().from(roles).where(eq(roles.key, key)).get() ?? null;
}
