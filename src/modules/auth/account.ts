import { and, eq } from "drizzle-orm";
import type { Static } from "elysia";
import { hashPassword } from "../../platform/auth/password";
import { conflict, forbidden, unauthenticated } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../members/tables";
import { provisionTenant } from "../tenant/provision";
import { type CodeKey, checkCode, consumeCode, invalidCode, issueCode } from "./codes";
import { accountByEmail, directoryHits, memberByEmail, normEmail, safeUse, tenantOfId, tenantOfKey, tenantsOf } from "./identity";
import type { ConfirmResetBody, SignInWithCodeBody, SignUpBody, VerifySignUpBody } from "./model";
import { accounts } from "./platform-tables";
import { allowedLoginMethods } from "./providers";
import { revokeEmailSessions, type SignInTarget, startSession } from "./session";

const platformKey = (email: string, purpose: CodeKey["purpose"]): CodeKey => ({ email, purpose, scope: "" });
const isUnique = (e: unknown) => String((e as { code?: string }).code).startsWith("SQLITE_CONSTRAINT");

/**
 * signUp: the platform account, and with `tenantKey` the tenant (its file first, then the registry
 * and directory, by provisionTenant) with the account's e-mail as `owner`; then the sign-up code.
 */
export async function signUp(rt: Runtime, input: Static<typeof SignUpBody>, now = Date.now()) {
  const email = normEmail(input.email);
  const db = rt.platform.db;
  if (accountByEmail(db, email)) throw conflict("ALREADY_EXISTS", "An account with this e-mail already exists.");
  if (input.tenantKey && tenantOfKey(rt, input.tenantKey)) throw conflict("ALREADY_EXISTS", "This tenantKey is taken.");
  const passwordHash = await hashPassword(input.password);
  const id = Bun.randomUUIDv7();
  try {
    db.insert(accounts).values({ id, email, displayName: input.displayName, passwordHash, createdAt: now, updatedAt: now }).run();
  } catch (e) {
    if (isUnique(e)) throw conflict("ALREADY_EXISTS", "An account with this e-mail already exists.");
    throw e;
  }
  if (input.tenantKey) {
    try {
      const owner = { email, displayName: input.displayName, passwordHash };
      const t = provisionTenant(rt, { key: input.tenantKey, name: input.tenantName ?? input.tenantKey, owner }, now);
      db.update(accounts).set({ signUpTenantId: t.tenantId }).where(eq(accounts.id, id)).run();
    } catch (e) {
      db.delete(accounts).where(eq(accounts.id, id)).run();
      throw e;
    }
  }
  const issued = issueCode(rt, platformKey(email, "sign-up"), { deliver: true, force: true }, now);
  return { email, verificationRequired: true, ...(issued.devCode ? { devCode: issued.devCode } : {}) };
}

/** verifySignUpCode: proves the e-mail and signs into the tenant made at sign-up (or into no tenant). */
export async function verifySignUpCode(rt: Runtime, input: Static<typeof VerifySignUpBody>, now = Date.now()) {
  const email = normEmail(input.email);
  checkCode(rt, [platformKey(email, "sign-up")], input.code, true, now);
  const account = accountByEmail(rt.platform.db, email);
  if (!account) throw invalidCode();
  rt.platform.db.update(accounts).set({ verifiedAt: now, updatedAt: now }).where(eq(accounts.id, account.id)).run();
  const tenant = account.signUpTenantId ? tenantOfId(rt, account.signUpTenantId) : null;
  let target: SignInTarget = { account: { ...account, verifiedAt: now } };
  if (tenant) {
    const memberId = safeUse(rt, tenant.id, (h) => memberByEmail(h.db, email)?.id);
    if (memberId) target = { tenant, memberId, email };
  }
  return startSession(rt, target, input.sessionType, now);
}

/** resendSignUpCode: a new code only for an account still unverified; the same answer otherwise. */
export function resendSignUpCode(rt: Runtime, rawEmail: string) {
  const email = normEmail(rawEmail);
  const account = accountByEmail(rt.platform.db, email);
  return issueCode(rt, platformKey(email, "sign-up"), { deliver: !!account && account.verifiedAt === null });
}

/** An e-mail is known when it has a platform account or is a member of some tenant. */
const isKnown = (rt: Runtime, email: string) => !!accountByEmail(rt.platform.db, email) || directoryHits(rt, email).length > 0;

export function requestPasswordResetCode(rt: Runtime, rawEmail: string) {
  const email = normEmail(rawEmail);
  return issueCode(rt, platformKey(email, "password-reset"), { deliver: isKnown(rt, email) });
}

export function requestSignInCode(rt: Runtime, rawEmail: string) {
  const email = normEmail(rawEmail);
  return issueCode(rt, platformKey(email, "sign-in"), { deliver: isKnown(rt, email) });
}

/**
 * confirmPasswordReset: the new password on the platform account and on every member with that
 * e-mail in every tenant; every session of the e-mail ends.
 */
export async function confirmPasswordReset(rt: Runtime, input: Static<typeof ConfirmResetBody>, now = Date.now()) {
  const email = normEmail(input.email);
  checkCode(rt, [platformKey(email, "password-reset")], input.code, true, now);
  const passwordHash = await hashPassword(input.newPassword);
  let updatedAccounts = 0;
  const account = accountByEmail(rt.platform.db, email);
  if (account) {
    rt.platform.db
      .update(accounts)
      .set({ passwordHash, verifiedAt: account.verifiedAt ?? now, updatedAt: now })
      .where(eq(accounts.id, account.id))
      .run();
    updatedAccounts++;
  }
  for (const hit of directoryHits(rt, email)) {
    const changed = safeUse(rt, hit.tenantId, (h) =>
      h.db
        .update(members)
        .set({ passwordHash, mustChangePassword: false, failedLogins: 0, lockedUntil: null, updatedAt: now })
        .where(and(eq(members.id, hit.memberId), eq(members.email, email)))
        .returning({ id: members.id })
        .all(),
    );
    updatedAccounts += changed?.length ?? 0;
  }
  revokeEmailSessions(rt, email, now);
  return { updatedAccounts };
}

/** checkSignInCode: the code is checked (wrong tries count) but stays usable for signInWithCode. */
export function checkSignInCode(rt: Runtime, input: { email: string; code: string }, now = Date.now()) {
  const email = normEmail(input.email);
  checkCode(rt, [platformKey(email, "sign-in")], input.code, false, now);
  return tenantsOf(rt, email);
}

/**
 * signInWithCode: a platform sign-in code or a code of this tenant (requestTenantCode) proves the
 * e-mail; the member with that e-mail in the tenant is signed in. The code is used up only then.
 */
export async function signInWithCode(rt: Runtime, input: Static<typeof SignInWithCodeBody>, now = Date.now()) {
  const email = normEmail(input.email);
  const tenant = tenantOfKey(rt, input.tenantKey);
  const keys: CodeKey[] = [platformKey(email, "sign-in")];
  if (tenant) keys.unshift({ email, purpose: "tenant", scope: tenant.id });
  const matched = checkCode(rt, keys, input.code, false, now);
  const notMember = () => unauthenticated("INVALID_CREDENTIALS", "This e-mail is not a member of this tenant.");
  if (!tenant) throw notMember();
  const found = safeUse(rt, tenant.id, (h) => {
    const m = memberByEmail(h.db, email);
    return m?.isActive ? { memberId: m.id, methods: allowedLoginMethods(h) } : null;
  });
  if (!found) throw notMember();
  if (found.methods === "SSO_ONLY") throw forbidden("SSO_ONLY", "This tenant allows only single sign-on.");
  consumeCode(rt, matched);
  return startSession(rt, { tenant, memberId: found.memberId, email }, input.sessionType, now);
}
