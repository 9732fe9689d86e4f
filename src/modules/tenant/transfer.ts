import { eq } from "drizzle-orm";
import { sessions } from "../../platform/auth/platform-tables";
import { directory, tenants } from "../../platform/db/platform-tables";
import { replaceTenantIndex, type TenantRow } from "../../platform/db/registry";
import { write } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { memberEmails, ownerEmailOf } from "../members/directory";
import { removeTenantFile } from "./provision";
import { tenantSettings } from "./tables";

/**
 * Registers a tenant file placed in tenants/<id>.sqlite by an import or restore: the file learns its
 * (new) id and key, the platform registry gets its row and the e-mail directory its members.
 */
export function registerTenantFile(rt: Runtime, tenantId: string, key: string, now = Date.now()) {
  const info = rt.tenants.use(tenantId, (h) =>
    write(h.db, (tx) => {
      tx.update(tenantSettings).set({ tenantId, key }).where(eq(tenantSettings.id, 1)).run();
      const row = tx.select().from(tenantSettings).where(eq(tenantSettings.id, 1)).get();
      if (!row) throw new Error("tenant settings row missing");
      return { name: row.name, createdAt: row.createdAt, ownerEmail: ownerEmailOf(tx), members: memberEmails(tx) };
    }),
  );
  write(rt.platform.db, (tx) => {
    tx.insert(tenants)
      .values({ id: tenantId, key, name: info.name, ownerEmail: info.ownerEmail, createdAt: info.createdAt ?? now })
      .run();
    replaceTenantIndex(tx, tenantId, info.members);
  });
  return { name: info.name, members: info.members.length };
}

/** Removes a tenant: its sessions, directory entries and registry row, then its file and stored files. */
export async function deleteTenant(rt: Runtime, tenant: TenantRow) {
  write(rt.platform.db, (tx) => {
    tx.delete(sessions).where(eq(sessions.tenantId, tenant.id)).run();
    tx.delete(directory).where(eq(directory.tenantId, tenant.id)).run();
    tx.delete(tenants).where(eq(tenants.id, tenant.id)).run();
  });
  removeTenantFile(rt, tenant.id);
  await rt.files.removeTenant(tenant.id);
}
