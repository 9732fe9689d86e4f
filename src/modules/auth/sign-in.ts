import { and, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Static } from "elysia";
import { hashPassword, needsRehash, refuseWhileHashingFull, verifyPassword } from "../../platform/auth/password";
import type { TenantRow } from "../../platform/db/registry";
import { preparedQuery } from "../../platform/db/sqlite";
import type { Db } from "../../platform/db/types";
import { badRequest, forbidden, tooMany, unauthenticated } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { type AccountRow, accountByEmail, allMembershipsOf, memberByIdentifier, normEmail, safeUse, tenantOfKey } from "./identity";
import type { AuthResult, SignInWithPasswordBody } from "./model";
import { allowedLoginMethods } from "./providers";
import { forwarder, type RemoteAuth } from "./remote";
import { type Issued, type SignInTarget, startSession } from "./session";

/** Lock-out: from the 5th failure in a row, 1 min doubling per further failure, at most 1 h. */
export const LOCK_AFTER = 5;
const LOCK_BASE_MS = 60_000;
const LOCK_MAX_MS = 60 * 60_000;
export const lockMsAfter = (failures: number) =>
  failures < LOCK_AFTER ? 0 : Math.min(LOCK_MAX_MS, LOCK_BASE_MS * 2 ** (failures - LOCK_AFTER));

const wrong = () => unauthenticated("INVALID_CREDENTIALS", "The identifier or password is wrong.");

// A hash to verify against when there is no member, so a miss costs as much time as a wrong password.
let dummyHash: Promise<string> | null = null;
async function burnTime(password: string) {
  dummyHash ??= hashPassword("not-a-real-password-0");
  await verifyPassword(password, await dummyHash);
}

type Candidate = { tenant: TenantRow; memberId: string | null; identifier: string };

/**
 * signInWithPassword. With tenantKey the identifier is a userId or e-mail in that tenant; without,
 * an e-mail whose owned tenant, else only tenant, is used (docs/rules/sign-in.md#password-sign-in-without-a-tenant). A member's own hash is
 * checked; repeated failures lock the member out for a growing time.
 */
export async function signInWithPassword(
  rt: Runtime,
  input: Static<typeof SignInWithPasswordBody>,
  now = Date.now(),
): Promise<Issued<Static<typeof AuthResult>>> {
  let candidate: Candidate | null = null;
  if (input.tenantKey) {
    // In a cluster the school's node answers (docs/rules/cluster.md#sign-in-without-a-tenant-key).
    const away = forwarder(rt)?.nodeOf(input.tenantKey);
    if (away) return (forwarder(rt) as RemoteAuth).run(away, "signInWithPassword", input);
    refuseWhileHashingFull();
    const tenant = tenantOfKey(rt, input.tenantKey);
    if (tenant) candidate = { tenant, memberId: null, identifier: input.identifier };
  } else {
    const email = normEmail(input.identifier);
    const list = await allMembershipsOf(rt, email);
    const chosen = list.find((m) => m.owned) ?? (list.length === 1 ? list[0] : undefined);
    if (!chosen && list.length > 1) throw badRequest("TENANT_REQUIRED", "This e-mail belongs to several tenants; choose one.");
    const away = chosen && forwarder(rt)?.nodeOf(chosen.tenant.key);
    if (away)
      return (forwarder(rt) as RemoteAuth).run(away, "signInWithPassword", { ...input, identifier: email, tenantKey: chosen.tenant.key });
    refuseWhileHashingFull();
    if (chosen) candidate = { tenant: chosen.tenant, memberId: chosen.memberId, identifier: email };
    else return accountOnly(rt, email, input, now);
  }
  if (!candidate) {
    await burnTime(input.password);
    throw wrong();
  }
  const { tenant } = candidate;
  const found = safeUse(rt, tenant.id, (h) => ({
    member: memberByIdentifier(h.db, candidate.identifier),
    methods: allowedLoginMethods(h),
  }));
  // The tenant's policy is public (login page), so it is told before anything about the identifier.
  if (found?.methods === "SSO_ONLY") throw forbidden("SSO_ONLY", "This tenant allows only single sign-on.");
  const m = found?.member;
  if (!m?.isActive || !m.passwordHash || (candidate.memberId && candidate.memberId !== m.id)) {
    await burnTime(input.password);
    throw wrong();
  }
  refuseWhileLocked(m.lockedUntil, now);
  if (!(await verifyPassword(input.password, m.passwordHash))) {
    recordFailure(rt, tenant.id, m.id, now);
    throw wrong();
  }
  const account = m.email ? accountByEmail(rt.platform.db, m.email) : null;
  // The owner a sign-up made has not proved its e-mail until verifySignUpCode: the same answer as a wrong password.
  if (account && account.verifiedAt === null && account.signUpTenantId === tenant.id) throw wrong();
  const upgraded = needsRehash(m.passwordHash) ? await hashPassword(input.password) : null;
  rt.tenants.use(tenant.id, (h) => {
    if (upgraded)
      h.db.update(members).set({ failedLogins: 0, lockedUntil: null, passwordHash: upgraded }).where(eq(members.id, m.id)).run();
    else resetFailures(h.db, m.id);
  });
  const target: SignInTarget = {
    tenant,
    memberId: m.id,
    email: m.email ?? "",
    accountId: await provedAccount(account, m.passwordHash, input.password),
  };
  return startSession(rt, target, input.sessionType, now);
}

/**
 * The member's password proves the verified platform account of its e-mail only when it is also
 * the account's password (the same hash: the sign-up owner, a reset by e-mail; else checked).
 */
async function provedAccount(account: AccountRow | null, memberHash: string, password: string): Promise<string | null> {
  if (!account?.passwordHash || account.verifiedAt === null) return null;
  if (account.passwordHash === memberHash || (await verifyPassword(password, account.passwordHash))) return account.id;
  return null;
}

/** 429 RATE_LIMITED with Retry-After while a member is locked out after wrong passwords. */
export function refuseWhileLocked(lockedUntil: number | null, now: number) {
  if (lockedUntil && lockedUntil > now) {
    throw tooMany("RATE_LIMITED", "Too many wrong passwords; try again later.", (lockedUntil - now) / 1000);
  }
}

/**
 * Clears a member's failures after a right password. A row with nothing to reset (the usual case, every
 * sign-in of a storm) matches nothing: no page written. Prepared (docs/rules/performance.md#prepared-queries).
 */
function resetFailures(db: Db, memberId: string) {
  preparedQuery(db, "auth.resetFailures", (base) =>
    base
      .update(members)
      .set({ failedLogins: 0, lockedUntil: null })
      .where(and(eq(members.id, sql.placeholder("id")), or(ne(members.failedLogins, 0), isNotNull(members.lockedUntil))))
      .prepare(),
  ).run({ id: memberId });
}

/** Counts a wrong password of a member; from LOCK_AFTER failures in a row it is locked out. */
export function recordFailure(rt: Runtime, tenantId: string, memberId: string, now: number) {
  rt.tenants.use(tenantId, (h) => {
    const row = h.db
      .update(members)
      .set({ failedLogins: sql`${members.failedLogins} + 1` })
      .where(eq(members.id, memberId))
      .returning({ failedLogins: members.failedLogins })
      .get();
    const lock = lockMsAfter(row?.failedLogins ?? 0);
    if (lock > 0)
      h.db
        .update(members)
        .set({ lockedUntil: now + lock })
        .where(eq(members.id, memberId))
        .run();
  });
}

/** An e-mail with no tenant: the verified platform account itself (a session without a tenant). */
async function accountOnly(rt: Runtime, email: string, input: Static<typeof SignInWithPasswordBody>, now: number) {
  const account = accountByEmail(rt.platform.db, email);
  if (!account?.passwordHash || account.verifiedAt === null) {
    await burnTime(input.password);
    throw wrong();
  }
  if (!(await verifyPassword(input.password, account.passwordHash))) throw wrong();
  return startSession(rt, { account }, input.sessionType, now);
}
