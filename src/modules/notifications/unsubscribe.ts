// One-click unsubscribe without signing in (RFC 8058; docs/rules/notifications.md#unsubscribe).
import { eq } from "drizzle-orm";
import { TenantFileMissingError } from "../../platform/db/tenant-store";
import { write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { readUnsubscribeToken } from "./mail";
import { readSettings, storeSettings } from "./settings";

const bad = () => invalid("token", "The unsubscribe link is not valid.", "query");

/** Sets the token's member's e-mail to OFF; a forged token, or one naming nobody, is 400. */
export function unsubscribe(rt: Runtime, token: string): { email: "OFF" } {
  const who = readUnsubscribeToken(rt.secret, token);
  if (!who) throw bad();
  try {
    rt.tenants.use(who.tenantId, (h) =>
      write(h.db, (tx) => {
        if (!tx.select({ id: members.id }).from(members).where(eq(members.id, who.memberId)).get()) throw bad();
        storeSettings(tx, who.memberId, { ...readSettings(tx, who.memberId), email: "OFF" }, rt.now());
      }),
    );
  } catch (e) {
    if (e instanceof TenantFileMissingError || (e instanceof Error && e.message === "invalid tenant id")) throw bad();
    throw e;
  }
  return { email: "OFF" };
}
