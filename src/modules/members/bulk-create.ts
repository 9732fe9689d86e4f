import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { indexMember } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { firstRuleBroken, reasonOf } from "./bulk";
import { loadMembers } from "./list";
import { CreateMembersItem, type CreateMembersResult } from "./model";
import { checkNewMember, insertIssued, issuedPassword, isUnique } from "./service";

type Item = Static<typeof CreateMembersItem>;
type Failure = { index: number; reason: string };

/**
 * createMembers (DECISIONS §13): each item goes createMember's path (checks, hash, insert,
 * directory) and lands in `created` or `failed`. The hashes run concurrently before any write.
 */
export async function createMembers(rt: Runtime, actor: Actor, items: unknown[], now = Date.now()) {
  const failed: Failure[] = [];
  const checked: { index: number; input: Item; roleId: string }[] = [];
  for (const [index, raw] of items.entries()) {
    const broken = firstRuleBroken(CreateMembersItem, raw);
    if (broken) {
      failed.push({ index, reason: broken });
      continue;
    }
    const input = raw as Item;
    try {
      checked.push({ index, input, roleId: checkNewMember(actor, input).id });
    } catch (e) {
      failed.push({ index, reason: reasonOf(e, "FORBIDDEN_ROLE") });
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
