import { and, count, eq, getTableName } from "drizzle-orm";
import type { Static } from "elysia";
import { hashPassword } from "../../platform/auth/password";
import { sessions } from "../../platform/auth/platform-tables";
import { directory, tenants } from "../../platform/db/platform-tables";
import { type TenantRow, tenantCount } from "../../platform/db/registry";
import { commitNow, write } from "../../platform/db/types";
import { conflict, forbidden, Problem, unauthenticated } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { provisionTenant, removeTenantFile } from "../tenant/provision";
import { CODE_TTL_MS, type CodeKey, checkCode, consumeCode, hasLiveCode, invalidCode, issueCode } from "./codes";
import {
  accountByEmail,
  directoryHits,
  memberByEmail,
  normEmail,
  proveMemberEmail,
  safeUse,
  tenantOfId,
  tenantOfKey,
  tenantsOf,
  verifiedAccountId,
} from "./identity";
import type { AuthResult, ConfirmResetBody, SignInWithCodeBody, SignUpBody, VerifySignUpBody } from "./model";
import { accounts, pendingSignUps } from "./platform-tables";
import { allowedLoginMethods } from "./providers";
import { forwarder, type RemoteAuth, remoteAuth } from "./remote";
import { type Issued, revokeEmailSessions, type SignInTarget, startSession } from "./session";

const platformKey = (email: string, purpose: CodeKey["purpose"]): CodeKey => ({ email, purpose, scope: "" });
const isUnique = (e: unknown) => String((e as { code?: string }).code).startsWith("SQLITE_CONSTRAINT");

/**
 * signUp: the platform account, and with `tenantKey` the tenant (its file first, then the registry
 * and directory, by provisionTenant) with the account's e-mail as `owner`; then the sign-up code.
 * The account is written with a pending marker that the registry's commit removes, so a crash
 * between the commits is rolled back (rollBackPendingSignUps) and never blocks the e-mail.
 */
export async function signUp(rt: Runtime, input: Static<typeof SignUpBody>, now = Date.now()) {
  const email = normEmail(input.email);
  const db = rt.platform.db;
  if (input.tenantKey) checkTenantSignUp(rt);
  rollBackPendingSignUps(rt, email);
  if (accountByEmail(db, email)) throw conflict("ALREADY_EXISTS", "An account with this e-mail already exists.");
  const heldBy = input.tenantKey ? tenantOfKey(rt, input.tenantKey) : null;
  if (heldBy && !releaseStaleSignUp(rt, heldBy, now)) throw conflict("ALREADY_EXISTS", "This tenantKey is taken.");
  const passwordHash = await hashPassword(input.password);
  const id = Bun.randomUUIDv7();
  const tenantId = input.tenantKey ? crypto.randomUUID() : null;
  try {
    write(db, (tx) => {
      tx.insert(accounts)
        .values({ id, email, displayName: input.displayName, passwordHash, signUpTenantId: tenantId, createdAt: now, updatedAt: now })
        .run();
      if (tenantId) tx.insert(pendingSignUps).values({ tenantId, accountId: id, createdAt: now }).run();
    });
    // The marker must be on disk before the tenant file exists, or a crash leaves a file nobody knows of.
    commitNow(db);
  } catch (e) {
    if (isUnique(e)) throw conflict("ALREADY_EXISTS", "An account with this e-mail already exists.");
    throw e;
  }
  if (input.tenantKey && tenantId) {
    try {
      const owner = { email, displayName: input.displayName, passwordHash };
      provisionTenant(rt, { key: input.tenantKey, name: input.tenantName ?? input.tenantKey, owner }, now, {
        tenantId,
        registered: (tx) => tx.delete(pendingSignUps).where(eq(pendingSignUps.tenantId, tenantId)).run(),
      });
    } catch (e) {
      rollBack(rt, { tenantId, accountId: id });
      throw e;
    }
  }
  const issued = issueCode(rt, platformKey(email, "sign-up"), { deliver: true, force: true }, now);
  return { email, verificationRequired: true, ...(issued.devCode ? { devCode: issued.devCode } : {}) };
}

/** LEARNSPACE_TENANT_SIGNUP decides whether signUp may make a tenant (docs/rules/trust.md#who-may-create-a-tenant). */
function checkTenantSignUp(rt: Runtime) {
  const policy = rt.config.tenantSignup;
  if (policy === "open" || (policy === "first" && tenantCount(rt.platform.db) === 0)) return;
  throw forbidden("FORBIDDEN", "Tenant sign-up is closed on this server; ask its operator to create your tenant.");
}

/** Undoes a sign-up whose tenant never reached the registry: the account, the marker, the tenant file. */
function rollBack(rt: Runtime, pending: { tenantId: string; accountId: string }) {
  write(rt.platform.db, (tx) => {
    tx.delete(accounts)
      .where(and(eq(accounts.id, pending.accountId), eq(accounts.signUpTenantId, pending.tenantId)))
      .run();
    tx.delete(pendingSignUps).where(eq(pendingSignUps.tenantId, pending.tenantId)).run();
  });
  removeTenantFile(rt, pending.tenantId);
}

/**
 * Rolls back sign-ups cut between their commits (kill -9): every one at start, or those of one
 * e-mail at its next sign-up. A sign-up runs its commits without yielding, and one server holds the
 * data dir, so a marker seen here is never one in progress. Returns how many were rolled back.
 */
export function rollBackPendingSignUps(rt: Runtime, email?: string): number {
  // At start, where there is almost never a marker, one raw probe: drizzle's first query (cold code, ~1.5 %
  // of a start's samples) is then paid after ready (docs/rules/performance.md#start).
  if (!email && !rt.platform.sqlite.query(`SELECT 1 FROM ${getTableName(pendingSignUps)} LIMIT 1`).get()) return 0;
  const db = rt.platform.db;
  const rows = email
    ? db
        .select({ tenantId: pendingSignUps.tenantId, accountId: pendingSignUps.accountId })
        .from(pendingSignUps)
        .innerJoin(accounts, eq(accounts.id, pendingSignUps.accountId))
        .where(eq(accounts.email, email))
        .all()
    : db.select({ tenantId: pendingSignUps.tenantId, accountId: pendingSignUps.accountId }).from(pendingSignUps).all();
  for (const row of rows) {
    rollBack(rt, row);
    rt.log({ level: "warn", event: "sign-up.rolled-back", tenantId: row.tenantId });
  }
  return rows.length;
}

/**
 * A tenantKey held by a sign-up that was never verified is freed when that sign-up is stale: made
 * longer ago than a code lives, no sign-up code live, and its tenant untouched (the owner alone,
 * never a session). The tenant (registry, directory, file) and the unverified account go.
 */
function releaseStaleSignUp(rt: Runtime, tenant: TenantRow, now: number): boolean {
  const db = rt.platform.db;
  const account = tenant.ownerEmail ? accountByEmail(db, tenant.ownerEmail) : null;
  if (!account || account.verifiedAt !== null || account.signUpTenantId !== tenant.id) return false;
  if (account.createdAt > now - CODE_TTL_MS || hasLiveCode(rt, platformKey(account.email, "sign-up"), now)) return false;
  if (db.select({ id: sessions.id }).from(sessions).where(eq(sessions.tenantId, tenant.id)).get()) return false;
  const memberCount = safeUse(rt, tenant.id, (h) => h.db.select({ n: count() }).from(members).get()?.n ?? 0);
  if (memberCount !== undefined && memberCount > 1) return false;
  write(db, (tx) => {
    tx.delete(directory).where(eq(directory.tenantId, tenant.id)).run();
    tx.delete(tenants).where(eq(tenants.id, tenant.id)).run();
    tx.delete(accounts).where(eq(accounts.id, account.id)).run();
  });
  removeTenantFile(rt, tenant.id);
  return true;
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
    const memberId = safeUse(rt, tenant.id, (h) => {
      const id = memberByEmail(h.db, email)?.id;
      if (id) write(h.db, (tx) => proveMemberEmail(tx, id, email, now));
      return id;
    });
    if (memberId) target = { tenant, memberId, email, accountId: account.id };
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
/** isKnown, or (in a cluster) a proved member of a school another node holds. */
const isKnownAnywhere = async (rt: Runtime, email: string) =>
  isKnown(rt, email) || ((await remoteAuth(rt)?.memberships(email))?.length ?? 0) > 0;

export function requestPasswordResetCode(rt: Runtime, rawEmail: string) {
  const email = normEmail(rawEmail);
  return issueCode(rt, platformKey(email, "password-reset"), { deliver: isKnown(rt, email) });
}

/** The e-mail's platform sign-in codes live on its home node in a cluster (docs/rules/cluster.md#sign-in-without-a-tenant-key). */
export async function requestSignInCode(rt: Runtime, rawEmail: string) {
  const email = normEmail(rawEmail);
  const remote = forwarder(rt);
  const home = remote?.homeOf(email);
  if (remote && home) return remote.run<ReturnType<typeof issueCode>>(home, "requestSignInCode", email);
  return issueCode(rt, platformKey(email, "sign-in"), { deliver: await isKnownAnywhere(rt, email) });
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
export async function checkSignInCode(rt: Runtime, input: { email: string; code: string }, now = Date.now()) {
  const email = normEmail(input.email);
  const remote = forwarder(rt);
  const home = remote?.homeOf(email);
  if (remote && home) return remote.run<Awaited<ReturnType<typeof tenantsOf>>>(home, "checkSignInCode", input);
  checkCode(rt, [platformKey(email, "sign-in")], input.code, false, now);
  return tenantsOf(rt, email);
}

/**
 * signInWithCode: a platform sign-in code or a code of this tenant (requestTenantCode) proves the
 * e-mail; the member with that e-mail in the tenant is signed in. The code is used up only then.
 */
export async function signInWithCode(
  rt: Runtime,
  input: Static<typeof SignInWithCodeBody>,
  now = Date.now(),
): Promise<Issued<Static<typeof AuthResult>>> {
  const email = normEmail(input.email);
  // In a cluster the school's node answers; the platform code is on the e-mail's home node.
  const away = forwarder(rt)?.nodeOf(input.tenantKey);
  if (away) return (forwarder(rt) as RemoteAuth).run(away, "signInWithCode", input);
  const tenant = tenantOfKey(rt, input.tenantKey);
  const keys: CodeKey[] = [platformKey(email, "sign-in")];
  if (tenant) keys.unshift({ email, purpose: "tenant", scope: tenant.id });
  const matched = await checkCodeAnywhere(rt, keys, input.code, now);
  const notMember = () => unauthenticated("INVALID_CREDENTIALS", "This e-mail is not a member of this tenant.");
  if (!tenant) throw notMember();
  const found = safeUse(rt, tenant.id, (h) => {
    const m = memberByEmail(h.db, email);
    return m?.isActive ? { memberId: m.id, methods: allowedLoginMethods(h) } : null;
  });
  if (!found) throw notMember();
  if (found.methods === "SSO_ONLY") throw forbidden("SSO_ONLY", "This tenant allows only single sign-on.");
  await consumeCodeAnywhere(rt, matched, input.code);
  safeUse(rt, tenant.id, (h) => write(h.db, (tx) => proveMemberEmail(tx, found.memberId, email, now)));
  const accountId = verifiedAccountId(rt.platform.db, email);
  return startSession(rt, { tenant, memberId: found.memberId, email, accountId }, input.sessionType, now);
}

/**
 * checkCode where the e-mail's platform code may be on its home node (a cluster): this node's codes
 * first, then the home node's platform code. Returns the key that matched; `home` names where.
 */
async function checkCodeAnywhere(rt: Runtime, keys: CodeKey[], code: string, now: number): Promise<CodeKey & { home?: string }> {
  const platform = keys.find((k) => k.scope === "");
  const home = platform ? remoteAuth(rt)?.homeOf(platform.email) : null;
  if (!platform || !home) return checkCode(rt, keys, code, false, now);
  const here = keys.filter((k) => k !== platform);
  if (here.length) {
    try {
      return checkCode(rt, here, code, false, now);
    } catch (e) {
      if (!(e instanceof Problem) || e.code !== "INVALID_CODE") throw e;
    }
  }
  await (remoteAuth(rt) as RemoteAuth).checkCode(home, platform, code, false);
  return { ...platform, home };
}

/** Uses up the matched code; on the home node by checking it once more (a code used meanwhile is INVALID_CODE). */
async function consumeCodeAnywhere(rt: Runtime, matched: CodeKey & { home?: string }, code: string) {
  const { home, ...key } = matched;
  if (home) await (remoteAuth(rt) as RemoteAuth).checkCode(home, key, code, true);
  else consumeCode(rt, key);
}
