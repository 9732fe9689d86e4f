import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { sessions } from "../../platform/auth/platform-tables";
import { newRefreshToken, openSession, PERSONAL_SESSION_MS, refreshHashOf } from "../../platform/auth/sessions";
import type { TenantRow } from "../../platform/db/registry";
import { preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { unauthenticated } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { tenantLogoUrl } from "../login-page/public";
import { readSettings } from "../tenant/service";
import { type AccountRow, accountById, accountUserOf, sessionUserOf, tenantOfId, tenantsOf } from "./identity";
import type { AuthResult, AuthTenant, SessionRefresh, SessionTypeResult, SessionUser } from "./model";
import { rotatedRefreshTokens } from "./platform-tables";
import { sweepExpired } from "./sweep";

export const REFRESH_COOKIE = "lsp_session";
export const REFRESH_COOKIE_PATH = "/api/v1/auth/session";

type SessionType = "personal" | "public";
/**
 * Who a sign-in opens a session for: a tenant member, or a platform account without a tenant. A
 * member's `accountId` is the verified platform account the sign-in itself proved (a code to the
 * e-mail, the account's password), else null: the platform identity (platform consents) is never
 * taken from a member's e-mail alone.
 */
export type SignInTarget = { tenant: TenantRow; memberId: string; email: string; accountId: string | null } | { account: AccountRow };

/** A signed-in answer: the body and the refresh cookie the route sets. */
export type Issued<T> = { body: T; cookie: string };

const sessionExpired = () => unauthenticated("SESSION_EXPIRED", "The session has expired; sign in again.");

/** Set-Cookie for the refresh token; a public session's cookie lasts only as long as the browser. */
export function refreshCookie(rt: Runtime, token: string, type: SessionType, expiresAt: number): string {
  const parts = [`${REFRESH_COOKIE}=${token}`, `Path=${REFRESH_COOKIE_PATH}`, "HttpOnly", "SameSite=Lax"];
  if (type === "personal") parts.push(`Expires=${new Date(expiresAt).toUTCString()}`);
  if (!rt.config.publicUrl.startsWith("http://")) parts.push("Secure");
  return parts.join("; ");
}

export function clearedCookie(rt: Runtime): string {
  const parts = [`${REFRESH_COOKIE}=`, `Path=${REFRESH_COOKIE_PATH}`, "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (!rt.config.publicUrl.startsWith("http://")) parts.push("Secure");
  return parts.join("; ");
}

/** The value of the request's cookie `name`, or null (absent or empty). */
export function cookieOf(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}

export const refreshTokenOf = (request: Request): string | null => cookieOf(request, REFRESH_COOKIE);

const expiryOf = (type: SessionType, publicMinutes: number, now: number) =>
  type === "personal" ? now + PERSONAL_SESSION_MS : now + publicMinutes * 60_000;

/**
 * Opens a session for a verified sign-in and answers AuthResult. Without `sessionType` the
 * tenant's default applies, unconfirmed (docs/rules/sign-in.md#session-type).
 */
export async function startSession(
  rt: Runtime,
  target: SignInTarget,
  sessionType: SessionType | undefined,
  now = Date.now(),
): Promise<Issued<Static<typeof AuthResult>>> {
  let user: Static<typeof SessionUser>;
  let type: SessionType = sessionType ?? "personal";
  let expiresAt = expiryOf(type, 0, now);
  let email: string;
  let session: Parameters<typeof openSession>[2];
  let alone: Static<typeof AuthTenant> | null = null;
  if ("account" in target) {
    email = target.account.email;
    user = accountUserOf(target.account);
    session = {
      accountId: target.account.id,
      email,
      tenantId: null,
      tenantKey: null,
      memberId: null,
      sessionType: type,
      confirmed: !!sessionType,
      absoluteExpiresAt: expiresAt,
    };
  } else {
    const { tenant, memberId } = target;
    email = target.email;
    const found = rt.tenants.use(tenant.id, (h) => {
      const m = rt.resolveMember(h, memberId);
      if (!m?.isActive) return null;
      const settings = readSettings(h.db);
      // In the turn's group commit, not a commit of its own on the event loop (docs/rules/sign-in.md#writes-of-a-sign-in).
      const row = write(h.db, (tx) =>
        preparedQuery(tx, "auth.lastLogin", (base) =>
          base
            .update(members)
            .set({ lastLoginAt: sql`${sql.placeholder("now")}` })
            .where(eq(members.id, sql.placeholder("id")))
            .returning({ emailVerifiedAt: members.emailVerifiedAt })
            .prepare(),
        ).get({ now, id: memberId }),
      );
      const proved = row?.emailVerifiedAt != null;
      return {
        settings,
        proved,
        logoImageUrl: tenantLogoUrl(rt, tenant.id, h.db),
        user: sessionUserOf(rt, h, tenant, m, target.accountId),
      };
    });
    if (!found) throw unauthenticated("INVALID_CREDENTIALS", "The identifier or password is wrong.");
    user = found.user;
    // A member without an e-mail is in no directory, and one whose e-mail an administrator only
    // typed has not shown it owns the address: its tenants are this one alone
    // (docs/rules/trust.md#e-mails-an-administrator-typed).
    if (!email || !found.proved) alone = { key: tenant.key, name: tenant.name, kind: "member", logoImageUrl: found.logoImageUrl };
    type = sessionType ?? found.settings.defaultSessionType;
    expiresAt = expiryOf(type, found.settings.publicAbsoluteTimeoutMinutes, now);
    session = {
      accountId: target.accountId,
      email,
      tenantId: tenant.id,
      tenantKey: tenant.key,
      memberId,
      sessionType: type,
      confirmed: !!sessionType,
      absoluteExpiresAt: expiresAt,
    };
  }
  const opened = await openSession(rt, rt.platform.db, session, now);
  const { tenants, hasOwnedTenant } = alone ? { tenants: [alone], hasOwnedTenant: false } : await tenantsOf(rt, email);
  return {
    body: {
      result: "authenticated",
      accessToken: opened.accessToken,
      accessTokenExpiresAt: isoRequired(opened.accessTokenExpiresAt),
      user,
      tenants,
      hasOwnedTenant,
      email,
    },
    cookie: refreshCookie(rt, opened.refreshToken, type, expiresAt),
  };
}

type SessionRow = typeof sessions.$inferSelect;

/** Moves a session's refresh token on to `next`; the current one is remembered as rotated away. */
function rotateIn(rt: Runtime, tx: Db, s: { id: string; refreshHash: string }, next: string, now: number) {
  tx.insert(rotatedRefreshTokens).values({ hash: s.refreshHash, sessionId: s.id, rotatedAt: now }).run();
  tx.update(sessions)
    .set({ refreshHash: refreshHashOf(rt, next), previousRefreshHash: s.refreshHash, lastUsedAt: now })
    .where(eq(sessions.id, s.id))
    .run();
}

/** Two tabs refreshing at once: the token just rotated away still rotates within this time. */
export const REFRESH_REUSE_GRACE_MS = 30_000;

/**
 * Rotates the refresh token. A token that was already rotated away is a stolen or replayed one:
 * its whole session is revoked (the revocation is committed before the 401) — except the session's
 * previous token within REFRESH_REUSE_GRACE_MS of its rotation (a concurrent refresh), which
 * rotates once more.
 */
export async function refreshSession(rt: Runtime, token: string | null, now = Date.now()): Promise<Issued<Static<typeof SessionRefresh>>> {
  if (!token) throw sessionExpired();
  sweepExpired(rt, now);
  const hash = refreshHashOf(rt, token);
  const next = newRefreshToken();
  const outcome = write(rt.platform.db, (tx): { session: SessionRow } | { reused: string | null } => {
    let s = tx.select().from(sessions).where(eq(sessions.refreshHash, hash)).get();
    if (!s) {
      const old = tx.select().from(rotatedRefreshTokens).where(eq(rotatedRefreshTokens.hash, hash)).get();
      if (old && old.rotatedAt > now - REFRESH_REUSE_GRACE_MS) {
        s = tx
          .select()
          .from(sessions)
          .where(and(eq(sessions.id, old.sessionId), eq(sessions.previousRefreshHash, hash)))
          .get();
      }
      if (!s && old)
        tx.update(sessions)
          .set({ revokedAt: now })
          .where(and(eq(sessions.id, old.sessionId), isNull(sessions.revokedAt)))
          .run();
      if (!s) return { reused: old?.sessionId ?? null };
    }
    if (s.revokedAt !== null || s.absoluteExpiresAt <= now) return { reused: null };
    rotateIn(rt, tx, s, next, now);
    return { session: s };
  });
  if (!("session" in outcome)) {
    if (outcome.reused) rt.log({ level: "warn", event: "session.refresh-reuse", sessionId: outcome.reused });
    throw sessionExpired();
  }
  const s = outcome.session;
  const user = userOfSession(rt, s);
  if (!user) {
    revokeSession(rt, s.id, now);
    throw sessionExpired();
  }
  const access = await rt.tokens.sign(
    { sid: s.id, acc: s.accountId, email: s.email, tid: s.tenantId, tkey: user.tenantKey, sub: s.memberId },
    now,
    s.absoluteExpiresAt,
  );
  return {
    body: { accessToken: access.accessToken, accessTokenExpiresAt: isoRequired(access.accessTokenExpiresAt), user },
    cookie: refreshCookie(rt, next, s.sessionType, s.absoluteExpiresAt),
  };
}

/** The SessionUser of a session now; null when its member or account is gone or inactive. */
function userOfSession(rt: Runtime, s: SessionRow): Static<typeof SessionUser> | null {
  if (!s.tenantId || !s.memberId) {
    const account = s.accountId ? accountById(rt.platform.db, s.accountId) : null;
    return account ? accountUserOf(account) : null;
  }
  const tenant = tenantOfId(rt, s.tenantId);
  if (!tenant) return null;
  const memberId = s.memberId;
  return rt.tenants.use(tenant.id, (h) => {
    const m = rt.resolveMember(h, memberId);
    return m?.isActive ? sessionUserOf(rt, h, tenant, m, s.accountId) : null;
  });
}

export function revokeSession(rt: Runtime, sessionId: string, now = Date.now()) {
  rt.platform.db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .run();
}

/** signOut: revokes the cookie's session (a rotated-away token names its session too). */
export function signOut(rt: Runtime, token: string | null, now = Date.now()) {
  if (!token) return;
  const hash = refreshHashOf(rt, token);
  const db = rt.platform.db;
  const sessionId =
    db.select({ id: sessions.id }).from(sessions).where(eq(sessions.refreshHash, hash)).get()?.id ??
    db.select({ id: rotatedRefreshTokens.sessionId }).from(rotatedRefreshTokens).where(eq(rotatedRefreshTokens.hash, hash)).get()?.id;
  if (sessionId) revokeSession(rt, sessionId, now);
}

/**
 * setSessionType: confirms the type and restarts the absolute lifetime from now (docs/rules/sign-in.md#session-type).
 * The refresh token is rotated and its cookie sent again with the new type's attributes (a public
 * session's cookie must not outlive the browser).
 */
export function setSessionType(
  rt: Runtime,
  actor: Actor,
  sessionType: SessionType,
  now = Date.now(),
): Issued<Static<typeof SessionTypeResult>> {
  const settings = readSettings(actor.db);
  const absoluteExpiresAt = expiryOf(sessionType, settings.publicAbsoluteTimeoutMinutes, now);
  const next = newRefreshToken();
  write(rt.platform.db, (tx) => {
    const s = tx
      .select({ id: sessions.id, refreshHash: sessions.refreshHash })
      .from(sessions)
      .where(eq(sessions.id, actor.sessionId))
      .get();
    if (!s) throw unauthenticated();
    tx.update(sessions).set({ sessionType, confirmed: true, absoluteExpiresAt }).where(eq(sessions.id, s.id)).run();
    rotateIn(rt, tx, s, next, now);
  });
  return {
    body: { sessionType, absoluteExpiresAt: isoRequired(absoluteExpiresAt), confirmed: true },
    cookie: refreshCookie(rt, next, sessionType, absoluteExpiresAt),
  };
}

/** Ends a member's sessions in one tenant except `keep` (own password change). */
export function revokeMemberSessions(rt: Runtime, tenantId: string, memberId: string, keep: string | null, now = Date.now()) {
  const where = and(eq(sessions.tenantId, tenantId), eq(sessions.memberId, memberId), isNull(sessions.revokedAt));
  rt.platform.db
    .update(sessions)
    .set({ revokedAt: now })
    .where(keep ? and(where, ne(sessions.id, keep)) : where)
    .run();
}

/** Ends every session of an e-mail (password reset by e-mail: the whole identity). */
export function revokeEmailSessions(rt: Runtime, email: string, now = Date.now()) {
  rt.platform.db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.email, email), isNull(sessions.revokedAt)))
    .run();
}
