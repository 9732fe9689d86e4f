import { and, desc, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { nodeCrypto } from "../../platform/crypto";
import { type Db, write } from "../../platform/db/types";
import { badRequest, forbidden, notFound } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { spaceJoinCodes, spaces } from "../../schema/spaces";
import { normalizeJoinCode, tenantCodeTaken } from "../join-codes/lookup";
import { requireSpaceAdmin, type SpaceRow } from "./access";
import { requireActiveSpace } from "./archived";
import { enrol, isBlocked, spaceMemberItem } from "./members";
import type { CreateSpaceJoinCodeBody, JoinSpaceBody, SpaceJoinCode, SpaceMember, UpdateSpaceJoinCodeBody } from "./model";
import { spaceRecord } from "./service";

type CodeRow = typeof spaceJoinCodes.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;
// The tenant join codes' alphabet: no 0/O/1/I/L, codes are read aloud and typed by hand.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const newCode = () => Array.from({ length: 10 }, () => ALPHABET[nodeCrypto().randomInt(ALPHABET.length)]).join("");

function toJoinCode(rt: Runtime, tenantKey: string, row: CodeRow): Static<typeof SpaceJoinCode> {
  return {
    id: row.id,
    role: row.role,
    code: row.code,
    link: `${rt.schoolUrl({ key: tenantKey })}/t/${encodeURIComponent(tenantKey)}/spaces/join?code=${encodeURIComponent(row.code)}`,
    enabled: row.enabled,
    password: row.password,
    expiresAt: iso(row.expiresAt),
    createdAt: isoRequired(row.createdAt),
  };
}

/** Codes are unique in the tenant: across space codes and tenant join codes. */
function codeTaken(tx: Db, code: string): boolean {
  return (
    tx.select({ id: spaceJoinCodes.id }).from(spaceJoinCodes).where(eq(spaceJoinCodes.code, code)).get() !== undefined ||
    tenantCodeTaken(tx, code)
  );
}

export function createSpaceJoinCode(
  rt: Runtime,
  actor: Actor,
  spaceId: string,
  input: Static<typeof CreateSpaceJoinCodeBody>,
  now = Date.now(),
) {
  const row = write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    let code = newCode();
    while (codeTaken(tx, code)) code = newCode();
    return tx
      .insert(spaceJoinCodes)
      .values({
        id: Bun.randomUUIDv7(),
        spaceId,
        code,
        role: input.role ?? "PARTICIPANT",
        password: input.password || null,
        enabled: true,
        expiresAt: input.expiresInDays == null ? null : now + input.expiresInDays * DAY_MS,
        createdAt: now,
      })
      .returning()
      .get();
  });
  return toJoinCode(rt, actor.tenantKey, row);
}

export function updateSpaceJoinCode(rt: Runtime, actor: Actor, spaceId: string, id: string, input: Static<typeof UpdateSpaceJoinCodeBody>) {
  const row = write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    const current = tx
      .select()
      .from(spaceJoinCodes)
      .where(and(eq(spaceJoinCodes.id, id), eq(spaceJoinCodes.spaceId, spaceId)))
      .get();
    if (!current) throw notFound();
    return tx
      .update(spaceJoinCodes)
      .set({
        enabled: input.enabled ?? current.enabled,
        password: input.password === undefined ? current.password : input.password || null,
      })
      .where(eq(spaceJoinCodes.id, id))
      .returning()
      .get() as CodeRow;
  });
  return toJoinCode(rt, actor.tenantKey, row);
}

/** ADMIN only (passwords show); newest first, disabled and expired included. */
export function listSpaceJoinCodes(rt: Runtime, actor: Actor, spaceId: string) {
  requireSpaceAdmin(actor, spaceId);
  const rows = actor.db
    .select()
    .from(spaceJoinCodes)
    .where(eq(spaceJoinCodes.spaceId, spaceId))
    .orderBy(desc(spaceJoinCodes.createdAt), desc(spaceJoinCodes.id))
    .all();
  return { joinCodes: rows.map((r) => toJoinCode(rt, actor.tenantKey, r)) };
}

const invalidCode = (field: "code" | "password") =>
  badRequest("INVALID_CODE", "The join code or its password is not valid.", [
    { in: "body", field, message: field === "code" ? "is not a usable join code" : "does not match the join code's password" },
  ]);

function samePassword(stored: string, sent: string | null | undefined): boolean {
  if (sent == null) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(sent);
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}

/**
 * Unknown, disabled or expired code, or a wrong password: 400 INVALID_CODE. Blocked: 403; inactive
 * space: 409. Enrols with the code's role; an enrolled caller stays as is.
 */
export function joinSpaceWithCode(rt: Runtime, actor: Actor, input: Static<typeof JoinSpaceBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    const code = tx
      .select()
      .from(spaceJoinCodes)
      .where(eq(spaceJoinCodes.code, normalizeJoinCode(input.code)))
      .get();
    if (!code?.enabled || (code.expiresAt !== null && code.expiresAt <= now)) throw invalidCode("code");
    if (code.password !== null && !samePassword(code.password, input.password)) throw invalidCode("password");
    const space = tx.select().from(spaces).where(eq(spaces.id, code.spaceId)).get() as SpaceRow;
    const enrolled = spaceMemberItem(tx, space.id, actor.memberId);
    if (!enrolled) {
      if (isBlocked(tx, space.id, actor.memberId)) throw forbidden("FORBIDDEN", "You are blocked in this space.");
      requireActiveSpace(tx, space.id);
      enrol(tx, space, [actor.memberId], code.role, now);
    } else {
      requireActiveSpace(tx, space.id);
    }
    const member = enrolled ?? (spaceMemberItem(tx, space.id, actor.memberId) as Static<typeof SpaceMember>);
    return { space: spaceRecord(tx, { rt, actor }, space), member };
  });
}
