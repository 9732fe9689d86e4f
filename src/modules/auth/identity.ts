import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { ActorMember } from "../../platform/auth/actor";
import { directoryOf, type TenantRow, tenantById, tenantByKey } from "../../platform/db/registry";
import { preparedQuery } from "../../platform/db/sqlite";
import { TenantFileMissingError, type TenantHandle } from "../../platform/db/tenant-store";
import type { Db } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { tenantLogoUrl } from "../login-page/public";
import { needsAgreementConsent } from "../terms/consent";
import type { AuthTenant, SessionUser } from "./model";
import { accounts } from "./platform-tables";
import { type Membership, remoteAuth } from "./remote";

export type AccountRow = typeof accounts.$inferSelect;
export type MemberRow = typeof members.$inferSelect;

export const normEmail = (email: string) => email.trim().toLowerCase();

/** A prepared query (docs/rules/performance.md#prepared-queries): every password sign-in looks its e-mail up. */
export function accountByEmail(db: Db, email: string): AccountRow | null {
  return (
    preparedQuery(db, "auth.accountByEmail", (base) =>
      base
        .select()
        .from(accounts)
        .where(eq(accounts.email, sql.placeholder("email")))
        .prepare(),
    ).get({ email }) ?? null
  );
}

/** The id of the platform account of an e-mail once verified (the e-mail is proved); else null. */
export function verifiedAccountId(db: Db, email: string | null): string | null {
  const account = email ? accountByEmail(db, email) : null;
  return account?.verifiedAt != null ? account.id : null;
}

export function accountById(db: Db, id: string): AccountRow | null {
  return db.select().from(accounts).where(eq(accounts.id, id)).get() ?? null;
}

export const tenantOfKey = (rt: Runtime, key: string): TenantRow | null => tenantByKey(rt.platform.db, key);
export const tenantOfId = (rt: Runtime, id: string): TenantRow | null => tenantById(rt.platform.db, id);

export function memberByEmail(db: Db, email: string): MemberRow | null {
  return db.select().from(members).where(eq(members.email, email)).get() ?? null;
}

/** The login identifier is the member's userId or its e-mail, both case-insensitive. */
export function memberByIdentifier(db: Db, identifier: string): MemberRow | null {
  const key = identifier.trim().toLowerCase();
  return (
    preparedQuery(db, "auth.memberByIdentifier", (base) =>
      base
        .select()
        .from(members)
        .where(or(eq(members.userIdKey, sql.placeholder("key")), eq(members.email, sql.placeholder("key"))))
        .prepare(),
    ).get({ key }) ?? null
  );
}

/**
 * The member's e-mail is proved from now on (a code to it, its sign-up, an operator's social
 * provider): its tenant counts for the e-mail across tenants (docs/rules/trust.md#e-mails-an-administrator-typed).
 */
export function proveMemberEmail(db: Db, memberId: string, email: string, now: number) {
  db.update(members)
    .set({ emailVerifiedAt: now })
    .where(and(eq(members.id, memberId), eq(members.email, email), isNull(members.emailVerifiedAt)))
    .run();
}

export type { Membership };

const byOwnedThenName = (a: Membership, b: Membership) =>
  a.owned === b.owned ? a.tenant.name.localeCompare(b.tenant.name) : a.owned ? -1 : 1;

/**
 * The tenants an e-mail is an active member of, with the e-mail proved there: directory hits, each
 * checked against the tenant file (a stale index entry, an inactive member or an e-mail an
 * administrator only typed is left out: docs/rules/trust.md#e-mails-an-administrator-typed).
 * Owned tenants first, then by name.
 */
export function membershipsOf(rt: Runtime, email: string): Membership[] {
  const out: Membership[] = [];
  for (const hit of directoryOf(rt.platform.db, email)) {
    const logo = safeUse(rt, hit.tenantId, (h) => {
      const m = h.db
        .select({ isActive: members.isActive, email: members.email, verifiedAt: members.emailVerifiedAt })
        .from(members)
        .where(eq(members.id, hit.memberId))
        .get();
      return m?.isActive && m.email === email && m.verifiedAt !== null ? { url: tenantLogoUrl(rt, hit.tenantId, h.db) } : null;
    });
    if (!logo) continue;
    const tenant = { id: hit.tenantId, key: hit.key, name: hit.name, ownerEmail: hit.ownerEmail, createdAt: 0 };
    out.push({ tenant, memberId: hit.memberId, owned: hit.ownerEmail === email, logoImageUrl: logo.url });
  }
  return out.sort(byOwnedThenName);
}

/**
 * membershipsOf on every node of a cluster: this node's, then the other nodes' schools as they
 * check them (docs/rules/cluster.md#sign-in-without-a-tenant-key). One machine: membershipsOf.
 */
export async function allMembershipsOf(rt: Runtime, email: string): Promise<Membership[]> {
  const remote = remoteAuth(rt);
  if (!remote) return membershipsOf(rt, email);
  // A stale copy of a school placed elsewhere (a restarted node's) is not one of this node's.
  const local = membershipsOf(rt, email).filter((m) => !remote.nodeOf(m.tenant.key));
  const here = new Set(local.map((m) => m.tenant.key));
  const others = (await remote.memberships(email)).filter((m) => !here.has(m.tenant.key));
  return others.length ? [...local, ...others].sort(byOwnedThenName) : local;
}

/** AuthTenant[] and hasOwnedTenant of an e-mail (every node's schools in a cluster). */
export async function tenantsOf(rt: Runtime, email: string): Promise<{ tenants: Static<typeof AuthTenant>[]; hasOwnedTenant: boolean }> {
  const list = await allMembershipsOf(rt, email);
  return {
    tenants: list.map((m) => ({
      key: m.tenant.key,
      name: m.tenant.name,
      kind: m.owned ? "owner" : "member",
      logoImageUrl: m.logoImageUrl,
    })),
    hasOwnedTenant: list.some((m) => m.owned),
  };
}

/** Runs fn on a tenant file; a file that is gone counts as no answer (the index may be stale). */
export function safeUse<T>(rt: Runtime, tenantId: string, fn: (h: TenantHandle) => T): T | undefined {
  try {
    return rt.tenants.use(tenantId, fn);
  } catch (e) {
    if (e instanceof TenantFileMissingError) return undefined;
    throw e;
  }
}

/** Directory hits of an e-mail, unchecked: for flows that act on every tenant file it may be in. */
export const directoryHits = (rt: Runtime, email: string) => directoryOf(rt.platform.db, email);

/** SessionUser of a tenant member (the same shape getCurrentUser returns); `accountId` is the session's. */
export function sessionUserOf(
  rt: Runtime,
  h: TenantHandle,
  tenant: { id: string; key: string },
  m: ActorMember,
  accountId: string | null,
): Static<typeof SessionUser> {
  return {
    id: m.memberId,
    userId: m.userId,
    tenantKey: tenant.key,
    email: m.email ?? "",
    displayName: m.displayName,
    role: { key: m.roleKey, name: m.roleName },
    permissions: m.permissions,
    mustChangePassword: m.mustChangePassword,
    // From the terms module: essential terms without consent.
    needsAgreementConsent: needsAgreementConsent(rt, { accountId, tenantId: tenant.id, db: h.db, memberId: m.memberId }),
  };
}

/** SessionUser of a session without a tenant: the platform account alone. */
export function accountUserOf(a: AccountRow): Static<typeof SessionUser> {
  return {
    id: a.id,
    userId: null,
    tenantKey: null,
    email: a.email,
    displayName: a.displayName,
    role: null,
    permissions: [],
    mustChangePassword: false,
    needsAgreementConsent: false,
  };
}
