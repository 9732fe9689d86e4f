import { Value } from "@sinclair/typebox/value";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { indexMember } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import { Problem } from "../../platform/http/errors";
import { fieldPath } from "../../platform/http/plugin";
import type { Runtime } from "../../platform/runtime";
import { loadMembers } from "./list";
import { CreateMembersItem, type CreateMembersResult } from "./model";
import { checkNewMember, insertIssued, issuedPassword, isUnique } from "./service";

type Item = Static<typeof CreateMembersItem>;
type Failure = { index: number; reason: string };

/** `INVALID: <field> <message>` of the first rule the item breaks, or null. */
function firstRuleBroken(item: unknown): string | null {
  const e = Value.Errors(CreateMembersItem, item).First();
  if (!e) return null;
  const custom = (e.schema as { error?: unknown }).error;
  const message = e.value === undefined ? "is required" : typeof custom === "string" ? custom : e.message;
  return `INVALID: ${fieldPath(e.path) || "item"} ${message}`;
}

/** A refusal of createMember's path as a §13 reason; anything else is not the item's fault. */
function reasonOf(e: unknown): string {
  if (!(e instanceof Problem)) throw e;
  if (e.status === 409) return "ALREADY_EXISTS";
  if (e.status === 403) return "FORBIDDEN_ROLE";
  const first = e.errors?.[0];
  if (e.status === 400 && first) return `INVALID: ${first.field} ${first.message}`;
  throw e;
}

/**
 * createMembers (DECISIONS §13): each item goes createMember's path (checks, hash, insert,
 * directory) and lands in `created` or `failed`. The hashes run concurrently before any write.
 */
export async function createMembers(rt: Runtime, actor: Actor, items: unknown[], now = Date.now()) {
  const failed: Failure[] = [];
  const checked: { index: number; input: Item; roleId: string }[] = [];
  for (const [index, raw] of items.entries()) {
    const broken = firstRuleBroken(raw);
    if (broken) {
      failed.push({ index, reason: broken });
      continue;
    }
    const input = raw as Item;
    try {
      checked.push({ index, input, roleId: checkNewMember(actor, input).id });
    } catch (e) {
      failed.push({ index, reason: reasonOf(e) });
    }
  }
  const passwords = await Promise.all(checked.map((c) => issuedPassword(c.input.password)));
  // One write transaction with a savepoint per item: each item stands or falls alone, and the
  // batch pays one synchronous commit instead of one per item.
  const stored = write(actor.db, (tx) =>
    checked.flatMap((c, i) => {
      const { tempPassword, passwordHash } = passwords[i] as Awaited<ReturnType<typeof issuedPassword>>;
      try {
        const id = tx.transaction((item) => insertIssued(item as unknown as Db, c.input, c.roleId, passwordHash, now));
        return [{ index: c.index, id, email: c.input.email ?? null, tempPassword }];
      } catch (e) {
        // A later item of the same list with an e-mail or userId an earlier one took.
        if (!isUnique(e)) throw e;
        failed.push({ index: c.index, reason: "ALREADY_EXISTS" });
        return [];
      }
    }),
  );
  write(rt.platform.db, (tx) => {
    for (const s of stored) indexMember(tx, s.email, actor.tenantId, s.id);
  });
  const loaded = new Map(
    loadMembers(
      actor.handle.sqlite,
      stored.map((s) => s.id),
    ).map((m) => [m.id, m]),
  );
  const created: Static<typeof CreateMembersResult>["created"] = stored.flatMap((s) => {
    const member = loaded.get(s.id);
    return member ? [{ index: s.index, member, tempPassword: s.tempPassword }] : [];
  });
  return { created, failed: failed.sort((a, b) => a.index - b.index) };
}
