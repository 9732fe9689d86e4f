import { desc, eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { nodeCrypto } from "../../platform/crypto";
import { write } from "../../platform/db/types";
import { notFound } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import type { TenantJoinCodeRow } from "./lookup";
import type { CreateJoinCodeBody, JoinCode, UpdateJoinCodeBody } from "./model";
import { tenantJoinCodes } from "./tables";

const DAY_MS = 24 * 60 * 60 * 1000;
// No 0/O/1/I/L: codes are read aloud and typed by hand.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 10;

const newCode = () => Array.from({ length: CODE_LENGTH }, () => ALPHABET[nodeCrypto().randomInt(ALPHABET.length)]).join("");

export function joinCodeLink(rt: Runtime, tenantKey: string, code: string) {
  return `${rt.schoolUrl({ key: tenantKey })}/t/${encodeURIComponent(tenantKey)}/join?code=${encodeURIComponent(code)}`;
}

function toJoinCode(rt: Runtime, tenantKey: string, row: TenantJoinCodeRow): Static<typeof JoinCode> {
  return {
    id: row.id,
    code: row.code,
    enabled: row.enabled,
    expiresAt: iso(row.expiresAt),
    createdAt: isoRequired(row.createdAt),
    link: joinCodeLink(rt, tenantKey, row.code),
  };
}

export function createTenantJoinCode(rt: Runtime, actor: Actor, input: Static<typeof CreateJoinCodeBody>, now = Date.now()) {
  const expiresAt = input.expiresInDays === undefined ? null : now + input.expiresInDays * DAY_MS;
  const row = write(actor.db, (tx) => {
    let code = newCode();
    // 31^10 codes: a collision is rare, but the code must be unique in the tenant.
    while (tx.select({ id: tenantJoinCodes.id }).from(tenantJoinCodes).where(eq(tenantJoinCodes.code, code)).get()) code = newCode();
    return tx.insert(tenantJoinCodes).values({ id: Bun.randomUUIDv7(), code, enabled: true, expiresAt, createdAt: now }).returning().get();
  });
  return toJoinCode(rt, actor.tenantKey, row);
}

export function updateTenantJoinCode(rt: Runtime, actor: Actor, id: string, input: Static<typeof UpdateJoinCodeBody>) {
  const row = write(actor.db, (tx) =>
    tx.update(tenantJoinCodes).set({ enabled: input.enabled }).where(eq(tenantJoinCodes.id, id)).returning().get(),
  );
  if (!row) throw notFound();
  return toJoinCode(rt, actor.tenantKey, row);
}

/** Newest first, disabled and expired included. */
export function listTenantJoinCodes(rt: Runtime, actor: Actor) {
  const rows = actor.db.select().from(tenantJoinCodes).orderBy(desc(tenantJoinCodes.createdAt), desc(tenantJoinCodes.id)).all();
  return { joinCodes: rows.map((r) => toJoinCode(rt, actor.tenantKey, r)) };
}
