import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { tenants } from "../../platform/db/platform-tables";
import { prepared } from "../../platform/db/tenant-store";
import { type Db, write } from "../../platform/db/types";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { tenantLogoUrl } from "../login-page/public";
import type { TenantInfo, UpdateTenantBody } from "./model";
import { tenantSettings } from "./tables";

export type TenantSettingsRow = typeof tenantSettings.$inferSelect;

export function readSettings(db: Db): TenantSettingsRow {
  const row = db.select().from(tenantSettings).where(eq(tenantSettings.id, 1)).get();
  if (!row) throw new Error("tenant settings row missing");
  return row;
}

export function toTenantInfo(row: TenantSettingsRow, logoImageUrl: string | null): Static<typeof TenantInfo> {
  return {
    id: row.tenantId,
    key: row.key,
    name: row.name,
    description: row.description,
    contactInfo: row.contactInfo,
    loginIdentifier: "userId",
    currentPlan: "FREE",
    logoImageUrl,
    customFieldMaxCount: 200,
    currentContractPeriod: { startedAt: isoRequired(row.createdAt), expiredAt: null },
    sessionPolicy: {
      defaultSessionType: row.defaultSessionType,
      publicAbsoluteTimeoutMinutes: row.publicAbsoluteTimeoutMinutes,
    },
  };
}

/** The hot read of the settings row: one prepared statement per tenant handle. The logo is the login page's. */
export function getTenant(rt: Runtime, actor: Actor) {
  const handle = actor.handle;
  const row = prepared(handle, "tenant.settings", () =>
    handle.db.select().from(tenantSettings).where(eq(tenantSettings.id, 1)).prepare(),
  ).get();
  if (!row) throw new Error("tenant settings row missing");
  return toTenantInfo(row, tenantLogoUrl(rt, actor.tenantId, handle.db));
}

/** PATCH: an absent field (also inside sessionPolicy) is left unchanged; null clears description and contactInfo. */
export function updateTenant(rt: Runtime, actor: Actor, input: Static<typeof UpdateTenantBody>, now = Date.now()) {
  const info = write(actor.db, (tx) => {
    const row = readSettings(tx);
    const policy = input.sessionPolicy ?? {};
    const updated = tx
      .update(tenantSettings)
      .set({
        name: input.name ?? row.name,
        description: input.description === undefined ? row.description : input.description,
        contactInfo: input.contactInfo === undefined ? row.contactInfo : input.contactInfo,
        defaultSessionType: policy.defaultSessionType ?? row.defaultSessionType,
        publicAbsoluteTimeoutMinutes: policy.publicAbsoluteTimeoutMinutes ?? row.publicAbsoluteTimeoutMinutes,
        updatedAt: now,
      })
      .returning()
      .get();
    return toTenantInfo(updated as TenantSettingsRow, tenantLogoUrl(rt, actor.tenantId, tx));
  });
  // The registry's copy of the name is what tenant lists (AuthTenant) show.
  if (input.name !== undefined) {
    write(rt.platform.db, (tx) => tx.update(tenants).set({ name: info.name }).where(eq(tenants.id, actor.tenantId)).run());
  }
  return info;
}
