// What other modules read or switch on the tenant settings row (the login page), so it is queried only here.
import type { Db } from "../../platform/db/types";
import { tenantSettings } from "./tables";

/** The tenant's own display name, or null before its settings row exists. */
export const tenantDisplayName = (db: Db): string | null =>
  db.select({ name: tenantSettings.name }).from(tenantSettings).get()?.name ?? null;

/** Whether self sign-up is on (joinTenant and the login page read the same switch). */
export const selfSignUpOn = (db: Db): boolean =>
  db.select({ on: tenantSettings.allowUserSelfSignUp }).from(tenantSettings).get()?.on ?? false;

export function setSelfSignUp(db: Db, on: boolean, now: number) {
  db.update(tenantSettings).set({ allowUserSelfSignUp: on, updatedAt: now }).run();
}

/** The school's IANA time zone (docs/rules/notifications.md#time-zone); Asia/Seoul before the row exists. */
export const tenantTimeZone = (db: Db): string =>
  db.select({ zone: tenantSettings.timeZone }).from(tenantSettings).get()?.zone ?? "Asia/Seoul";

/** Whether the runtime knows this IANA zone name (an unknown one is a 400 in updateTenant). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}
