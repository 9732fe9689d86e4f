import { lt } from "drizzle-orm";
import { PERSONAL_SESSION_MS } from "../../platform/auth/sessions";
import type { Runtime } from "../../platform/runtime";
import { oneTimeCodes, rotatedRefreshTokens } from "./platform-tables";

const EVERY_MS = 10 * 60_000;
const lastSweep = new WeakMap<Runtime, number>();

/**
 * Drops auth rows that can no longer matter, at most every 10 minutes per server: codes past
 * their expiry (their cooldown ended earlier) and rotated refresh tokens older than the longest
 * session (their sessions have expired).
 */
export function sweepExpired(rt: Runtime, now = Date.now()) {
  if ((lastSweep.get(rt) ?? 0) > now - EVERY_MS) return;
  lastSweep.set(rt, now);
  rt.platform.db.delete(oneTimeCodes).where(lt(oneTimeCodes.expiresAt, now)).run();
  rt.platform.db
    .delete(rotatedRefreshTokens)
    .where(lt(rotatedRefreshTokens.rotatedAt, now - PERSONAL_SESSION_MS))
    .run();
}
