import type { Static } from "elysia";
import type { Db } from "../../platform/db/types";
import { isoRequired } from "../../platform/http/schemas";
import type { TenantInfo } from "./model";
import { tenantSettings } from "./tables";

export type TenantSettingsRow = typeof tenantSettings.$inferSelect;

export function readSettings(db: Db): TenantSettingsRow {
  const row = db.select().from(tenantSettings).get();
  if (!row) throw new Error("tenant settings row missing");
  return row;
}

export function toTenantInfo(row: TenantSettingsRow): Static<typeof TenantInfo> {
  return {
    id: row.tenantId,
    key: row.key,
    name: row.name,
    description: row.description,
    contactInfo: row.contactInfo,
    loginIdentifier: "userId",
    currentPlan: "FREE",
    logoImageUrl: row.logoImageUrl,
    customFieldMaxCount: 200,
    currentContractPeriod: { startedAt: isoRequired(row.createdAt), expiredAt: null },
    sessionPolicy: {
      defaultSessionType: row.defaultSessionType,
      publicAbsoluteTimeoutMinutes: row.publicAbsoluteTimeoutMinutes,
    },
  };
}

export function getTenant(db: Db) {
  return toTenantInfo(readSettings(db));
}
