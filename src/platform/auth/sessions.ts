import { sql } from "drizzle-orm";
import { mac, nodeCrypto } from "../crypto";
import { preparedQuery } from "../db/sqlite";
import { type Db, write } from "../db/types";
import type { Runtime } from "../runtime";
import { sessions } from "./platform-tables";

export const PERSONAL_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

export type NewSession = {
  accountId: string | null;
  email: string;
  tenantId: string | null;
  tenantKey: string | null;
  memberId: string | null;
  sessionType: "personal" | "public";
  confirmed: boolean;
  absoluteExpiresAt: number;
};

/** A refresh token: 256 random bits; only its keyed hash is stored. */
export const newRefreshToken = () => nodeCrypto().randomBytes(32).toString("base64url");

export const refreshHashOf = (rt: Runtime, refreshToken: string) => mac(rt.secret, "refresh", refreshToken);

const p = (name: string) => sql`${sql.placeholder(name)}`;

/** Every sign-in's INSERT, prepared once (docs/rules/performance.md#prepared-queries). */
const insertSession = (db: Db) =>
  preparedQuery(db, "auth.insertSession", (base) =>
    base
      .insert(sessions)
      .values({
        id: p("id"),
        accountId: p("accountId"),
        email: p("email"),
        tenantId: p("tenantId"),
        memberId: p("memberId"),
        sessionType: p("sessionType"),
        confirmed: p("confirmed"),
        refreshHash: p("refreshHash"),
        createdAt: p("now"),
        lastUsedAt: p("now"),
        absoluteExpiresAt: p("absoluteExpiresAt"),
      })
      .prepare(),
  );

/** Opens a sign-in session; returns its id, the refresh token (cookie value) and a first access token. */
export async function openSession(rt: Runtime, db: Db, input: NewSession, now = Date.now()) {
  const id = Bun.randomUUIDv7();
  const refreshToken = newRefreshToken();
  // In the turn's group commit, not a commit of its own on the event loop (docs/rules/sign-in.md#writes-of-a-sign-in).
  write(db, (tx) =>
    insertSession(tx).run({
      id,
      accountId: input.accountId,
      email: input.email.toLowerCase(),
      tenantId: input.tenantId,
      memberId: input.memberId,
      sessionType: input.sessionType,
      confirmed: input.confirmed ? 1 : 0,
      refreshHash: refreshHashOf(rt, refreshToken),
      now,
      absoluteExpiresAt: input.absoluteExpiresAt,
    }),
  );
  const access = await rt.tokens.sign(
    { sid: id, acc: input.accountId, email: input.email.toLowerCase(), tid: input.tenantId, tkey: input.tenantKey, sub: input.memberId },
    now,
    input.absoluteExpiresAt,
  );
  return { sessionId: id, refreshToken, ...access };
}

/** A confirmed personal session for a tenant member (fixtures, benchmarks, operator tooling). */
export function openMemberSession(rt: Runtime, m: { email: string; tenantId: string; tenantKey: string; memberId: string }) {
  return openSession(rt, rt.platform.db, {
    accountId: null,
    ...m,
    sessionType: "personal",
    confirmed: true,
    absoluteExpiresAt: Date.now() + PERSONAL_SESSION_MS,
  });
}
