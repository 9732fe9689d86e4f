import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { tenantJoinCodes } from "./tables";

export type TenantJoinCodeRow = typeof tenantJoinCodes.$inferSelect;

/** Join codes (tenant and space) are uppercase and typed by hand: compare them trimmed and uppercased. */
export const normalizeJoinCode = (code: string) => code.trim().toUpperCase();

/** The join code if it exists, is enabled and has not expired; else null (→ 400 INVALID_CODE for the caller). */
export function findUsableJoinCode(db: Db, code: string, now = Date.now()): TenantJoinCodeRow | null {
  const row = db
    .select()
    .from(tenantJoinCodes)
    .where(eq(tenantJoinCodes.code, normalizeJoinCode(code)))
    .get();
  if (!row?.enabled || (row.expiresAt !== null && row.expiresAt <= now)) return null;
  return row;
}

/** Whether a tenant join code already uses this (normalized) code: space and tenant codes share one namespace. */
export function tenantCodeTaken(db: Db, code: string): boolean {
  return db.select({ id: tenantJoinCodes.id }).from(tenantJoinCodes).where(eq(tenantJoinCodes.code, code)).get() !== undefined;
}
