import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { tenants } from "../../platform/db/platform-tables";
import { changeGuardedCache, frozen } from "../../platform/db/sqlite";
import { cachedPerHandle } from "../../platform/db/tenant-store";
import { type Db, write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { type ImageSource, imageUrl, tenantLogoSource } from "../login-page/public";
import type { TenantInfo, UpdateTenantBody } from "./model";
import { isTimeZone } from "./settings";
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
    timeZone: row.timeZone,
  };
}

type CachedInfo = { row: TenantSettingsRow; logo: ImageSource; info: Static<typeof TenantInfo> | null };

/**
 * The hot read of the settings row, cached per handle until the file's next write: a statement on
 * its own pays a WAL read transaction (file locks, ~10 µs), more than the rest of the read. The
 * logo's source is cached with it, and the whole answer too unless the logo is an uploaded file,
 * whose signed download URL expires and is made per request. The cached answer is shared and frozen
 * (its response check is remembered: docs/rules/performance.md#response-cleaning).
 */
export function getTenant(rt: Runtime, actor: Actor) {
  const handle = actor.handle;
  const cached = cachedPerHandle(handle, "tenant.info", () => changeGuardedCache<CachedInfo>(handle.sqlite, 1));
  const { row, logo, info } = cached("info", () => {
    const row = readSettings(handle.db);
    const logo = tenantLogoSource(handle.db);
    return { row, logo, info: logo.fileId ? null : frozen(toTenantInfo(row, logo.url)) };
  });
  return info ?? toTenantInfo(row, imageUrl(rt, actor.tenantId, logo));
}

/** PATCH: an absent field (also inside sessionPolicy) is left unchanged; null clears description and contactInfo. */
export function updateTenant(rt: Runtime, actor: Actor, input: Static<typeof UpdateTenantBody>, now = Date.now()) {
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) throw invalid("timeZone", "must be an IANA time zone name");
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
        timeZone: input.timeZone ?? row.timeZone,
        updatedAt: now,
      })
      .returning()
      .get();
    return toTenantInfo(updated as TenantSettingsRow, imageUrl(rt, actor.tenantId, tenantLogoSource(tx)));
  });
  // The registry's copy of the name is what tenant lists (AuthTenant) show.
  if (input.name !== undefined) {
    write(rt.platform.db, (tx) => tx.update(tenants).set({ name: info.name }).where(eq(tenants.id, actor.tenantId)).run());
  }
  return info;
}
