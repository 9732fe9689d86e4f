import { and, eq } from "drizzle-orm";
import { mac, nodeCrypto, sameMac } from "../../platform/crypto";
import { type Db, write } from "../../platform/db/types";
import { badRequest, type FieldError, tooMany } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { type CodePurpose, codeMail } from "./mail";
import { oneTimeCodes } from "./platform-tables";
import { sweepExpired } from "./sweep";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const RESEND_COOLDOWN_MS = 60 * 1000;
export const MAX_CODE_TRIES = 5;

/** Where a code is valid: "" for the platform-level flows, else the tenant id. */
export type CodeKey = { email: string; purpose: CodePurpose; scope: string };

const hashOf = (rt: Runtime, k: CodeKey, code: string) => mac(rt.secret, `code:${k.purpose}:${k.scope}:${k.email}`, code);

export const invalidCode = (errors?: FieldError[]) => badRequest("INVALID_CODE", "The code is wrong, expired or used.", errors);

/**
 * Issues a code (replacing the live one) when `deliver`, else only starts the cooldown, so that an
 * unknown e-mail gets the same answer and timing. The mail is sent after the response is decided.
 * `force` skips the cooldown (signUp: a fresh account's first code).
 */
export function issueCode(
  rt: Runtime,
  k: CodeKey,
  opts: { deliver: boolean; tenantName?: string | null; force?: boolean },
  now = Date.now(),
) {
  sweepExpired(rt, now);
  const code = nodeCrypto().randomInt(0, 1_000_000).toString().padStart(6, "0");
  const wait = write(rt.platform.db, (tx) => {
    const row = tx.select({ resendAvailableAt: oneTimeCodes.resendAvailableAt }).from(oneTimeCodes).where(keyOf(k)).get();
    if (row && row.resendAvailableAt > now && !opts.force) return row.resendAvailableAt - now;
    const values = {
      codeHash: opts.deliver ? hashOf(rt, k, code) : null,
      failedTries: 0,
      expiresAt: now + CODE_TTL_MS,
      resendAvailableAt: now + RESEND_COOLDOWN_MS,
      createdAt: now,
    };
    tx.insert(oneTimeCodes)
      .values({ ...k, ...values })
      .onConflictDoUpdate({ target: [oneTimeCodes.email, oneTimeCodes.purpose, oneTimeCodes.scope], set: values })
      .run();
    return 0;
  });
  if (wait > 0) throw tooMany("RESEND_TOO_SOON", "A code was sent a moment ago; wait before asking again.", wait / 1000);
  if (opts.deliver) {
    rt.mailer.send(codeMail(k.email, k.purpose, code, opts.tenantName)).catch((e) => {
      rt.log({ level: "error", event: "mail.failed", purpose: k.purpose, error: e instanceof Error ? e.message : String(e) });
    });
  }
  const issued = opts.deliver && rt.config.devCodes;
  return { nextResendAvailableAt: isoRequired(now + RESEND_COOLDOWN_MS), ...(issued ? { devCode: code } : {}) };
}

function keyOf(k: CodeKey) {
  return and(eq(oneTimeCodes.email, k.email), eq(oneTimeCodes.purpose, k.purpose), eq(oneTimeCodes.scope, k.scope));
}

/**
 * Checks a code against the live codes of `keys` (first match wins). A miss counts one wrong try
 * on each live code; the fifth wrong try ends it. `consume` ends the matched code. Returns the key
 * that matched, or throws 400 INVALID_CODE.
 */
export function checkCode(rt: Runtime, keys: CodeKey[], code: string, consume: boolean, now = Date.now()): CodeKey {
  const matched = write(rt.platform.db, (tx) => matchIn(rt, tx, keys, code, consume, now));
  if (!matched) throw invalidCode();
  return matched;
}

function matchIn(rt: Runtime, tx: Db, keys: CodeKey[], code: string, consume: boolean, now: number): CodeKey | null {
  const live: CodeKey[] = [];
  for (const k of keys) {
    const row = tx.select().from(oneTimeCodes).where(keyOf(k)).get();
    if (!row?.codeHash || row.expiresAt <= now) continue;
    if (sameMac(row.codeHash, hashOf(rt, k, code))) {
      if (consume) tx.update(oneTimeCodes).set({ codeHash: null }).where(keyOf(k)).run();
      return k;
    }
    live.push(k);
  }
  for (const k of live) {
    const row = tx.select({ failedTries: oneTimeCodes.failedTries }).from(oneTimeCodes).where(keyOf(k)).get();
    const tries = (row?.failedTries ?? 0) + 1;
    tx.update(oneTimeCodes)
      .set({ failedTries: tries, ...(tries >= MAX_CODE_TRIES ? { codeHash: null } : {}) })
      .where(keyOf(k))
      .run();
  }
  return null;
}

/** Whether a usable code of `k` exists now. */
export function hasLiveCode(rt: Runtime, k: CodeKey, now = Date.now()): boolean {
  const row = rt.platform.db
    .select({ codeHash: oneTimeCodes.codeHash, expiresAt: oneTimeCodes.expiresAt })
    .from(oneTimeCodes)
    .where(keyOf(k))
    .get();
  return !!row?.codeHash && row.expiresAt > now;
}

/** Ends a code that was checked earlier without being consumed (checkSignInCode, then a failed step). */
export function consumeCode(rt: Runtime, k: CodeKey) {
  rt.platform.db.update(oneTimeCodes).set({ codeHash: null }).where(keyOf(k)).run();
}
